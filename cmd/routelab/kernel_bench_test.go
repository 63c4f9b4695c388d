package main

import (
	"context"
	"testing"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
)

// Benchmarks of what the kernel adds to the work a cell asks for. Targets:
// a session (the part of kernel start-up that is routelab's own) well
// within the 20 ms start budget; a lab.Compare cell within 10 % of the
// engine.Compare call it makes (compare BenchmarkCompareCell/* with
// BenchmarkCompareEngine). kernel/testdata/bench_kernel.py measures the
// kernel end to end through jupyter_client.

func BenchmarkNewSession(b *testing.B) {
	for b.Loop() {
		s, err := symbols.NewSession()
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// discard is a sink that drops a cell's output.
type discard struct{}

func (discard) Stream(string, string)                {}
func (discard) Display(display.Bundle, string, bool) {}
func (discard) Clear(bool)                           {}

// The experiment of both sides: the straggler scenario, its 10 default seeds,
// three built-in policies.
const compareArgs = `lab.Straggler(), lab.RoundRobin(), lab.LeastQueue(), lab.Adaptive()`

func BenchmarkCompareCell(b *testing.B) {
	cells := []struct{ name, code string }{
		{"assign", "res = lab.Compare(" + compareArgs + ")"},
		// The result is shown: the cell also renders the summary table.
		{"shown", "lab.Compare(" + compareArgs + ")"},
	}
	for _, c := range cells {
		b.Run(c.name, func(b *testing.B) {
			s, err := symbols.NewSession()
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			if _, err := s.Execute(ctx, "var res *lab.Comparison", discard{}); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := s.Execute(ctx, c.code, discard{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCompareEngine(b *testing.B) {
	scn, proto, err := lab.Straggler().Engine()
	if err != nil {
		b.Fatal(err)
	}
	exp := engine.Experiment{
		Scenario: scn, Protocol: proto, Seeds: engine.DefaultSeeds(10),
		Policies: []engine.PolicySpec{lab.RoundRobin(), lab.LeastQueue(), lab.Adaptive()},
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := engine.Compare(ctx, exp); err != nil {
			b.Fatal(err)
		}
	}
}
