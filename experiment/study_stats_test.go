package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/sheet"
)

// Per-seed means and standard errors on a hand-made set of runs: two
// conditions, three seeds, attainments chosen so the arithmetic is exact.
func TestStudySeedMeansByHand(t *testing.T) {
	conds := []Condition{{100, "default", "steady"}, {100, "default", "burst"}}
	seeds := []uint64{1, 2, 3}
	att := map[string][2][3]float64{ // policy → condition → seed
		"a": {{0.5, 0.75, 1}, {0.25, 0.25, 0.5}},
		"b": {{0.75, 0.75, 1}, {0.5, 0.25, 1}},
	}
	var runs []StudyRun
	for _, name := range []string{"a", "b"} {
		for ci, cond := range conds {
			for si, seed := range seeds {
				res := &engine.RunSummary{Seed: seed, Attainment: att[name][ci][si]}
				runs = append(runs, StudyRun{Phase: "validation", Policy: name, C: math.NaN(), Condition: cond, Result: res})
			}
		}
	}
	isA := func(r StudyRun) bool { return r.Policy == "a" }
	// a, per seed, the mean over the two conditions:
	// seed 1 (0.5+0.25)/2 = 0.375, seed 2 (0.75+0.25)/2 = 0.5, seed 3 (1+0.5)/2 = 0.75
	got := seedMeans(metric("attainment"), seeds, conds, runs, isA)
	for i, want := range []float64{0.375, 0.5, 0.75} {
		near(t, "seed mean", got[i], want, 0)
	}
	// Score: mean over conditions of the mean over seeds =
	// ((0.5+0.75+1)/3 + (0.25+0.25+0.5)/3)/2 = (0.75 + 1/3)/2 = 0.541666…,
	// the mean of the per-seed means (0.375+0.5+0.75)/3 = 0.541666….
	// Standard error: deviations −0.1666…, −0.0416…, +0.2083…;
	// SS = 0.027777… + 0.001736… + 0.043402… = 0.0729166… = 7/96;
	// s² = 7/192; se = √(7/192/3) = √(7/576) = √7/24 = 0.110239…
	sc := scoreRuns("a", math.NaN(), conds, seeds, runs, isA)
	near(t, "score", sc.MeanAttainment, 0.75/2+1.0/6, 1e-15)
	near(t, "std err", sc.StdErr, math.Sqrt(7)/24, 1e-15)
	if sc.Seeds != 3 || sc.Runs != 6 {
		t.Errorf("seeds %d, runs %d; want 3, 6", sc.Seeds, sc.Runs)
	}
	// b − a per seed: b's means are 0.625, 0.5, 1, so the differences are
	// +0.25, 0, +0.25: mean 1/6, wins on seeds 1 and 3, a tie on seed 2.
	pairs := pairSeedMeans(metric("attainment"), seeds, conds, runs, isA, func(r StudyRun) bool { return r.Policy == "b" })
	s := pairedStat(metric("attainment"), PairedT, "a", "b", pairs)
	near(t, "b − a", s.DiffMean, 1.0/6, 1e-15)
	if s.Wins != 2 || s.Ties != 1 || s.Losses != 0 {
		t.Errorf("wins %d, ties %d, losses %d; want 2, 1, 0", s.Wins, s.Ties, s.Losses)
	}
}

