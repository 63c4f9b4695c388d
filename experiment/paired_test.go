package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/xmath"
)

// pairedFixture is a comparison of two policies over five seeds with
// chosen p99s and attainments; NaN stands for a run without a completed
// request (no latency figure).
func pairedFixture(p99Base, p99Pol, attBase, attPol []float64) *Comparison {
	c := &Comparison{Scenario: engine.Scenario{Name: "fixture"}, Seeds: DefaultSeeds(len(p99Base))}
	for _, p := range []struct {
		name     string
		p99, att []float64
	}{{"base", p99Base, attBase}, {"pol", p99Pol, attPol}} {
		pr := PolicyResult{Name: p.name}
		for i := range p.p99 {
			lat := engine.LatencyStats{Count: 1, P99: p.p99[i]}
			if math.IsNaN(p.p99[i]) {
				lat = engine.Summarize(nil)
			}
			pr.Records = append(pr.Records, engine.RunSummary{Policy: p.name, Seed: uint64(i + 1), Latency: lat, Attainment: p.att[i]})
		}
		c.Policies = append(c.Policies, pr)
	}
	return c
}

func handFixture() *Comparison {
	nan := math.NaN()
	return pairedFixture(
		[]float64{10, 12, 14, 20, 30}, []float64{9, 12, 11, 16, nan},
		[]float64{0.75, 0.5, 0.625, 0.875, 0.5}, []float64{0.875, 0.5, 0.75, 0.75, 0.625})
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.15g, want %.15g", what, got, want)
	}
}

