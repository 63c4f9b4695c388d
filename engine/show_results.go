package engine

import (
	"fmt"
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
