package symbols_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/lab"
)

// The cost of a routing decision made by a scoring function written in a
// cell, against the same function compiled: one straggler run at 100 req/s
// per iteration, reported per decision.
func benchDecisions(b *testing.B, policy func(*testing.B) lab.PolicySpec) {
	// A long run (the straggler's events, then ten minutes of steady traffic)
	// so per-run set-up does not count.
	scn, proto, err := lab.Straggler().Measure(600).Engine()
	if err != nil {
		b.Fatal(err)
	}
	p := policy(b)
	var decisions int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := engine.Run(context.Background(), engine.RunSpec{Scenario: scn, Policy: p, Seed: uint64(i + 1), Protocol: proto})
		if err != nil {
			b.Fatal(err)
		}
		for _, pr := range r.PerReplica {
			decisions += int64(pr.Assigned)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
}

const costSource = `func(r lab.Replica) float64 { return float64(r.Outstanding+1) * r.ServiceEWMA }`

func BenchmarkDecisionCompiled(b *testing.B) {
	benchDecisions(b, func(*testing.B) lab.PolicySpec {
		return lab.Policy("cost", func(r lab.Replica) float64 { return float64(r.Outstanding+1) * r.ServiceEWMA })
	})
}

func BenchmarkDecisionInterpreted(b *testing.B) {
	benchDecisions(b, func(b *testing.B) lab.PolicySpec {
		// A tiny compiled library hands the cell's policy back to the test.
		var captured lab.PolicySpec
		capture := dsl.Library{Path: "bench/capture", Name: "capture", Symbols: map[string]reflect.Value{
			"Policy": reflect.ValueOf(func(p lab.PolicySpec) { captured = p }),
		}}
		s, err := dsl.New(dsl.Options{Libraries: append(symbols.Libraries(), capture)})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		if _, err := s.Execute(context.Background(), "import \"bench/capture\"\ncapture.Policy(lab.Policy(\"cost\", "+costSource+"))", &sink{}); err != nil {
			b.Fatal(err)
		}
		return captured
	})
}

// BenchmarkCompareInterpretedPolicy is lab.Compare of one interpreted policy
// over the specification's 10 seeds of the straggler scenario at 100 req/s,
// as a cell.
func BenchmarkCompareInterpretedPolicy(b *testing.B) {
	s, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Execute(context.Background(), `p := lab.Policy("cost", `+costSource+`)`, &sink{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Execute(context.Background(), `res := lab.Compare(lab.Straggler(), p)`, &sink{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareCell and BenchmarkCompareEngine are the same comparison
// (four built-ins, straggler, 10 seeds) as a notebook cell and as a direct
// engine call: their ratio is the cell's overhead.
func BenchmarkCompareCell(b *testing.B) {
	s, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Execute(context.Background(), `res := lab.Compare(lab.Straggler(), lab.RoundRobin(), lab.LeastQueue(), lab.LatencyAware(), lab.Adaptive())`, &sink{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompareEngine(b *testing.B) {
	scn, _ := engine.BuiltinScenario("straggler", 100, engine.DefaultHeterogeneity)
	for i := 0; i < b.N; i++ {
		if _, err := experiment.Compare(context.Background(), experiment.Experiment{Scenario: scn, Policies: engine.SpecificationPolicies()}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNewSession(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := symbols.NewSession(dsl.Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

func BenchmarkTrivialCell(b *testing.B) {
	s, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < b.N; i++ {
		if _, err := s.Execute(context.Background(), `1+1`, &sink{}); err != nil {
			b.Fatal(err)
		}
	}
}

// completionCell is a notebook cell of typical length being typed: a
// policy, a scenario and a comparison, with the cursor after a dot at the
// end.
const completionCell = `// queueCost weighs waiting requests by the replica's service estimate.
func queueCost(r lab.Replica) float64 {
	return float64(r.Waiting)*1.5 + float64(r.InFlight) + r.ServiceEWMA/20
}

type sticky struct {
	last int
	seen map[int]int
}

func (p *sticky) pick(v *lab.View) int {
	for _, r := range v.Eligible {
		if r.ID == p.last && r.Outstanding < 3 {
			return r.ID
		}
	}
	p.last = v.Eligible[0].ID
	return p.last
}

busy := scn.Rate(175).Heterogeneity("high")
res := lab.Compare(busy, lab.Policy("cost", queueCost), lab.Adaptive())
res.Chart().`

// Completion runs on every keystroke in some front ends.
func benchComplete(b *testing.B, code string) {
	s, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Execute(context.Background(), `scn := lab.Straggler()`, &sink{}); err != nil {
		b.Fatal(err)
	}
	if len(s.Complete(code, len(code)).Matches) == 0 {
		b.Fatalf("no completions for %q", code)
	}
	for b.Loop() {
		s.Complete(code, len(code))
	}
}

func BenchmarkCompleteChainInCell(b *testing.B) { benchComplete(b, completionCell) }
func BenchmarkCompleteVariable(b *testing.B)    { benchComplete(b, "scn.Ra") }
func BenchmarkCompleteName(b *testing.B) {
	benchComplete(b, completionCell[:len(completionCell)-len("res.Chart().")]+"sc")
}