// The statistics of the fixture, worked by hand.
func TestPairedHandComputation(t *testing.T) {
	p, err := handFixture().Paired(PairedOptions{Baseline: "base", Metrics: []string{"p99_ms", "attainment"}})
	if err != nil {
		t.Fatal(err)
	}
	// p99, lower is better. Seed 5 is left out: pol has no latency there.
	// d = pol − base = 9−10, 12−12, 11−14, 16−20 = −1, 0, −3, −4; n = 4
	// mean = −8/4 = −2
	// deviations +1, +2, −1, −2; SS = 1+4+1+4 = 10; s² = 10/3
	// se = √(s²/n) = √(10/12) = √(5/6) = 0.912870929175277
	// t(0.975, 3) = 3.18244630528371 (NIST table: 3.182)
	// half-width = 3.18244630528371 × 0.912870929175277
	// wins (d < 0): seeds 1, 3, 4; tie: seed 2; no loss
	// The interval spans zero: not distinguishable from zero at 95 %.
	// Welch, x = 10, 12, 14, 20 (mean 14, s² = (16+4+0+36)/3 = 56/3),
	// y = 9, 12, 11, 16 (mean 12, s² = (9+0+1+16)/3 = 26/3):
	// se² = 56/12 + 26/12 = 41/6; ν = (41/6)² / ((14/3)²/3 + (13/6)²/3)
	//   = (1681/36) / (953/108) = 5043/953 ≈ 5.29, between the table's
	//   ν = 5 (2.571) and ν = 6 (2.447)
	// width ratio = (2 × half-width) / (2 × t(0.975, 5043/953) × √(41/6))
	s := p.Stat("pol", "p99_ms")
	half := 3.18244630528371 * math.Sqrt(5.0/6)
	near(t, "p99 diff_mean", s.DiffMean, -2, 1e-15)
	near(t, "p99 std_err", s.StdErr, math.Sqrt(5.0/6), 1e-15)
	near(t, "p99 ci_low", s.CILow, -2-half, 1e-12)
	near(t, "p99 ci_high", s.CIHigh, -2+half, 1e-12)
	near(t, "p99 baseline_mean", s.BaselineMean, 14, 0)
	near(t, "p99 policy_mean", s.PolicyMean, 12, 0)
	if s.Seeds != 4 || len(s.Pairs) != 5 || s.Wins != 3 || s.Losses != 0 || s.Ties != 1 {
		t.Errorf("p99: seeds %d of %d, wins %d, losses %d, ties %d; want 4 of 5, 3, 0, 1", s.Seeds, len(s.Pairs), s.Wins, s.Losses, s.Ties)
	}
	if v := s.Verdict(); v != VerdictUndecided {
		t.Errorf("p99 verdict %q, want %q", v, VerdictUndecided)
	}
	tW := tQuantile(0.975, 5043.0/953)
	if tW < 2.447 || tW > 2.571 {
		t.Errorf("t(0.975, 5.29) = %g, outside the table's 2.447 (ν=6) to 2.571 (ν=5)", tW)
	}
	welchHalf := tW * math.Sqrt(41.0/6)
	near(t, "p99 unpaired_ci_low", s.UnpairedLow, -2-welchHalf, 1e-12)
	near(t, "p99 unpaired_ci_high", s.UnpairedHigh, -2+welchHalf, 1e-12)
	near(t, "p99 unpaired_width_ratio", s.WidthRatio, half/welchHalf, 1e-12)

	// Attainment, higher is better; all five seeds.
	// d = 0.875−0.75, 0.5−0.5, 0.75−0.625, 0.75−0.875, 0.625−0.5
	//   = +0.125, 0, +0.125, −0.125, +0.125; mean = 0.25/5 = 0.05
	// deviations 0.075, −0.05, 0.075, −0.175, 0.075
	// SS = 0.005625 + 0.0025 + 0.005625 + 0.030625 + 0.005625 = 0.05
	// s² = 0.05/4 = 0.0125; se = √(0.0125/5) = √0.0025 = 0.05
	// t(0.975, 4) = 2.776445105197799 (NIST table: 2.776)
	// CI = 0.05 ± 2.776445105197799 × 0.05 = [−0.08882225525989, 0.18882225525989]
	// wins (d > 0): seeds 1, 3, 5; loss: seed 4; tie: seed 2
	s = p.Stat("pol", "attainment")
	near(t, "attainment diff_mean", s.DiffMean, 0.05, 1e-16)
	near(t, "attainment std_err", s.StdErr, 0.05, 1e-16)
	near(t, "attainment ci_low", s.CILow, 0.05-2.776445105197799*0.05, 1e-13)
	near(t, "attainment ci_high", s.CIHigh, 0.05+2.776445105197799*0.05, 1e-13)
	if s.Seeds != 5 || s.Wins != 3 || s.Losses != 1 || s.Ties != 1 || s.Verdict() != VerdictUndecided {
		t.Errorf("attainment: seeds %d, wins %d, losses %d, ties %d, verdict %q", s.Seeds, s.Wins, s.Losses, s.Ties, s.Verdict())
	}
	if p.Stat("pol", "goodput_rps") != nil || p.Stat("base", "p99_ms") != nil {
		t.Error("Stat found a metric or a policy that was not compared")
	}
}

