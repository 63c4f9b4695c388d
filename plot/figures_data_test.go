package plot

import (
	"context"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// The figure builders are tested on real engine results: small experiments
// with fixed seeds, which the engine reproduces exactly on every platform.

// testComparison runs the specification's four policies on a built-in
// scenario at 175 req/s, four seeds.
func testComparison(t testing.TB, scenario string) *experiment.Comparison {
	t.Helper()
	scn, err := engine.BuiltinScenario(scenario, 175, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	return compare(t, scn, engine.SpecificationPolicies(), experiment.DefaultSeeds(4), engine.DefaultProtocol())
}

func compare(t testing.TB, scn engine.Scenario, policies []engine.PolicySpec, seeds []uint64, proto engine.Protocol) *experiment.Comparison {
	t.Helper()
	c, err := experiment.Compare(context.Background(), experiment.Experiment{Scenario: scn, Policies: policies, Seeds: seeds, Protocol: proto})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// injectionComparison names a policy and the scenario with the injection
// string, beside a built-in policy.
func injectionComparison(t testing.TB) *experiment.Comparison {
	t.Helper()
	scn, err := engine.BuiltinScenario("failure", 150, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	scn.Name = "scenario " + injection
	evil := engine.LeastQueue()
	evil.Name = injection
	return compare(t, scn, []engine.PolicySpec{evil, engine.Adaptive(engine.DefaultAdaptiveParams())}, experiment.DefaultSeeds(3), engine.DefaultProtocol())
}

// sparseComparison has a measurement window so short that some runs have
// no completed cohort request: their latency is undefined (NaN).
func sparseComparison(t testing.TB) *experiment.Comparison {
	t.Helper()
	scn := engine.NewScenario("sparse")
	scn.Rate = 60
	proto := engine.Protocol{Warmup: 1000, Measure: 20, SLO: 50}
	return compare(t, scn, engine.SpecificationPolicies(), experiment.DefaultSeeds(6), proto)
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
func testSweep(t testing.TB) *experiment.SweepResult {
	t.Helper()
	base, err := engine.BuiltinScenario("steady", 100, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	res, err := experiment.RunSweep(context.Background(), experiment.Sweep{
		XLabel: "arrival rate (req/s)", Points: experiment.RateSweep(base, 100, 150, 200, 230, 260),
		Policies: engine.SpecificationPolicies(), Seeds: experiment.DefaultSeeds(3),
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// testStudy is a small exploration-weight study: 2 rates × 2 scenarios,
// three weights, two development and two validation seeds.
func testStudy(t testing.TB) *experiment.StudyResult {
	t.Helper()
	cfg := experiment.SpecificationStudy()
	cfg.Rates = []float64{100, 250}
	cfg.Heterogeneity = []string{"high"}
	cfg.Scenarios = []string{"steady", "straggler"}
	cfg.Weights = []float64{0, 0.1, 0.35}
	cfg.DevelopmentSeeds = experiment.DefaultSeeds(2)
	cfg.ValidationSeeds = []uint64{101, 102}
	res, err := experiment.RunStudy(context.Background(), cfg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// deadComparison has every replica fail before the measurement starts:
// every cohort request is shed, no run has a latency figure.
func deadComparison(t testing.TB) *experiment.Comparison {
	t.Helper()
	scn := engine.NewScenario("all down")
	for id := 1; id <= 3; id++ {
		scn.Events = append(scn.Events, engine.Event{At: 500, Kind: engine.EventFail, Replica: id})
	}
	proto := engine.Protocol{Warmup: 1000, Measure: 2000, SLO: 50}
	return compare(t, scn, engine.SpecificationPolicies(), experiment.DefaultSeeds(3), proto)
}

// halfDeadComparison is the straggler comparison with round-robin's runs
// replaced by runs without any latency figure.
func halfDeadComparison(t testing.TB) *experiment.Comparison {
	t.Helper()
	c := testComparison(t, "straggler")
	dead := deadComparison(t)
	runs := append(dead.Policies[0].Runs, dead.Policies[0].Runs[0])
	records := make([]engine.RunSummary, len(runs))
	for i, r := range runs {
		records[i] = r.RunSummary
	}
	c.Policies[0] = experiment.PolicyResult{Name: "round-robin", Records: records, Runs: runs, Summary: experiment.SummaryOf(runs)}
	return c
}

// The figures of the layout tests (browser_layout_test.go).

func mustScenario(t testing.TB, name string) engine.Scenario {
	t.Helper()
	scn, err := engine.BuiltinScenario(name, 175, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	return scn
}

func specPolicies(n int) []engine.PolicySpec { return engine.SpecificationPolicies()[:n] }

func testSeeds() []uint64 { return experiment.DefaultSeeds(4) }

func testProtocol() engine.Protocol { return engine.DefaultProtocol() }

// longNames are ten policy names, four of them 40 characters long: with
// hyphens, with spaces, in camel case without a break, and with a dot.
var longNames = []string{"round-robin", "least-queue", "latency-aware", "adaptive", "random", "p2c",
	"adaptive-exploration-weight-0.50-retuned", "least queue with ewma service estimate 2",
	"LatencyAwareWithRetriesAndBackoffVersion", "p2c.over.healthy.replicas.only.2026.v3.b"}

// longPolicies are ten policies (the six built-ins, then copies named with
// longNames).
func longPolicies() []engine.PolicySpec {
	specs := []engine.PolicySpec{engine.RoundRobin(), engine.LeastQueue(), engine.LatencyAware(0.15),
		engine.Adaptive(engine.DefaultAdaptiveParams()), engine.Random(), engine.PowerOfTwo(),
		engine.Adaptive(engine.DefaultAdaptiveParams()), engine.LeastQueue(), engine.LatencyAware(0.15), engine.PowerOfTwo()}
	for i := range specs {
		specs[i].Name = longNames[i]
	}
	return specs
}

// twinNames name two policies that route identically.
var twinNames = []string{"least-queue", "least-queue-again"}

func twins() []engine.PolicySpec {
	a, b := engine.LeastQueue(), engine.LeastQueue()
	a.Name, b.Name = twinNames[0], twinNames[1]
	return []engine.PolicySpec{a, b}
}

// overlappingEvents overlap and nest: a slowdown holding a traffic burst
// holding a failure, a second slowdown starting as the first ends, and an
// unpaired one near the end.
func overlappingEvents() []engine.Event {
	return []engine.Event{
		{At: 4000, Kind: engine.EventSlow, Replica: 1, Value: 5},
		{At: 6000, Kind: engine.EventScaleRate, Value: 1.5},
		{At: 7000, Kind: engine.EventFail, Replica: 2},
		{At: 8000, Kind: engine.EventRecover, Replica: 2},
		{At: 9000, Kind: engine.EventScaleRate, Value: 1},
		{At: 11000, Kind: engine.EventRestore, Replica: 1},
		{At: 11000, Kind: engine.EventSlow, Replica: 3, Value: 2},
		{At: 12000, Kind: engine.EventRestore, Replica: 3},
		{At: 14000, Kind: engine.EventSlow, Replica: 2, Value: 3},
	}
}
