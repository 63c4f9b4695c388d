package engine

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// The metric table and a run's record name the same metrics, in the same
// order, with the same values: every metric for a run of the serving model,
// the specification's alone for a run of its model.
func TestMetricsMatchRunRecord(t *testing.T) {
	spec := mustRun(t, RunSpec{Scenario: mustScenario(t, "straggler", DefaultRate, DefaultHeterogeneity), Policy: Adaptive(DefaultAdaptiveParams()), Seed: 3, Protocol: DefaultProtocol()})
	serving := mustRun(t, RunSpec{Scenario: richServing(9), Policy: LeastQueue(), Seed: 3, Protocol: Protocol{Warmup: 10000, Measure: 60000, SLO: 1e5}})
	for _, r := range []*RunSummary{&spec.RunSummary, &serving.RunSummary} {
		var metrics []Metric
		for _, m := range Metrics() {
			if m.Has(r) {
				metrics = append(metrics, m)
			}
		}
		if want := len(Metrics()) - len(servingMetrics()); r.Serving == nil && len(metrics) != want {
			t.Errorf("a run of the specification's model has %d metrics, want %d", len(metrics), want)
		}
		if r.Serving != nil && len(metrics) != len(Metrics()) {
			t.Errorf("a serving run has %d metrics, want all %d", len(metrics), len(Metrics()))
		}
		checkMetricRecord(t, r, metrics)
	}
}

// A metric of an opt-in model is left out of the record of a run that
// does not have it, so its bytes do not change; a run that has it shows it.
// (The experiment package checks the same of summaries.)
func TestOptInMetricsLeaveOtherRecordsAlone(t *testing.T) {
	base := Metrics()
	extra := Metric{Key: "ttft_ms", Name: "TTFT", Unit: "ms", Better: LowerIsBetter, About: "time to first token",
		Summary: SummaryMedian | SummaryRange, value: func(r *RunSummary) float64 { return float64(r.Seed) * 10 },
		has: func(r *RunSummary) bool { return r.Seed > 1 }}
	with := append(slices.Clone(base), extra)
	without := &RunSummary{Policy: "p", Seed: 1, Latency: LatencyStats{P99: 12}}
	having := &RunSummary{Policy: "p", Seed: 3, Latency: LatencyStats{P99: 14}}
	if got, want := fmt.Sprint(runRecord(without, with)), fmt.Sprint(runRecord(without, base)); got != want {
		t.Errorf("a run without the metric: record %s, want %s", got, want)
	}
	rec := runRecord(having, with)
	if last := rec[len(rec)-1]; last.Name != "ttft_ms" || last.Value != 30.0 {
		t.Errorf("a run with the metric ends its record with %v", last)
	}
}

func checkMetricRecord(t *testing.T, r *RunSummary, metrics []Metric) {
	t.Helper()
	rec := RunRecord(r)
	var names []string
	for _, f := range rec {
		names = append(names, f.Name)
	}
	at := slices.Index(names, "cohort_arrivals")
	for i, m := range metrics {
		if at+i >= len(rec) || rec[at+i].Name != m.Key {
			t.Fatalf("metric %d is %q; the record's field there is %v", i, m.Key, rec[min(at+i, len(rec)-1)])
		}
		want := rec[at+i].Value
		if n, ok := want.(int); ok {
			want = float64(n)
		}
		got := m.Of(r)
		if f, ok := want.(float64); !ok || (got != f && !(math.IsNaN(got) && math.IsNaN(f))) {
			t.Errorf("%s: metric gives %v, record %v", m.Key, got, want)
		}
	}
	if at+len(metrics) != len(rec) {
		t.Errorf("the record has %d fields after cohort_arrivals, the metric table %d", len(rec)-at, len(metrics))
	}
}
