package experiment

import (
	"context"
	"testing"

	"github.com/routelab/routelab/engine"
)

// BenchmarkCompareStraggler is the specification's comparison: the four
// built-ins × 10 seeds on the straggler scenario at 100 req/s, all cores.
func BenchmarkCompareStraggler(b *testing.B) {
	scn, _ := engine.BuiltinScenario("straggler", 100, engine.DefaultHeterogeneity)
	e := Experiment{Scenario: scn, Policies: engine.SpecificationPolicies()}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Compare(context.Background(), e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareChat is a comparison of six routers × 10 seeds on the
// chat serving scenario (3 replicas, its rate, the specification's
// protocol), all cores.
func BenchmarkCompareChat(b *testing.B) {
	scn, err := engine.BuiltinScenario("chat", engine.ScenarioRate("chat"), engine.DefaultHeterogeneity)
	if err != nil {
		b.Fatal(err)
	}
	e := Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.RoundRobin(), engine.LeastQueue(), engine.PowerOfTwo(), engine.LeastKV(), engine.JoinIdleQueue(), engine.ShortestExpectedDelay()}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Compare(context.Background(), e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStudy is the whole specification study: 1,152 development runs
// and 4 × 576 validation runs.
func BenchmarkStudy(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := RunStudy(context.Background(), SpecificationStudy(), 0, nil); err != nil {
			b.Fatal(err)
		}
	}
}
