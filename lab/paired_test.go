package lab

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/experiment"
)

// res.Paired(a, b) is b against the baseline a in every paired metric; it
// shows as a table, bootstraps on request, draws the figure and saves the
// statistics.
func TestComparisonPaired(t *testing.T) {
	res := Compare(Straggler().Seeds(4), LatencyAware(), Adaptive(), RoundRobin())
	p := res.Paired("latency-aware", "adaptive")
	if len(p.Stats) != len(experiment.PairedMetricKeys()) || p.Baseline != "latency-aware" || p.Stats[0].Policy != "adaptive" {
		t.Fatalf("paired: %v", p)
	}
	b := display.Of(p)
	if !strings.Contains(b.Text(), "paired against latency-aware on straggler") || !strings.Contains(b[display.TextHTML].(string), "<table") {
		t.Errorf("display: %q", b.Text())
	}
	boot := p.Bootstrap()
	if boot.Method != experiment.PairedBootstrap || boot.Stats[0].DiffMean != p.Stats[0].DiffMean {
		t.Errorf("bootstrap: method %s, mean %g (t: %g)", boot.Method, boot.Stats[0].DiffMean, p.Stats[0].DiffMean)
	}
	if !strings.Contains(display.Of(p.Chart())[display.TextHTML].(string), "<div") {
		t.Error("the paired figure has no HTML")
	}
	dir := t.TempDir()
	p.Save(filepath.Join(dir, "p.json"))
	p.Save(filepath.Join(dir, "p.csv"))
	data, _ := os.ReadFile(filepath.Join(dir, "p.json"))
	if !json.Valid(data) || !strings.Contains(string(data), `"diff_mean"`) {
		t.Errorf("saved JSON: %.200s", data)
	}
	if csv, _ := os.ReadFile(filepath.Join(dir, "p.csv")); strings.Count(string(csv), "\n") != 1+len(experiment.PairedMetricKeys()) {
		t.Errorf("saved CSV:\n%s", csv)
	}
	if e := panics(t, func() { p.Save(filepath.Join(dir, "p.svg")) }); !strings.Contains(e.Error(), "want .json, .csv, .tex or .md; Chart().Save writes the figure") {
		t.Errorf("bad extension: %v", e)
	}
}

// Bad names and too few seeds are ValueErrors naming the argument and what
// is allowed.
func TestPairedBadInput(t *testing.T) {
	res := Compare(Steady().Seeds(2), LatencyAware(), Adaptive())
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { res.Paired("oracle", "adaptive") }, `Comparison.Paired: a: "oracle" is not allowed (want one of the compared policies: latency-aware, adaptive)`},
		{func() { res.Paired("adaptive", "oracle") }, `Comparison.Paired: b: "oracle" is not allowed (want one of the compared policies: latency-aware, adaptive)`},
		{func() { res.Paired("adaptive", "adaptive") }, `Comparison.Paired: b: "adaptive" is not allowed (want a policy other than a ("adaptive"), one of the compared policies: latency-aware, adaptive)`},
		{func() { Compare(Steady().Seeds(1), LatencyAware(), Adaptive()).Paired("adaptive", "latency-aware") }, "Comparison.Paired: seeds: 1 is not allowed (want at least 2 seeds for an interval)"},
		{func() { (&Paired{}).Bootstrap() }, "Paired.Bootstrap: empty paired comparison"},
	} {
		e := panics(t, c.f)
		if e.Error() != c.want && !strings.HasPrefix(e.Error(), c.want) {
			t.Errorf("got  %v\nwant %s", e, c.want)
		}
		if c.want[:10] == "Comparison" && e.ErrorName() != "ValueError" {
			t.Errorf("%v: %s, want a ValueError", e, e.ErrorName())
		}
	}
	if got := display.Of(Paired{}).Text(); got != "empty paired comparison (Comparison.Paired makes one)" {
		t.Errorf("zero Paired shows %q", got)
	}
}

