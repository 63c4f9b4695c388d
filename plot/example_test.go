package plot_test

import (
	"context"
	"fmt"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/plot"
)

// The comparison figure of the specification's policies on the straggler
// scenario: its title and its size.
func ExampleComparison() {
	scn, err := engine.BuiltinScenario("straggler", engine.DefaultRate, engine.DefaultHeterogeneity)
	if err != nil {
		panic(err)
	}
	res, err := experiment.Compare(context.Background(), experiment.Experiment{Scenario: scn, Policies: engine.SpecificationPolicies()})
	if err != nil {
		panic(err)
	}
	fig, err := plot.Comparison(res)
	if err != nil {
		panic(err)
	}
	w, h := fig.Size()
	fmt.Printf("%s; %d × %d px\n", fig.Title(), w, h)
	// Output:
	// straggler: 4 policies compared; 1000 × 340 px
}