func smallStudy(t *testing.T) *StudyResult {
	t.Helper()
	cfg := StudyConfig{
		Name: "small", Rates: []float64{150}, Heterogeneity: []string{"default", "high"},
		Scenarios: []string{"straggler"}, Weights: []float64{0, 0.2, 0.35},
		DevelopmentSeeds: []uint64{1, 2, 3}, ValidationSeeds: []uint64{11, 12, 13, 14},
		Policies: []string{"latency-aware", "adaptive"}, Protocol: engine.DefaultProtocol(),
	}
	res, err := RunStudy(context.Background(), cfg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// On a real study: each weight's standard error is over its development
// seeds, each seed averaged over the conditions; the margin is the
// selected weight minus the best of the others, seed by seed.
func TestStudyUncertainty(t *testing.T) {
	res := smallStudy(t)
	perSeed := func(c float64, seed uint64) float64 {
		var sum float64
		for _, r := range res.Development {
			if r.C == c && r.Result.Seed == seed {
				sum += r.Result.Attainment
			}
		}
		return sum / 2 // two conditions
	}
	seeds := res.Config.DevelopmentSeeds
	runner := Score{MeanAttainment: math.Inf(-1)}
	for _, w := range res.Weights {
		var xs []float64
		for _, s := range seeds {
			xs = append(xs, perSeed(w.C, s))
		}
		mean := (xs[0] + xs[1] + xs[2]) / 3
		ss := (xs[0]-mean)*(xs[0]-mean) + (xs[1]-mean)*(xs[1]-mean) + (xs[2]-mean)*(xs[2]-mean)
		near(t, "std err of c="+sheet.Dash("%g", w.C), w.StdErr, math.Sqrt(ss/2/3), 1e-15)
		if w.C != res.SelectedC && w.MeanAttainment > runner.MeanAttainment {
			runner = w
		}
	}
	m := res.Margin
	if m == nil || m.Baseline != runner.Name || m.Seeds != 3 || !strings.Contains(m.Policy, sheet.Dash("%g", res.SelectedC)) {
		t.Fatalf("margin %v; want the selected weight against %s over 3 seeds", m, runner.Name)
	}
	var selected Score
	for _, w := range res.Weights {
		if w.C == res.SelectedC {
			selected = w
		}
	}
	near(t, "margin", m.DiffMean, selected.MeanAttainment-runner.MeanAttainment, 1e-15)
	if !(m.DiffMean >= 0) {
		t.Errorf("the selected weight's margin over the runner-up is %g, below zero", m.DiffMean)
	}
	if !strings.Contains(res.String(), "selection margin") || !strings.Contains(res.HTML(), "std err") {
		t.Errorf("the study's display lacks its uncertainty:\n%s", res.String())
	}

	p, err := res.Paired(PairedOptions{Baseline: "latency-aware"})
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Stat("adaptive", "attainment"); s == nil || s.Seeds != 4 {
		t.Fatalf("validation attainment: %v", s)
	}
	if _, err := res.Paired(PairedOptions{Baseline: "round-robin"}); err == nil || !strings.Contains(err.Error(), "latency-aware, adaptive") {
		t.Errorf("a baseline the study did not validate: %v", err)
	}

	// A single weight has no runner-up.
	one := res.Config
	one.Weights = []float64{0.35}
	single, err := RunStudy(context.Background(), one, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if single.Margin != nil || !strings.Contains(single.String(), "none (a single weight)") {
		t.Errorf("single weight: margin %v", single.Margin)
	}
}

// The study's JSON with its uncertainty adds standard errors to the
// scores, the margin after the selected weight and the paired statistics
// before the runs; without it, nothing changes.
func TestStudyJSONPaired(t *testing.T) {
	res := smallStudy(t)
	p, err := res.Paired(PairedOptions{Baseline: "latency-aware"})
	if err != nil {
		t.Fatal(err)
	}
	var plain, paired bytes.Buffer
	_ = res.WriteJSON(&plain)
	if err := res.WriteJSONPaired(&paired, p); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain.Bytes(), []byte("std_err")) || bytes.Contains(plain.Bytes(), []byte("selection_margin")) {
		t.Error("the plain study JSON carries uncertainty")
	}
	var doc struct {
		Development []map[string]any `json:"development"`
		Margin      map[string]any   `json:"selection_margin"`
		Paired      []map[string]any `json:"paired"`
	}
	if err := json.Unmarshal(paired.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Development[0]["seeds"] != 3.0 || doc.Development[0]["std_err"] == nil {
		t.Errorf("development[0] = %v", doc.Development[0])
	}
	if doc.Margin["metric"] != "attainment" || doc.Margin["seeds"] != 3.0 || len(doc.Paired) != len(PairedMetricKeys()) {
		t.Errorf("margin %v; %d paired records", doc.Margin, len(doc.Paired))
	}
	var order []string
	dec := json.NewDecoder(bytes.NewReader(paired.Bytes()))
	_, _ = dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		order = append(order, k.(string))
		var skip json.RawMessage
		_ = dec.Decode(&skip)
	}
	if got := strings.Join(order, " "); got != "config development selected_c selection_margin validation paired runs" {
		t.Errorf("keys: %s", got)
	}
}