func TestSweepAndStudyPaired(t *testing.T) {
	sw := Sweep(Steady().Seeds(3), []float64{100, 250}, LeastQueue(), Adaptive())
	sp := sw.Paired("least-queue", "adaptive")
	if len(sp.Points) != 2 || sp.Points[1].Stats[0].Seeds != 3 || sp.X[1] != 250 {
		t.Errorf("sweep paired: %v", sp)
	}
	if e := panics(t, func() { sw.Paired("least-queue", "p2c") }); !strings.Contains(e.Error(), `SweepResult.Paired: b: "p2c" is not allowed`) {
		t.Errorf("sweep: %v", e)
	}
	cfg := `{"name": "tiny", "rates_rps": [150], "heterogeneity": ["default"], "scenarios": ["straggler", "burst"],
		"weights": [0, 0.35], "development_seeds": [1, 2], "validation_seeds": [11, 12, 13],
		"policies": ["latency-aware", "adaptive"], "protocol": {"warmup_ms": 3000, "measure_ms": 12000, "slo_ms": 50}}`
	path := filepath.Join(t.TempDir(), "tiny.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	st := Study(path)
	if st.Margin == nil || st.Weights[0].Seeds != 2 || st.Validation[0].Seeds != 3 {
		t.Errorf("study uncertainty: margin %v, scores %v", st.Margin, st.Weights)
	}
	if p := st.Paired("latency-aware", "adaptive"); p.Stats[0].Seeds != 3 {
		t.Errorf("study paired: %v", p)
	}
	if e := panics(t, func() { st.Paired("round-robin", "adaptive") }); !strings.Contains(e.Error(), `StudyResult.Paired: a: "round-robin" is not allowed (want one of the compared policies: latency-aware, adaptive)`) {
		t.Errorf("study: %v", e)
	}
}

// A paired result saves as a LaTeX or Markdown table as well as JSON and
// CSV; an unknown extension names the ones allowed.
func TestPairedTables(t *testing.T) {
	p := Compare(Straggler().Seeds(3), LatencyAware(), Adaptive()).Paired("latency-aware", "adaptive")
	if tex := p.Table("latex"); !strings.Contains(tex, "\\toprule") || !strings.Contains(tex, "adaptive") {
		t.Errorf("LaTeX table:\n%s", tex)
	}
	path := filepath.Join(t.TempDir(), "p.md")
	p.Save(path)
	if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), "| adaptive | p99 (ms) |") {
		t.Errorf("saved Markdown: %v\n%s", err, data)
	}
	e := tryPanics(func() { p.Save(filepath.Join(t.TempDir(), "p.txt")) })
	if e == nil || !strings.Contains(e.Error(), "want .json, .csv, .tex or .md") {
		t.Errorf("Save(p.txt): %v", e)
	}
}

// Metrics chooses what Paired reports, kept by Bootstrap and taken by the
// sweep's Paired too; an unknown or undirected metric is a ValueError of
// Metrics itself, listing the allowed names and offering the nearest.
func TestPairedMetrics(t *testing.T) {
	res := Compare(Straggler().Seeds(3), LeastQueue(), Adaptive())
	p := res.Paired("least-queue", "adaptive", Metrics("p95_ms", "shed_rate"))
	var keys []string
	for _, s := range p.Stats {
		keys = append(keys, s.Metric.Key)
	}
	if strings.Join(keys, ",") != "p95_ms,shed_rate" {
		t.Errorf("Paired with Metrics reports %v", keys)
	}
	if b := p.Bootstrap(); len(b.Stats) != 2 || b.Stats[0].Metric.Key != "p95_ms" {
		t.Errorf("Bootstrap dropped the chosen metrics: %v", b.Stats)
	}
	if got := p.Stats[0].DiffMean; got != res.Paired("least-queue", "adaptive", Metrics("p95_ms")).Stats[0].DiffMean {
		t.Errorf("the p95 difference depends on what else is paired: %g", got)
	}
	sp := Sweep(Steady().Seeds(2), []float64{100}, LeastQueue(), Adaptive()).Paired("least-queue", "adaptive", Metrics("max_ms"))
	if len(sp.Points[0].Stats) != 1 || sp.Points[0].Stats[0].Metric.Key != "max_ms" {
		t.Errorf("sweep Paired with Metrics: %v", sp.Points[0].Stats)
	}
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { Metrics("ttft_p99") }, `Metrics: metrics[0]: "ttft_p99" is not allowed (want a metric with a better direction: shed, `},
		{func() { Metrics("p99_ms", "mean_batch") }, `Metrics: metrics[1]: "mean_batch" is not allowed (want a metric with a better direction: `},
		{func() { Metrics("p99_ms", "p99_ms") }, `Metrics: metrics[1]: "p99_ms" is not allowed (want each metric once)`},
		{func() { Metrics() }, `Metrics: metrics: "none" is not allowed (want at least one metric)`},
	} {
		e := panics(t, c.f)
		if !strings.HasPrefix(e.Error(), c.want) || e.ErrorName() != "ValueError" {
			t.Errorf("got  %s %v\nwant a ValueError %s", e.ErrorName(), e, c.want)
		}
	}
	if e := panics(t, func() { Metrics("ttft_p99") }); !strings.HasSuffix(e.Error(), `; did you mean "ttft_p99_ms"?`) {
		t.Errorf("no suggestion: %v", e)
	}
}
