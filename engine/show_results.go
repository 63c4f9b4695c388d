package engine

import (
	"fmt"
	"math"
	"strings"

	"github.com/routelab/routelab/internal/sheet"
)

// Displays of results: records, latency statistics, runs, summaries,
// comparisons, sweeps and studies (see show.go). Summaries and runs are
// labelled by their records' snake_case names, the one spelling JSON and CSV
// use too; per-request latencies are counted, never listed.

// String summarises the latencies.
func (l LatencyStats) String() string {
	if l.Count == 0 {
		return "no latencies"
	}
	return fmt.Sprintf("%d latencies: mean %.1f ms, p50 %.1f, p90 %.1f, p95 %.1f, p99 %.1f, max %.1f ms",
		l.Count, l.Mean, l.P50, l.P90, l.P95, l.P99, l.Max)
}

// HTML shows the statistics as a table.
func (l LatencyStats) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("%d latencies (nearest-rank percentiles)", l.Count)}
	for _, r := range []sheet.Row{{Label: "mean", Value: sheet.Millis(l.Mean)}, {Label: "p50", Value: sheet.Millis(l.P50)}, {Label: "p90", Value: sheet.Millis(l.P90)},
		{Label: "p95", Value: sheet.Millis(l.P95)}, {Label: "p99", Value: sheet.Millis(l.P99)}, {Label: "max", Value: sheet.Millis(l.Max)}} {
		sh.Add(r.Label, r.Value)
	}
	return sh.HTML()
}

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

// String summarises the run in one line: counts and percentiles.
func (r RunSummary) String() string {
	l := r.Latency
	return fmt.Sprintf("%s on %s, seed %d: %d arrivals → %d completed, %d shed, %d unfinished; p50 %s ms, p99 %s ms, attainment %s",
		r.Policy, r.Scenario, r.Seed, r.Cohort, r.Completed, r.Shed, r.Unfinished,
		sheet.Dash("%.1f", l.P50), sheet.Dash("%.1f", l.P99), sheet.Dash("%.2f%%", 100*r.Attainment))
}

// HTML shows the run's record as a table.
func (r RunSummary) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("%s on %s, seed %d", r.Policy, r.Scenario, r.Seed)}
	addFields(&sh, RunRecord(&r), "policy", "scenario", "seed")
	return sh.HTML()
}

// HTML shows the run's figures and its replicas as tables.
func (r RunResult) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("%s on %s, seed %d", r.Policy, r.Scenario, r.Seed)}
	addFields(&sh, RunRecord(&r.RunSummary), "policy", "scenario", "seed")
	sh.AddGrid("replicas", []string{"replica", "assigned", "completed", "mean ms"}, len(r.PerReplica), func(i int) []string {
		p := r.PerReplica[i]
		return []string{fmt.Sprint(p.ID), fmt.Sprint(p.Assigned), fmt.Sprint(p.Completed), sheet.Dash("%.1f", p.MeanMs)}
	})
	var kept []string
	if len(r.Latencies) > 0 {
		kept = append(kept, fmt.Sprintf("%d latencies in .Latencies", len(r.Latencies)))
	}
	if r.Timeline != nil {
		kept = append(kept, fmt.Sprintf("%d timeline samples in .Timeline", len(r.Timeline.Points)))
	}
	if len(kept) > 0 {
		sh.Note = "kept: " + strings.Join(kept, ", ")
	}
	return sh.HTML()
}

// String describes the replica's share of the run.
func (r ReplicaResult) String() string {
	return fmt.Sprintf("replica %d: %d assigned, %d completed, mean latency %s", r.ID, r.Assigned, r.Completed, sheet.Millis(r.MeanMs))
}

// HTML shows the replica's share as a table.
func (r ReplicaResult) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("replica %d", r.ID)}
	sh.Add("assigned", fmt.Sprint(r.Assigned))
	sh.Add("completed", fmt.Sprint(r.Completed))
	sh.Add("mean latency", sheet.Millis(r.MeanMs))
	return sh.HTML()
}

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
		addFields(&sh, RunRecord(r.Result), "policy", "scenario")
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

// String gives the counts in one line.
func (t Totals) String() string {
	return fmt.Sprintf("%d arrivals, %d routed, %d shed, %d completed", t.Arrivals, t.Routed, t.Shed, t.Completed)
}

// HTML shows the counts as a table.
func (t Totals) HTML() string {
	sh := sheet.Sheet{Title: "totals since time zero"}
	sh.Add("arrivals", fmt.Sprint(t.Arrivals))
	sh.Add("routed", fmt.Sprintf("%d (re-routes included)", t.Routed))
	sh.Add("shed", fmt.Sprint(t.Shed))
	sh.Add("completed", fmt.Sprint(t.Completed))
	return sh.HTML()
}

// String describes the decision in one line.
func (d Decision) String() string {
	to := fmt.Sprintf("replica %d of %d eligible", d.Replica, d.Eligible)
	if d.Replica == 0 {
		to = "shed (no eligible replica)"
	}
	how := "routed"
	if d.Rerouted {
		how = "re-routed"
	}
	return fmt.Sprintf("request %d (arrived %.1f ms) %s at %.1f ms: %s", d.Seq, d.Arrival, how, d.At, to)
}

// HTML shows the decision as a table.
func (d Decision) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("decision for request %d", d.Seq)}
	sh.Add("arrived", sheet.Millis(d.Arrival))
	sh.Add("decided", sheet.Millis(d.At))
	sh.Add("replica", sheet.YesNo(d.Replica != 0, fmt.Sprint(d.Replica), "none: shed"))
	sh.Add("eligible", fmt.Sprint(d.Eligible))
	sh.Add("re-routed", sheet.YesNo(d.Rerouted, "yes, from a failed replica's queue", "no"))
	return sh.HTML()
}
