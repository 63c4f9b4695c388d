package plot

import (
	"context"
	"testing"

	"github.com/routelab/routelab/engine"
)

// The figure builders are tested on real engine results: small experiments
// with fixed seeds, which the engine reproduces exactly on every platform.

// testComparison runs the specification's four policies on a built-in
// scenario at 175 req/s, four seeds.
func testComparison(t testing.TB, scenario string) *engine.Comparison {
	t.Helper()
	scn, err := engine.BuiltinScenario(scenario, 175, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	return compare(t, scn, engine.SpecificationPolicies(), engine.DefaultSeeds(4), engine.DefaultProtocol())
}

func compare(t testing.TB, scn engine.Scenario, policies []engine.PolicySpec, seeds []uint64, proto engine.Protocol) *engine.Comparison {
	t.Helper()
	c, err := engine.Compare(context.Background(), engine.Experiment{Scenario: scn, Policies: policies, Seeds: seeds, Protocol: proto})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// injectionComparison names a policy and the scenario with the injection
// string, beside a built-in policy.
func injectionComparison(t testing.TB) *engine.Comparison {
	t.Helper()
	scn, err := engine.BuiltinScenario("failure", 150, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	scn.Name = "scenario " + injection
	evil := engine.LeastQueue()
	evil.Name = injection
	return compare(t, scn, []engine.PolicySpec{evil, engine.Adaptive(engine.DefaultAdaptiveParams())}, engine.DefaultSeeds(3), engine.DefaultProtocol())
}

// sparseComparison has a measurement window so short that some runs have
// no completed cohort request: their latency is undefined (NaN).
func sparseComparison(t testing.TB) *engine.Comparison {
	t.Helper()
	scn := engine.NewScenario("sparse")
	scn.Rate = 60
	proto := engine.Protocol{Warmup: 1000, Measure: 20, SLO: 50}
	return compare(t, scn, engine.SpecificationPolicies(), engine.DefaultSeeds(6), proto)
}

// testRun is one run of a policy on a built-in scenario with a timeline
// sampled every 50 ms.
func testRun(t testing.TB, scenario string, policy engine.PolicySpec) *engine.RunResult {
	t.Helper()
	scn, err := engine.BuiltinScenario(scenario, 175, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.Run(context.Background(), engine.RunSpec{Scenario: scn, Policy: policy, Seed: 1,
		Protocol: engine.DefaultProtocol(), SampleEvery: 50})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// testSweep sweeps the steady scenario over five rates, three seeds.
func testSweep(t testing.TB) *engine.SweepResult {
	t.Helper()
	base, err := engine.BuiltinScenario("steady", 100, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.RunSweep(context.Background(), engine.Sweep{
		XLabel: "arrival rate (req/s)", Points: engine.RateSweep(base, 100, 150, 200, 230, 260),
		Policies: engine.SpecificationPolicies(), Seeds: engine.DefaultSeeds(3),
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// testStudy is a small exploration-weight study: 2 rates × 2 scenarios,
// three weights, two development and two validation seeds.
func testStudy(t testing.TB) *engine.StudyResult {
	t.Helper()
	cfg := engine.SpecificationStudy()
	cfg.Rates = []float64{100, 250}
	cfg.Heterogeneity = []string{"high"}
	cfg.Scenarios = []string{"steady", "straggler"}
	cfg.Weights = []float64{0, 0.1, 0.35}
	cfg.DevelopmentSeeds = engine.DefaultSeeds(2)
	cfg.ValidationSeeds = []uint64{101, 102}
	res, err := engine.RunStudy(context.Background(), cfg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// deadComparison has every replica fail before the measurement starts:
// every cohort request is shed, no run has a latency figure.
func deadComparison(t testing.TB) *engine.Comparison {
	t.Helper()
	scn := engine.NewScenario("all down")
	for id := 1; id <= 3; id++ {
		scn.Events = append(scn.Events, engine.Event{At: 500, Kind: engine.EventFail, Replica: id})
	}
	proto := engine.Protocol{Warmup: 1000, Measure: 2000, SLO: 50}
	return compare(t, scn, engine.SpecificationPolicies(), engine.DefaultSeeds(3), proto)
}

// halfDeadComparison is the straggler comparison with round-robin's runs
// replaced by runs without any latency figure.
func halfDeadComparison(t testing.TB) *engine.Comparison {
	t.Helper()
	c := testComparison(t, "straggler")
	dead := deadComparison(t)
	runs := append(dead.Policies[0].Runs, dead.Policies[0].Runs[0])
	c.Policies[0] = engine.PolicyResult{Name: "round-robin", Runs: runs, Summary: engine.Summarise(runs)}
	return c
}
