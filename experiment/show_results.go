package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/sheet"
)

func (s Summary) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: fmt.Sprintf("summary of %d runs (%d with latency figures)", s.Runs, s.LatencyRuns)}
	addFields(&sh, SummaryRecord("", s), "policy", "runs", "latency_runs")
	sh.Note = "medians across runs; p99_min_ms–p99_max_ms is the observed range, not a confidence interval"
	return sh
}

// String lists the summary's figures, labelled.
func (s Summary) String() string { return s.sheet().Text() }

// HTML shows the summary as a labelled table.
func (s Summary) HTML() string { return s.sheet().HTML() }

// String summarises the policy's runs in one line.
func (p PolicyResult) String() string {
	s := p.Summary
	return fmt.Sprintf("%s: %d runs; median p99 %s (range %s ms), median attainment %s",
		p.Name, s.Runs, sheet.Millis(s.MedianP99), rangeText(s.P99Min, s.P99Max), sheet.Percent(s.MedianAttainment))
}

// HTML shows the summary and a row per run.
func (p PolicyResult) HTML() string {
	sh := p.Summary.sheet()
	sh.Title = p.Name + ": " + sh.Title
	sh.AddGrid("runs", []string{"seed", "arrivals", "completed", "shed", "unfinished", "p50 ms", "p99 ms", "attainment"}, len(p.Runs), func(i int) []string {
		r := p.Runs[i]
		if r == nil {
			return []string{"—", "no result", "", "", "", "", "", ""}
		}
		return []string{fmt.Sprint(r.Seed), fmt.Sprint(r.Cohort), fmt.Sprint(r.Completed), fmt.Sprint(r.Shed), fmt.Sprint(r.Unfinished),
			sheet.Dash("%.1f", r.Latency.P50), sheet.Dash("%.1f", r.Latency.P99), sheet.Percent(r.Attainment)}
	})
	return sh.HTML()
}

// HTML shows the comparison's table (the text table's columns).
func (c Comparison) HTML() string {
	head, rows := c.tableRows()
	sh := sheet.Sheet{Title: c.headline(), Note: comparisonNote}
	sh.AddGrid("policies", head, len(rows), func(i int) []string { return rows[i] })
	return sh.HTML()
}

// String lists each point's comparison table.
func (s SweepResult) String() string {
	if len(s.Comparisons) == 0 {
		return "sweep with no points"
	}
	var b strings.Builder
	for _, c := range s.Comparisons {
		if c != nil {
			b.WriteString(c.String())
		}
		b.WriteString("\n")
	}
	return b.String()
}

// HTML shows each point's comparison table.
func (s SweepResult) HTML() string {
	var b strings.Builder
	b.WriteString(sheet.Sheet{Title: fmt.Sprintf("sweep over %s: %d points", sheet.YesNo(s.XLabel != "", s.XLabel, "x"), len(s.Comparisons))}.HTML())
	for _, c := range s.Comparisons {
		if c != nil {
			b.WriteString(c.HTML())
		}
	}
	return b.String()
}

// String lists the scores with their standard errors, the selected weight
// and its margin over the runner-up.
func (r StudyResult) String() string {
	var b strings.Builder
	for _, w := range r.Weights {
		fmt.Fprintf(&b, "c = %-5g development mean attainment %.4f%% (std err %s pp)\n", w.C, 100*w.MeanAttainment, sheet.Dash("%.4f", 100*w.StdErr))
	}
	fmt.Fprintf(&b, "selected c = %g\n", r.SelectedC)
	if len(r.Weights) > 0 {
		fmt.Fprintln(&b, r.marginText())
	}
	for _, v := range r.Validation {
		fmt.Fprintf(&b, "%-14s validation mean attainment %.4f%% (std err %s pp, %d runs)\n", v.Name, 100*v.MeanAttainment, sheet.Dash("%.4f", 100*v.StdErr), v.Runs)
	}
	return b.String()
}

// HTML shows the development and validation scores, with their standard
// errors, and the selection margin.
func (r StudyResult) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("study %s: selected c = %g", r.Config.Name, r.SelectedC)}
	sh.AddGrid("weights", []string{"c", "development mean attainment", "std err", "runs"}, len(r.Weights), func(i int) []string {
		w := r.Weights[i]
		return []string{fmt.Sprintf("%g", w.C), sheet.Dash("%.4f%%", 100*w.MeanAttainment), sheet.Dash("%.4f pp", 100*w.StdErr), fmt.Sprint(w.Runs)}
	})
	sh.AddGrid("policies", []string{"policy", "validation mean attainment", "std err", "runs"}, len(r.Validation), func(i int) []string {
		v := r.Validation[i]
		return []string{v.Name, sheet.Dash("%.4f%%", 100*v.MeanAttainment), sheet.Dash("%.4f pp", 100*v.StdErr), fmt.Sprint(v.Runs)}
	})
	sh.Note = fmt.Sprintf("%d development and %d validation runs; attainment is averaged per condition, then across conditions; "+
		"standard errors are over seeds, each seed averaged over the conditions", len(r.Development), len(r.Validated))
	if len(r.Weights) > 0 {
		sh.Note += "; " + r.marginText()
	}
	return sh.HTML()
}

// String describes the run and its condition.
func (r StudyRun) String() string {
	res := "no result"
	if r.Result != nil {
		res = r.Result.String()
	}
	return fmt.Sprintf("%s run in %s: %s", r.Phase, r.Condition, res)
}

// HTML shows the run as a table.
func (r StudyRun) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("%s run of %s in %s", r.Phase, r.Policy, r.Condition)}
	if !math.IsNaN(r.C) {
		sh.Add("c", fmt.Sprintf("%g", r.C))
	}
	if r.Result != nil {
		addFields(&sh, engine.RunRecord(r.Result), "policy", "scenario")
	}
	return sh.HTML()
}

// String gives the score in one line.
func (s Score) String() string {
	return fmt.Sprintf("%s: mean attainment %s over %d runs (std err %s pp over %d seeds)",
		s.Name, sheet.Dash("%.4f%%", 100*s.MeanAttainment), s.Runs, sheet.Dash("%.4f", 100*s.StdErr), s.Seeds)
}

// HTML shows the score as a table.
func (s Score) HTML() string {
	sh := sheet.Sheet{Title: "score of " + s.Name}
	if !math.IsNaN(s.C) {
		sh.Add("c", fmt.Sprintf("%g", s.C))
	}
	sh.Add("mean attainment", sheet.Dash("%.4f%%", 100*s.MeanAttainment))
	sh.Add("std err", sheet.Dash("%.4f pp", 100*s.StdErr)+fmt.Sprintf(" (over %d seeds)", s.Seeds))
	sh.Add("runs", fmt.Sprint(s.Runs))
	return sh.HTML()
}

// addFields appends a record's fields as rows, leaving out the named ones.
func addFields(s *sheet.Sheet, rec []engine.Field, skip ...string) {
	for _, f := range rec {
		if !slices.Contains(skip, f.Name) {
			s.Add(f.Name, f.ValueText())
		}
	}
}
