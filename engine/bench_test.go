package engine

import (
	"context"
	"testing"
)

// benchRun simulates one long seeded run per iteration and reports simulated
// requests per CPU-second (single goroutine) and allocations per request.
func benchRun(b *testing.B, scn Scenario, pol PolicySpec) {
	proto := Protocol{Warmup: 1000, Measure: 600000, SLO: DefaultSLO}
	b.ReportAllocs()
	var requests int64
	tables := prepareTokens(scn.Demand.Tokens)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sim, err := NewSimulator(scn, pol, SimOptions{Seed: uint64(i + 1), Measure: &proto, tables: tables})
		if err != nil {
			b.Fatal(err)
		}
		if err := sim.runUntil(context.Background(), ceilStep(proto.Horizon())); err != nil {
			b.Fatal(err)
		}
		requests += sim.totals.Arrivals
	}
	b.ReportMetric(float64(requests)/b.Elapsed().Seconds(), "req/s")
}

func BenchmarkSimulate(b *testing.B) {
	for _, p := range append(SpecificationPolicies(), Random(), PowerOfTwo()) {
		b.Run(p.Name, func(b *testing.B) {
			scn, _ := BuiltinScenario("straggler", 100, DefaultHeterogeneity)
			scn.Events = nil
			benchRun(b, scn, p)
		})
	}
}
