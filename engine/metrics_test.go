package engine

import (
	"slices"
	"testing"
)

// The metric table and a run's record name the same metrics, in the same
// order, with the same values.
func TestMetricsMatchRunRecord(t *testing.T) {
	r := mustRun(t, RunSpec{Scenario: mustScenario(t, "straggler", DefaultRate, DefaultHeterogeneity), Policy: Adaptive(DefaultAdaptiveParams()), Seed: 3, Protocol: DefaultProtocol()})
	rec := RunRecord(&r.RunSummary)
	var names []string
	for _, f := range rec {
		names = append(names, f.Name)
	}
	at := slices.Index(names, "cohort_arrivals")
	for i, m := range Metrics() {
		if at+i >= len(rec) || rec[at+i].Name != m.Key {
			t.Fatalf("metric %d is %q; the record's field there is %v", i, m.Key, rec[min(at+i, len(rec)-1)])
		}
		want := rec[at+i].Value
		if n, ok := want.(int); ok {
			want = float64(n)
		}
		if got := m.Of(&r.RunSummary); got != want {
			t.Errorf("%s: metric gives %v, record %v", m.Key, got, want)
		}
	}
	if at+len(Metrics()) != len(rec) {
		t.Errorf("the record has %d fields after cohort_arrivals, the metric table %d", len(rec)-at, len(Metrics()))
	}
	for _, k := range PairedMetricKeys() {
		if m, err := MetricByKey(k); err != nil || m.Better == NoDirection {
			t.Errorf("paired metric %q: %v, direction %v", k, err, m.Better)
		}
	}
}
