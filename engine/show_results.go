package engine

import (
	"fmt"
	"math"
	"strings"
)

// Displays of results: records, latency statistics, runs, summaries,
// comparisons, sweeps and studies (see show.go). Summaries and runs are
// labelled by their records' snake_case names, the one spelling JSON and CSV
// use too; per-request latencies are counted, never listed.

// String is the field as name = value.
func (f Field) String() string { return f.Name + " = " + fieldValue(f) }

// HTML shows the field.
func (f Field) HTML() string { return sheet{title: f.String()}.html() }

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
	sh := sheet{title: fmt.Sprintf("%d latencies (nearest-rank percentiles)", l.Count)}
	for _, r := range []row{{"mean", millis(l.Mean)}, {"p50", millis(l.P50)}, {"p90", millis(l.P90)},
		{"p95", millis(l.P95)}, {"p99", millis(l.P99)}, {"max", millis(l.Max)}} {
		sh.add(r.label, r.value)
	}
	return sh.html()
}

func (s Summary) sheet() sheet {
	sh := sheet{title: fmt.Sprintf("summary of %d runs (%d with latency figures)", s.Runs, s.LatencyRuns)}
	sh.addFields(SummaryRecord("", s), "policy", "runs", "latency_runs")
	sh.note = "medians across runs; p99_min_ms–p99_max_ms is the observed range, not a confidence interval"
	return sh
}

// String lists the summary's figures, labelled.
func (s Summary) String() string { return s.sheet().text() }

// HTML shows the summary as a labelled table.
func (s Summary) HTML() string { return s.sheet().html() }

// String summarises the run in one line: counts and percentiles.
func (r RunSummary) String() string {
	l := r.Latency
	return fmt.Sprintf("%s on %s, seed %d: %d arrivals → %d completed, %d shed, %d unfinished; p50 %s ms, p99 %s ms, attainment %s",
		r.Policy, r.Scenario, r.Seed, r.Cohort, r.Completed, r.Shed, r.Unfinished,
		Dash("%.1f", l.P50), Dash("%.1f", l.P99), Dash("%.2f%%", 100*r.Attainment))
}

// HTML shows the run's record as a table.
func (r RunSummary) HTML() string {
	sh := sheet{title: fmt.Sprintf("%s on %s, seed %d", r.Policy, r.Scenario, r.Seed)}
	sh.addFields(RunRecord(&r), "policy", "scenario", "seed")
	return sh.html()
}

// HTML shows the run's figures and its replicas as tables.
func (r RunResult) HTML() string {
	sh := sheet{title: fmt.Sprintf("%s on %s, seed %d", r.Policy, r.Scenario, r.Seed)}
	sh.addFields(RunRecord(&r.RunSummary), "policy", "scenario", "seed")
	sh.addGrid("replicas", []string{"replica", "assigned", "completed", "mean ms"}, len(r.PerReplica), func(i int) []string {
		p := r.PerReplica[i]
		return []string{fmt.Sprint(p.ID), fmt.Sprint(p.Assigned), fmt.Sprint(p.Completed), Dash("%.1f", p.MeanMs)}
	})
	var kept []string
	if len(r.Latencies) > 0 {
		kept = append(kept, fmt.Sprintf("%d latencies in .Latencies", len(r.Latencies)))
	}
	if r.Timeline != nil {
		kept = append(kept, fmt.Sprintf("%d timeline samples in .Timeline", len(r.Timeline.Points)))
	}
	if len(kept) > 0 {
		sh.note = "kept: " + strings.Join(kept, ", ")
	}
	return sh.html()
}

// String describes the replica's share of the run.
func (r ReplicaResult) String() string {
	return fmt.Sprintf("replica %d: %d assigned, %d completed, mean latency %s", r.ID, r.Assigned, r.Completed, millis(r.MeanMs))
}

// HTML shows the replica's share as a table.
func (r ReplicaResult) HTML() string {
	sh := sheet{title: fmt.Sprintf("replica %d", r.ID)}
	sh.add("assigned", fmt.Sprint(r.Assigned))
	sh.add("completed", fmt.Sprint(r.Completed))
	sh.add("mean latency", millis(r.MeanMs))
	return sh.html()
}

// String summarises the policy's runs in one line.
func (p PolicyResult) String() string {
	s := p.Summary
	return fmt.Sprintf("%s: %d runs; median p99 %s (range %s ms), median attainment %s",
		p.Name, s.Runs, millis(s.MedianP99), rangeText(s.P99Min, s.P99Max), percent(s.MedianAttainment))
}

// HTML shows the summary and a row per run.
func (p PolicyResult) HTML() string {
	sh := p.Summary.sheet()
	sh.title = p.Name + ": " + sh.title
	sh.addGrid("runs", []string{"seed", "arrivals", "completed", "shed", "unfinished", "p50 ms", "p99 ms", "attainment"}, len(p.Runs), func(i int) []string {
		r := p.Runs[i]
		if r == nil {
			return []string{"—", "no result", "", "", "", "", "", ""}
		}
		return []string{fmt.Sprint(r.Seed), fmt.Sprint(r.Cohort), fmt.Sprint(r.Completed), fmt.Sprint(r.Shed), fmt.Sprint(r.Unfinished),
			Dash("%.1f", r.Latency.P50), Dash("%.1f", r.Latency.P99), percent(r.Attainment)}
	})
	return sh.html()
}

