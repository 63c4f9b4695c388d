package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestNearestRank(t *testing.T) {
	xs := []float64{15, 20, 35, 40, 50}
	for _, c := range []struct{ p, want float64 }{{5, 15}, {30, 20}, {40, 20}, {50, 35}, {100, 50}, {99, 50}} {
		if got := engine.NearestRank(xs, c.p); got != c.want {
			t.Errorf("P%g = %v, want %v", c.p, got, c.want)
		}
	}
	if !math.IsNaN(engine.NearestRank(nil, 50)) {
		t.Error("percentile of nothing is defined")
	}
	if got := engine.Median([]float64{3, math.NaN(), 1, 10, 2}); got != 2.5 {
		t.Errorf("median ignoring NaN = %v, want 2.5", got)
	}
	if lo, hi := engine.MinMax([]float64{math.NaN(), 4, -1}); lo != -1 || hi != 4 {
		t.Errorf("MinMax = %v, %v", lo, hi)
	}
}

// A run in which no cohort request completes has no latency figure: NaN in
// the result, an em dash in text, null in JSON, and it is left out of the
// medians and the p99 range; attainment is zero because there were arrivals.
func TestRunsWithoutCompletions(t *testing.T) {
	dead := engine.NewScenario("dead")
	dead.Events = []engine.Event{{At: 2000, Kind: engine.EventFail, Replica: 1}, {At: 2000, Kind: engine.EventFail, Replica: 2}, {At: 2000, Kind: engine.EventFail, Replica: 3}}
	r := mustRun(t, engine.RunSpec{Scenario: dead, Policy: engine.LeastQueue(), Seed: 1})
	checkConservation(t, r)
	if r.Completed != 0 || r.Cohort == 0 || !math.IsNaN(r.Latency.P99) || !math.IsNaN(r.SLOMissRate) || r.Attainment != 0 || r.GoodputRPS != 0 {
		t.Fatalf("dead cluster: %+v", r)
	}
	alive := mustRun(t, engine.RunSpec{Scenario: engine.NewScenario("alive"), Policy: engine.LeastQueue(), Seed: 1})
	s := SummaryOf([]*engine.RunResult{r, alive, r})
	if s.LatencyRuns != 1 || s.MedianP99 != alive.Latency.P99 || s.P99Min != alive.Latency.P99 || s.P99Max != alive.Latency.P99 {
		t.Errorf("summary did not leave out runs without latency: %+v", s)
	}
	if s.MedianAttainment != 0 {
		t.Errorf("median attainment %v, want 0 (two of three runs had none)", s.MedianAttainment)
	}
	c := &Comparison{Scenario: dead, Protocol: engine.DefaultProtocol(), Seeds: []uint64{1}, Fingerprints: []uint64{r.Fingerprint},
		Policies: []PolicyResult{{Name: "least-queue", Records: []engine.RunSummary{r.RunSummary}, Summary: SummaryOf([]*engine.RunResult{r})}}}
	if txt := c.String(); !strings.Contains(txt, "—") {
		t.Errorf("no em dash in\n%s", txt)
	}
	var b bytes.Buffer
	if err := c.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"p99_ms": null`) {
		t.Errorf("undefined p99 is not null in JSON")
	}
	// No arrivals at all: attainment is undefined, not zero.
	quiet := engine.NewScenario("quiet")
	quiet.Arrivals, quiet.Trace = engine.Replay, []engine.TraceRecord{{At: 1, Prompt: 1, Output: 1}}
	if q := mustRun(t, engine.RunSpec{Scenario: quiet, Policy: engine.LeastQueue(), Seed: 1}); !math.IsNaN(q.Attainment) || q.Cohort != 0 {
		t.Errorf("no arrivals: attainment %v, cohort %d", q.Attainment, q.Cohort)
	}
}

func TestCancelledCompareReturnsNoResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c, err := Compare(ctx, straggler(t))
	if c != nil || err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("cancelled compare = %v, %v", c, err)
	}
}

// The golden comparison pins every figure of a small experiment; -update
// rewrites it. TestGoldenComparisonInvariants checks the file itself.
func TestGoldenComparison(t *testing.T) {
	e := Experiment{Scenario: mustScenario(t, "failure", 175, engine.DefaultHeterogeneity), Policies: goldenPolicies(), Seeds: DefaultSeeds(3)}
	got := compareJSON(t, e)
	path := filepath.Join("testdata", "compare_failure.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("comparison differs from %s (run with -update if the change is intended)", path)
	}
}

// The text table is what `routelab compare` prints and write-ups quote: it
// is pinned byte for byte (-update rewrites it).
func TestGoldenComparisonText(t *testing.T) {
	e := Experiment{Scenario: mustScenario(t, "failure", 175, engine.DefaultHeterogeneity), Policies: goldenPolicies(), Seeds: DefaultSeeds(3)}
	c, err := Compare(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	got := []byte(c.String())
	path := filepath.Join("testdata", "compare_failure.golden.txt")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("text table differs from %s (run with -update if the change is intended):\n%s", path, got)
	}
}

func TestGoldenComparisonInvariants(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "compare_failure.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Seeds        []uint64           `json:"seeds"`
		Fingerprints []string           `json:"workload_fingerprints"`
		Policies     []map[string]any   `json:"policies"`
		Runs         []map[string]any   `json:"runs"`
		Scenario     map[string]any     `json:"scenario"`
		Protocol     map[string]float64 `json:"protocol"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Runs) != len(g.Policies)*len(g.Seeds) {
		t.Fatalf("%d runs for %d policies × %d seeds", len(g.Runs), len(g.Policies), len(g.Seeds))
	}
	for i, r := range g.Runs {
		n := func(k string) float64 { return r[k].(float64) }
		if n("cohort_arrivals") != n("completed")+n("shed")+n("unfinished") {
			t.Errorf("run %d breaks conservation: %v", i, r)
		}
		if r["workload_fingerprint"] != g.Fingerprints[i%len(g.Seeds)] {
			t.Errorf("run %d fingerprint %v differs from its seed's %v", i, r["workload_fingerprint"], g.Fingerprints[i%len(g.Seeds)])
		}
		if p99, p50 := n("p99_ms"), n("p50_ms"); p99 < p50 || p50 <= 0 {
			t.Errorf("run %d percentiles out of order: p50 %v p99 %v", i, p50, p99)
		}
		if got := n("on_time") / n("cohort_arrivals"); math.Abs(got-n("attainment")) > 1e-12 {
			t.Errorf("run %d attainment %v, on_time/cohort %v", i, n("attainment"), got)
		}
	}
	for _, p := range g.Policies {
		lo, med, hi := p["p99_min_ms"].(float64), p["median_p99_ms"].(float64), p["p99_max_ms"].(float64)
		if !(lo <= med && med <= hi) {
			t.Errorf("%v: p99 median %v outside its range [%v, %v]", p["policy"], med, lo, hi)
		}
	}
}

