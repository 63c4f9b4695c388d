package experiment

import (
	"context"
	"testing"

	"github.com/routelab/routelab/engine"
)

// Every seed, policy and scenario at every rate and heterogeneity of the
// study grid conserves requests; the overloaded conditions shed and leave
// requests unfinished, so all three terms are exercised.
func TestConservationAcrossGrid(t *testing.T) {
	var shed, unfinished int
	for _, name := range engine.ScenarioNames() {
		for _, rate := range []float64{100, 250, 400} {
			for _, h := range []engine.Heterogeneity{engine.DefaultHeterogeneity, engine.HighHeterogeneity} {
				scn := mustScenario(t, name, rate, h)
				c, err := Compare(context.Background(), Experiment{Scenario: scn, Policies: allPolicies(), Seeds: DefaultSeeds(4)})
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range c.Policies {
					for _, r := range p.Runs {
						checkConservation(t, r)
						shed += r.Shed
						unfinished += r.Unfinished
					}
				}
			}
		}
	}
	if shed == 0 || unfinished == 0 {
		t.Fatalf("grid never shed (%d) or left requests unfinished (%d): the check exercised nothing", shed, unfinished)
	}
}
