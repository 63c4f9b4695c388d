package docgen

import (
	"fmt"
	"math"

	"github.com/routelab/routelab/engine"
)

// runStraggler runs the specification's comparison on the straggler
// scenario once, for the figure and every part that quotes it.
func (g *Generator) runStraggler() (*engine.Comparison, error) {
	g.stragglerOnce.Do(func() {
		scn, err := engine.BuiltinScenario("straggler", engine.DefaultRate, engine.DefaultHeterogeneity)
		if err != nil {
			g.stragglerErr = err
			return
		}
		g.straggler, g.stragglerErr = engine.Compare(g.ctx, engine.Experiment{Scenario: scn, Policies: engine.SpecificationPolicies()})
	})
	return g.straggler, g.stragglerErr
}

// stragglerSummary is one policy's summary of the straggler comparison.
func stragglerSummary(g *Generator, policy string) (engine.Summary, error) {
	c, err := g.runStraggler()
	if err != nil {
		return engine.Summary{}, err
	}
	for _, p := range c.Policies {
		if p.Name == policy {
			return p.Summary, nil
		}
	}
	return engine.Summary{}, fmt.Errorf("the straggler comparison has no %s", policy)
}

// twoFigures rounds to two significant figures, as prose quotes a spread.
func twoFigures(x float64) string {
	if x == 0 {
		return "0"
	}
	scale := math.Pow(10, math.Floor(math.Log10(math.Abs(x)))-1)
	return fmt.Sprintf("%.0f", math.Round(x/scale)*scale)
}

// compareP99Range is Latency Aware's observed p99 range on the straggler
// scenario, in whole milliseconds.
func compareP99Range(g *Generator) (string, error) {
	s, err := stragglerSummary(g, "latency-aware")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%.0f–%.0f ms", s.P99Min, s.P99Max), nil
}

// p99Spread is the width of a policy's p99 range on the straggler scenario.
func p99Spread(g *Generator, policy string) (string, error) {
	s, err := stragglerSummary(g, policy)
	if err != nil {
		return "", err
	}
	return twoFigures(s.P99Max-s.P99Min) + " ms", nil
}

func compareSpreadRoundRobin(g *Generator) (string, error) { return p99Spread(g, "round-robin") }
func compareSpreadLatency(g *Generator) (string, error)    { return p99Spread(g, "latency-aware") }