func TestSmallStudy(t *testing.T) {
	cfg := StudyConfig{
		Name: "small", Rates: []float64{150}, Heterogeneity: []string{"default", "high"},
		Scenarios: []string{"straggler"}, Weights: []float64{0, 0.35},
		DevelopmentSeeds: []uint64{1, 2}, ValidationSeeds: []uint64{11, 12, 13},
		Policies: []string{"least-queue", "adaptive"}, Protocol: engine.DefaultProtocol(),
	}
	res, err := RunStudy(context.Background(), cfg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Development) != 2*2*2 || len(res.Validated) != 2*2*3 {
		t.Fatalf("%d development and %d validation runs", len(res.Development), len(res.Validated))
	}
	best := res.Weights[0]
	for _, w := range res.Weights {
		if w.MeanAttainment > best.MeanAttainment {
			best = w
		}
		// Recompute the score by hand: the mean over conditions of the mean
		// over seeds.
		var sum float64
		for _, h := range cfg.Heterogeneity {
			var s float64
			for _, r := range res.Development {
				if r.C == w.C && r.Condition.Heterogeneity == h {
					s += r.Result.Attainment
				}
			}
			sum += s / float64(len(cfg.DevelopmentSeeds))
		}
		if got := sum / 2; math.Abs(got-w.MeanAttainment) > 1e-12 {
			t.Errorf("weight %g: score %v, recomputed %v", w.C, w.MeanAttainment, got)
		}
	}
	if res.SelectedC != best.C {
		t.Errorf("selected c = %v, best scoring weight is %v", res.SelectedC, best.C)
	}
	for _, r := range res.Validated {
		if r.Policy == "adaptive" && r.C != res.SelectedC {
			t.Errorf("validation ran adaptive with c = %v, selected %v", r.C, res.SelectedC)
		}
		checkCohort(t, r.Result)
	}
	var b bytes.Buffer
	if err := res.WriteJSON(&b); err != nil || !json.Valid(b.Bytes()) {
		t.Fatalf("study JSON: %v", err)
	}
}

// The error of a failing comparison names the first failing run, whatever
// the scheduling: every seed fails here, and seed 1 must be named every time.
func TestFailureReportIsDeterministic(t *testing.T) {
	bad := engine.PolicySpec{Name: "always-two", New: func(engine.PolicyEnv) (engine.Policy, error) { return fixedPick(2), nil }}
	scn := mustScenario(t, "failure", 100, engine.DefaultHeterogeneity)
	for i := 0; i < 20; i++ {
		_, err := Compare(context.Background(), Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.LeastQueue(), bad}, Workers: 2})
		if err == nil || !strings.HasPrefix(err.Error(), "always-two, seed 1: ") {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
}
