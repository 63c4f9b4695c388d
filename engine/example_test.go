package engine_test

import (
	"context"
	"fmt"

	"github.com/routelab/routelab/engine"
)

// One seeded run of the adaptive policy on the straggler scenario: the same
// seed gives these numbers on every machine.
func ExampleRun() {
	scn, err := engine.BuiltinScenario("straggler", engine.DefaultRate, engine.DefaultHeterogeneity)
	if err != nil {
		panic(err)
	}
	res, err := engine.Run(context.Background(), engine.RunSpec{
		Scenario: scn, Policy: engine.Adaptive(engine.DefaultAdaptiveParams()), Seed: 1, Protocol: engine.DefaultProtocol(),
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d arrivals, %d completed, %d shed; p99 %.1f ms\n", res.Cohort, res.Completed, res.Shed, res.Latency.P99)
	// Output:
	// 1218 arrivals, 1216 completed, 0 shed; p99 49.2 ms
}
