package experiment

import (
	"context"
	"testing"

	"github.com/routelab/routelab/engine"
)

// BenchmarkRouterComparison compares six production routers over ten seeds
// of the built-in chat scenario (three replicas, at its usual rate, the
// default protocol: 3 s warm-up, 12 s measured): one op is the whole
// comparison. The target is 1 s.
func BenchmarkRouterComparison(b *testing.B) {
	scn, err := engine.BuiltinScenario("chat", engine.ScenarioRate("chat"), engine.DefaultHeterogeneity)
	if err != nil {
		b.Fatal(err)
	}
	e := Experiment{Scenario: scn, Seeds: DefaultSeeds(10),
		Policies: []engine.PolicySpec{engine.LLMD(), engine.SGLang(), engine.DynamoKV(1), engine.VLLMDataParallel(), engine.RayPrefixAffinity(), engine.Prequal()}}
	var reqs int
	for b.Loop() {
		c, err := Compare(context.Background(), e)
		if err != nil {
			b.Fatal(err)
		}
		reqs = 0
		for _, p := range c.Policies {
			for _, r := range p.Runs {
				reqs += r.Cohort
			}
		}
	}
	b.ReportMetric(float64(reqs), "cohort-requests/op")
}