// The bootstrap percentile interval where its distribution can be worked
// by hand.
func TestBootstrapHandComputation(t *testing.T) {
	// Two differences 1 and 3: a resample's mean is 1 (probability ¼), 2
	// (½) or 3 (¼); the 2.5th and 97.5th percentiles of 10,000 are 1 and 3.
	lo, hi := bootstrap([]float64{1, 3}, engine.NewRand(bootstrapSeed, engine.StreamBootstrap))
	if lo != 1 || hi != 3 {
		t.Errorf("bootstrap of 1, 3: [%g, %g], want [1, 3]", lo, hi)
	}
	// The fixture's attainment differences, in units of 0.125: −1, 0, +1
	// with probabilities 1/5, 1/5, 3/5. The sum S of five draws has
	// P(S ≤ −3) = 0.0099 and P(S ≤ −2) = 0.0323, so the 250th of 10,000
	// resample means is S = −2 (expected counts 99 and 323), a mean of
	// −2 × 0.125 / 5 = −0.05; P(S = 5) = 0.6⁵ = 0.078 > 0.025, so the
	// 9,750th is 0.125.
	p, err := handFixture().Paired(PairedOptions{Baseline: "base", Metrics: []string{"attainment"}, Method: PairedBootstrap})
	if err != nil {
		t.Fatal(err)
	}
	s := p.Stat("pol", "attainment")
	near(t, "bootstrap ci_low", s.CILow, -0.05, 1e-16)
	near(t, "bootstrap ci_high", s.CIHigh, 0.125, 1e-16)
	// The same interval every time: the resampler is seeded, on its own
	// stream.
	again, _ := handFixture().Paired(PairedOptions{Baseline: "base", Metrics: []string{"attainment"}, Method: PairedBootstrap})
	if g := again.Stat("pol", "attainment"); g.CILow != s.CILow || g.CIHigh != s.CIHigh {
		t.Errorf("bootstrap not deterministic: [%g, %g] then [%g, %g]", s.CILow, s.CIHigh, g.CILow, g.CIHigh)
	}
	if lo, hi := bootstrap([]float64{4}, engine.NewRand(1, 3)); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("bootstrap of one value: [%g, %g], want NaN", lo, hi)
	}
}

// Over many normal samples of five, the paired t-interval covers the true
// mean 95 % of the time (a z-interval would cover about 88 %), and with 40
// seeds the bootstrap interval is close to it.
func TestIntervalsCoverage(t *testing.T) {
	r := engine.NewRand(11, 99)
	const reps = 4000
	covered := 0
	for range reps {
		d := make([]float64, 5)
		for i := range d {
			d[i] = xmath.NormQuantile(r.Open())
		}
		if _, _, lo, hi := pairedT(d); lo <= 0 && 0 <= hi {
			covered++
		}
	}
	// Binomial standard deviation √(0.95 × 0.05 / 4000) = 0.0034.
	if c := float64(covered) / reps; c < 0.935 || c > 0.965 {
		t.Errorf("t-interval coverage %.4f over %d samples, want 0.95 ± 0.015", c, reps)
	}
	d := make([]float64, 40)
	for i := range d {
		d[i] = 3 + 2*xmath.NormQuantile(r.Open())
	}
	_, _, tlo, thi := pairedT(d)
	blo, bhi := bootstrap(d, engine.NewRand(bootstrapSeed, engine.StreamBootstrap))
	if w, bw := thi-tlo, bhi-blo; math.Abs(bw/w-1) > 0.15 {
		t.Errorf("40 seeds: bootstrap width %g, t width %g: more than 15%% apart", bw, w)
	}
}

func TestPairedRefusesBadInput(t *testing.T) {
	c := handFixture()
	for _, tc := range []struct {
		o    PairedOptions
		want []string
	}{
		{PairedOptions{Baseline: "nope"}, []string{`baseline: "nope" is not allowed`, "base, pol"}},
		{PairedOptions{}, []string{`baseline: "" is not allowed`, "base, pol"}},
		{PairedOptions{Baseline: "base", Policies: []string{"base"}}, []string{`policies[0]: "base"`, "other than the baseline"}},
		{PairedOptions{Baseline: "base", Policies: []string{"nope"}}, []string{`policies[0]: "nope"`, "base, pol"}},
		{PairedOptions{Baseline: "base", Policies: []string{"pol", "pol"}}, []string{`policies[1]: "pol"`, "each policy once"}},
		{PairedOptions{Baseline: "base", Policies: []string{}}, []string{`policies: "none"`, "besides the baseline"}},
		{PairedOptions{Baseline: "base", Metrics: []string{"p98_ms"}}, []string{`metrics[0]: "p98_ms"`, `did you mean`, "p99_ms", "attainment"}},
		{PairedOptions{Baseline: "base", Metrics: []string{"throughput_rps"}}, []string{`metrics[0]: "throughput_rps"`, "better direction"}},
		{PairedOptions{Baseline: "base", Metrics: []string{}}, []string{`metrics: "none"`}},
		{PairedOptions{Baseline: "base", Method: "z"}, []string{`method: "z"`, `"t" or "bootstrap"`}},
	} {
		_, err := c.Paired(tc.o)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%v: err = %v, want it to say %q", tc.o, err, w)
			}
		}
	}
	one := pairedFixture([]float64{10}, []float64{9}, []float64{1}, []float64{1})
	if _, err := one.Paired(PairedOptions{Baseline: "base"}); err == nil || !strings.Contains(err.Error(), "seeds: 1 is not allowed (want at least 2 seeds for an interval)") {
		t.Errorf("one seed: err = %v", err)
	}
	alone := &Comparison{Seeds: DefaultSeeds(3), Policies: []PolicyResult{{Name: "base"}}}
	if _, err := alone.Paired(PairedOptions{Baseline: "base"}); err == nil || !strings.Contains(err.Error(), `besides the baseline "base"`) {
		t.Errorf("only the baseline: err = %v", err)
	}
}

