package experiment_test

import (
	"context"
	"fmt"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// The specification's four policies on the straggler scenario, each on the
// same ten seeds (common random numbers): the table of medians.
func ExampleCompare() {
	scn, err := engine.BuiltinScenario("straggler", engine.DefaultRate, engine.DefaultHeterogeneity)
	if err != nil {
		panic(err)
	}
	res, err := experiment.Compare(context.Background(), experiment.Experiment{Scenario: scn, Policies: engine.SpecificationPolicies()})
	if err != nil {
		panic(err)
	}
	for _, p := range res.Policies {
		fmt.Printf("%-14s p99 %6.1f ms  attainment %.3f\n", p.Name, p.Summary.MedianP99, p.Summary.MedianAttainment)
	}
	// Output:
	// round-robin    p99 1188.2 ms  attainment 0.848
	// least-queue    p99   93.7 ms  attainment 0.950
	// latency-aware  p99   49.4 ms  attainment 0.989
	// adaptive       p99   48.7 ms  attainment 0.990
}

// Adaptive against least-queue, seed by seed: the mean difference of p99
// with its 95 % interval and the verdict.
func ExampleComparison_Paired() {
	scn, err := engine.BuiltinScenario("straggler", engine.DefaultRate, engine.DefaultHeterogeneity)
	if err != nil {
		panic(err)
	}
	res, err := experiment.Compare(context.Background(), experiment.Experiment{Scenario: scn, Policies: engine.SpecificationPolicies()})
	if err != nil {
		panic(err)
	}
	p, err := res.Paired(experiment.PairedOptions{Baseline: "least-queue", Policies: []string{"adaptive"}, Metrics: []string{"p99_ms"}})
	if err != nil {
		panic(err)
	}
	s := p.Stat("adaptive", "p99_ms")
	fmt.Printf("adaptive − least-queue, p99: %s ms, 95 %% CI %s: %s\n", s.Metric.DiffText(s.DiffMean), s.Metric.IntervalText(s.CILow, s.CIHigh), s.Verdict())
	// Output:
	// adaptive − least-queue, p99: -47.4 ms, 95 % CI [-51.9, -42.9]: better
}