// HTML shows the comparison's table (the text table's columns).
func (c Comparison) HTML() string {
	head, rows := c.tableRows()
	sh := sheet{title: c.headline(), note: comparisonNote}
	sh.addGrid("policies", head, len(rows), func(i int) []string { return rows[i] })
	return sh.html()
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
	b.WriteString(sheet{title: fmt.Sprintf("sweep over %s: %d points", yesNo(s.XLabel != "", s.XLabel, "x"), len(s.Comparisons))}.html())
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
		fmt.Fprintf(&b, "c = %-5g development mean attainment %.4f%% (std err %s pp)\n", w.C, 100*w.MeanAttainment, Dash("%.4f", 100*w.StdErr))
	}
	fmt.Fprintf(&b, "selected c = %g\n", r.SelectedC)
	if len(r.Weights) > 0 {
		fmt.Fprintln(&b, r.marginText())
	}
	for _, v := range r.Validation {
		fmt.Fprintf(&b, "%-14s validation mean attainment %.4f%% (std err %s pp, %d runs)\n", v.Name, 100*v.MeanAttainment, Dash("%.4f", 100*v.StdErr), v.Runs)
	}
	return b.String()
}

// HTML shows the development and validation scores, with their standard
// errors, and the selection margin.
func (r StudyResult) HTML() string {
	sh := sheet{title: fmt.Sprintf("study %s: selected c = %g", r.Config.Name, r.SelectedC)}
	sh.addGrid("weights", []string{"c", "development mean attainment", "std err", "runs"}, len(r.Weights), func(i int) []string {
		w := r.Weights[i]
		return []string{fmt.Sprintf("%g", w.C), Dash("%.4f%%", 100*w.MeanAttainment), Dash("%.4f pp", 100*w.StdErr), fmt.Sprint(w.Runs)}
	})
	sh.addGrid("policies", []string{"policy", "validation mean attainment", "std err", "runs"}, len(r.Validation), func(i int) []string {
		v := r.Validation[i]
		return []string{v.Name, Dash("%.4f%%", 100*v.MeanAttainment), Dash("%.4f pp", 100*v.StdErr), fmt.Sprint(v.Runs)}
	})
	sh.note = fmt.Sprintf("%d development and %d validation runs; attainment is averaged per condition, then across conditions; "+
		"standard errors are over seeds, each seed averaged over the conditions", len(r.Development), len(r.Validated))
	if len(r.Weights) > 0 {
		sh.note += "; " + r.marginText()
	}
	return sh.html()
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
	sh := sheet{title: fmt.Sprintf("%s run of %s in %s", r.Phase, r.Policy, r.Condition)}
	if !math.IsNaN(r.C) {
		sh.add("c", fmt.Sprintf("%g", r.C))
	}
	if r.Result != nil {
		sh.addFields(RunRecord(r.Result), "policy", "scenario")
	}
	return sh.html()
}

// String gives the score in one line.
func (s Score) String() string {
	return fmt.Sprintf("%s: mean attainment %s over %d runs (std err %s pp over %d seeds)",
		s.Name, Dash("%.4f%%", 100*s.MeanAttainment), s.Runs, Dash("%.4f", 100*s.StdErr), s.Seeds)
}

// HTML shows the score as a table.
func (s Score) HTML() string {
	sh := sheet{title: "score of " + s.Name}
	if !math.IsNaN(s.C) {
		sh.add("c", fmt.Sprintf("%g", s.C))
	}
	sh.add("mean attainment", Dash("%.4f%%", 100*s.MeanAttainment))
	sh.add("std err", Dash("%.4f pp", 100*s.StdErr)+fmt.Sprintf(" (over %d seeds)", s.Seeds))
	sh.add("runs", fmt.Sprint(s.Runs))
	return sh.html()
}

// String gives the counts in one line.
func (t Totals) String() string {
	return fmt.Sprintf("%d arrivals, %d routed, %d shed, %d completed", t.Arrivals, t.Routed, t.Shed, t.Completed)
}

// HTML shows the counts as a table.
func (t Totals) HTML() string {
	sh := sheet{title: "totals since time zero"}
	sh.add("arrivals", fmt.Sprint(t.Arrivals))
	sh.add("routed", fmt.Sprintf("%d (re-routes included)", t.Routed))
	sh.add("shed", fmt.Sprint(t.Shed))
	sh.add("completed", fmt.Sprint(t.Completed))
	return sh.html()
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
	sh := sheet{title: fmt.Sprintf("decision for request %d", d.Seq)}
	sh.add("arrived", millis(d.Arrival))
	sh.add("decided", millis(d.At))
	sh.add("replica", yesNo(d.Replica != 0, fmt.Sprint(d.Replica), "none: shed"))
	sh.add("eligible", fmt.Sprint(d.Eligible))
	sh.add("re-routed", yesNo(d.Rerouted, "yes, from a failed replica's queue", "no"))
	return sh.html()
}