// Common random numbers make the paired interval narrower than the
// unpaired one: on the straggler comparison, Adaptive against Latency
// Aware, in every metric that varies.
func TestPairedNarrowerThanUnpairedOnStraggler(t *testing.T) {
	scn := mustScenario(t, "straggler", engine.DefaultRate, engine.DefaultHeterogeneity)
	c, err := Compare(context.Background(), Experiment{Scenario: scn, Policies: engine.SpecificationPolicies(), Keep: KeepSummaries})
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Paired(PairedOptions{Baseline: "latency-aware"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Stats {
		t.Logf("%-12s %-16s paired width / unpaired width = %.2f", s.Policy, s.Metric.Label(), s.WidthRatio)
	}
	for _, key := range []string{"p99_ms", "p90_ms", "attainment", "goodput_rps"} {
		s := p.Stat("adaptive", key)
		if !(s.WidthRatio < 1) {
			t.Errorf("adaptive − latency-aware, %s: paired/unpaired width %.3f, want < 1", key, s.WidthRatio)
		}
		if w := s.CIHigh - s.CILow; !(w < s.UnpairedHigh-s.UnpairedLow) {
			t.Errorf("%s: paired width %g, unpaired %g", key, w, s.UnpairedHigh-s.UnpairedLow)
		}
	}
	// No policy sheds here: every seed ties, and the verdict says so.
	if s := p.Stat("adaptive", "shed"); s.Verdict() != VerdictIdentical || !math.IsNaN(s.WidthRatio) {
		t.Errorf("shed: verdict %q, ratio %g", s.Verdict(), s.WidthRatio)
	}
}

// The JSON with paired statistics is the comparison's JSON with one key
// more, "paired", before the runs; the CSV has a row per policy and metric.
func TestPairedJSONAndCSV(t *testing.T) {
	c := handFixture()
	p, err := c.Paired(PairedOptions{Baseline: "base"})
	if err != nil {
		t.Fatal(err)
	}
	var plain, paired bytes.Buffer
	if err := c.WriteJSON(&plain); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteJSONPaired(&paired, p); err != nil {
		t.Fatal(err)
	}
	var a, b map[string]any
	if err := json.Unmarshal(plain.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(paired.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	rows, _ := b["paired"].([]any)
	if len(rows) != len(PairedMetricKeys()) {
		t.Fatalf("%d paired records, want one per metric (%d)", len(rows), len(PairedMetricKeys()))
	}
	first := rows[0].(map[string]any)
	for k, want := range map[string]any{"metric": "p99_ms", "baseline": "base", "policy": "pol", "method": "t", "wins": 3.0, "losses": 0.0, "ties": 1.0, "diff_mean": -2.0, "verdict": VerdictUndecided} {
		if first[k] != want {
			t.Errorf("paired[0].%s = %v, want %v", k, first[k], want)
		}
	}
	delete(b, "paired")
	aj, _ := json.Marshal(a)
	bj, _ := json.Marshal(b)
	if !bytes.Equal(aj, bj) {
		t.Error("the paired JSON differs from the comparison's beyond its \"paired\" key")
	}
	if i, j := bytes.Index(paired.Bytes(), []byte("\n  \"paired\": ")), bytes.Index(paired.Bytes(), []byte("\n  \"runs\": ")); i < 0 || i > j {
		t.Error(`"paired" does not come before "runs"`)
	}
	var csv bytes.Buffer
	if err := p.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if len(lines) != 1+len(PairedMetricKeys()) || !strings.HasPrefix(lines[0], "metric,unit,better,baseline,policy,method,level,seeds,") {
		t.Errorf("CSV:\n%s", csv.String())
	}
}

// A sweep's paired statistics are each point's comparison's, with the
// point's x first in its records.
func TestSweepPaired(t *testing.T) {
	scn := mustScenario(t, "burst", engine.DefaultRate, engine.DefaultHeterogeneity)
	res, err := RunSweep(context.Background(), Sweep{
		XName: "rate_rps", Points: RateSweep(scn, 100, 200), Policies: engine.SpecificationPolicies(),
		Seeds: DefaultSeeds(4), Keep: KeepSummaries,
	})
	if err != nil {
		t.Fatal(err)
	}
	o := PairedOptions{Baseline: "latency-aware", Policies: []string{"adaptive"}}
	sp, err := res.Paired(o)
	if err != nil {
		t.Fatal(err)
	}
	recs := sp.Records()
	if len(recs) != 2*len(PairedMetricKeys()) {
		t.Fatalf("%d records, want %d", len(recs), 2*len(PairedMetricKeys()))
	}
	for i, c := range res.Comparisons {
		want, _ := c.Paired(o)
		for j, rec := range want.Records() {
			got := recs[i*len(PairedMetricKeys())+j]
			if got[0] != (engine.Field{Name: "rate_rps", Value: res.Points[i].X}) || !sameFields(got[1:], rec) {
				t.Errorf("point %d record %d: %v, want x then %v", i, j, got, rec)
			}
		}
	}
	var plain, paired bytes.Buffer
	_ = res.WriteJSON(&plain)
	if err := res.WriteJSONPaired(&paired, sp); err != nil {
		t.Fatal(err)
	}
	if bytes.Count(paired.Bytes(), []byte(`"paired"`)) != 2 || bytes.Contains(plain.Bytes(), []byte(`"paired"`)) {
		t.Error(`want "paired" once per point with statistics, never without`)
	}
}

func sameFields(a, b []engine.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		fx, okx := x.Value.(float64)
		fy, oky := y.Value.(float64)
		if x.Name != y.Name || (okx && oky && !(fx == fy || math.IsNaN(fx) && math.IsNaN(fy))) || (!okx || !oky) && x.Value != y.Value {
			return false
		}
	}
	return true
}

// Paired statistics, bootstrap included, have the same bytes for any
// GOMAXPROCS and number of workers.
func TestPairedIndependentOfParallelism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	out := func(procs, workers int) []byte {
		runtime.GOMAXPROCS(procs)
		e := straggler(t)
		e.Workers = workers
		c, err := Compare(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for _, m := range []PairedMethod{PairedT, PairedBootstrap} {
			p, err := c.Paired(PairedOptions{Baseline: "latency-aware", Method: m})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.WriteJSONPaired(&b, p); err != nil {
				t.Fatal(err)
			}
		}
		return b.Bytes()
	}
	one := out(1, 1)
	if !bytes.Equal(one, out(2, 2)) || !bytes.Equal(one, out(2, 7)) {
		t.Fatal("paired statistics depend on GOMAXPROCS or the number of workers")
	}
}
