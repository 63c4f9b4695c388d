package experiment

import (
	"context"
	"slices"
	"testing"

	"github.com/routelab/routelab/engine"
)

// Every summary column reads a metric of engine.Metrics that a summary
// reports: its median, or its range for a range column.
func TestSummaryColumnsReadSummarisedMetrics(t *testing.T) {
	metrics := map[string]engine.Metric{}
	for _, m := range engine.Metrics() {
		metrics[m.Key] = m
	}
	for _, serving := range []bool{false, true} {
		heads := map[string]bool{}
		for _, col := range SummaryColumns(serving) {
			m, ok := metrics[col.Key]
			switch {
			case !ok:
				t.Errorf("serving %v: column %q reads %q, not a metric", serving, col.Head, col.Key)
			case col.Range && m.Summary&engine.SummaryRange == 0, !col.Range && m.Summary&engine.SummaryMedian == 0:
				t.Errorf("serving %v: column %q reads %q, whose summary has no such figure", serving, col.Head, col.Key)
			case !col.Range && col.Format == nil:
				t.Errorf("serving %v: column %q has no format", serving, col.Head)
			case heads[col.Head]:
				t.Errorf("serving %v: two columns %q", serving, col.Head)
			}
			heads[col.Head] = true
		}
	}
}

// A serving comparison is paired on its own metrics by default, so that
// p.Stat(policy, "ttft_p99_ms") is there; the specification's keep theirs.
func TestServingComparisonPairsItsOwnMetrics(t *testing.T) {
	chat, err := engine.BuiltinScenario("chat", engine.ScenarioRate("chat"), engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	proto := engine.Protocol{Warmup: 2000, Measure: 8000, SLO: engine.DefaultSLO}
	c, err := Compare(context.Background(), Experiment{Scenario: chat, Policies: []engine.PolicySpec{engine.RoundRobin(), engine.LeastQueue()}, Seeds: DefaultSeeds(3), Protocol: proto})
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Paired(PairedOptions{Baseline: "round-robin"})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range ServingPairedMetricKeys() {
		if s := p.Stat("least-queue", key); s == nil || s.Seeds != 3 {
			t.Errorf("no paired %s for least-queue on chat: %v", key, s)
		}
	}
	// Its defaults are the specification's, each on the serving SLO where
	// the specification's judges the end-to-end one: the serving model's
	// own metrics and the losses, no end-to-end figure.
	var got []string
	for _, s := range p.Stats {
		got = append(got, s.Metric.Key)
		if !s.Metric.Optional() && s.Metric.Key != "shed" {
			t.Errorf("%s, a figure of the specification's model, is paired by default on chat", s.Metric.Key)
		}
	}
	if want := ServingPairedMetricKeys(); !slices.Equal(got, want) {
		t.Errorf("default paired metrics on chat %v, want %v", got, want)
	}
	if len(ServingPairedMetricKeys()) != len(PairedMetricKeys()) || !slices.Contains(ServingPairedMetricKeys(), "serving_goodput_rps") {
		t.Errorf("serving defaults %v: want one per default of the specification's (%v), serving goodput among them",
			ServingPairedMetricKeys(), PairedMetricKeys())
	}
}
