package docgen

import (
	"fmt"
	"math"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// runStraggler runs the specification's comparison on the straggler
// scenario once, for the figure and every part that quotes it.
func (g *Generator) runStraggler() (*experiment.Comparison, error) {
	g.stragglerOnce.Do(func() {
		scn, err := engine.BuiltinScenario("straggler", engine.DefaultRate, engine.DefaultHeterogeneity)
		if err != nil {
			g.stragglerErr = err
			return
		}
		g.straggler, g.stragglerErr = experiment.Compare(g.ctx, experiment.Experiment{Scenario: scn, Policies: engine.SpecificationPolicies()})
	})
	return g.straggler, g.stragglerErr
}

// stragglerSummary is one policy's summary of the straggler comparison.
func stragglerSummary(g *Generator, policy string) (experiment.Summary, error) {
	c, err := g.runStraggler()
	if err != nil {
		return experiment.Summary{}, err
	}
	for _, p := range c.Policies {
		if p.Name == policy {
			return p.Summary, nil
		}
	}
	return experiment.Summary{}, fmt.Errorf("the straggler comparison has no %s", policy)
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

// stragglerPaired is the straggler comparison against Latency Aware, by
// the method asked for.
func (g *Generator) stragglerPaired(method experiment.PairedMethod) (*experiment.Paired, error) {
	c, err := g.runStraggler()
	if err != nil {
		return nil, err
	}
	return c.Paired(experiment.PairedOptions{Baseline: "latency-aware", Method: method})
}

// pairedStat is one statistic of the straggler comparison against Latency
// Aware.
func pairedStat(g *Generator, method experiment.PairedMethod, policy, metric string) (*experiment.PairedStat, error) {
	p, err := g.stragglerPaired(method)
	if err != nil {
		return nil, err
	}
	s := p.Stat(policy, metric)
	if s == nil {
		return nil, fmt.Errorf("the straggler comparison has no %s of %s", metric, policy)
	}
	return s, nil
}

// msInterval writes an interval in milliseconds, with true minuses.
func msInterval(lo, hi float64) string {
	return strings.ReplaceAll(fmt.Sprintf("[%+.1f, %+.1f] ms", lo, hi), "-", "−")
}

// compareP90 is Adaptive's p90 difference from Latency Aware by the
// t-interval and by the bootstrap.
func compareP90T(g *Generator) (string, error) {
	s, err := pairedStat(g, experiment.PairedT, "adaptive", "p90_ms")
	if err != nil {
		return "", err
	}
	return msInterval(s.CILow, s.CIHigh), nil
}

func compareP90Bootstrap(g *Generator) (string, error) {
	s, err := pairedStat(g, experiment.PairedBootstrap, "adaptive", "p90_ms")
	if err != nil {
		return "", err
	}
	return msInterval(s.CILow, s.CIHigh), nil
}

// compareP99Wins says on how many seeds Adaptive's p99 beat Latency
// Aware's.
func compareP99Wins(g *Generator) (string, error) {
	s, err := pairedStat(g, experiment.PairedT, "adaptive", "p99_ms")
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("lower on %d seeds of %d and higher on %d", s.Wins, s.Seeds, s.Losses)
	if s.Ties > 0 {
		out += fmt.Sprintf(" (%d tied)", s.Ties)
	}
	return out, nil
}

// compareRatios is the table of paired over unpaired interval widths.
func compareRatios(g *Generator) (string, error) {
	p, err := g.stragglerPaired(experiment.PairedT)
	if err != nil {
		return "", err
	}
	metrics := []string{"p99_ms", "p90_ms", "attainment", "goodput_rps"}
	var rows [][]string
	for _, policy := range []string{"adaptive", "least-queue", "round-robin"} {
		row := []string{policyTitle(policy)}
		for _, m := range metrics {
			s := p.Stat(policy, m)
			if s == nil {
				return "", fmt.Errorf("the straggler comparison has no %s of %s", m, policy)
			}
			row = append(row, fmt.Sprintf("%.2f", s.WidthRatio))
		}
		rows = append(rows, row)
	}
	return table([]string{"policy", "p99", "p90", "attainment", "goodput"}, rows), nil
}
