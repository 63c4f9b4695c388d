package engine

import (
	"context"
	"runtime"
	"testing"
)

// benchRun simulates one long seeded run per iteration and reports simulated
// requests per CPU-second (single goroutine) and allocations per request.
func benchRun(b *testing.B, scn Scenario, pol PolicySpec) {
	proto := Protocol{Warmup: 1000, Measure: 600000, SLO: DefaultSLO}
	b.ReportAllocs()
	var requests int64
	tables := prepareTokens(scn.Demand.Tokens)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
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
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(requests)/b.Elapsed().Seconds(), "req/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(requests), "allocs/req")
}

func BenchmarkSimulate(b *testing.B) {
	for _, p := range allPolicies() {
		b.Run(p.Name, func(b *testing.B) {
			scn, _ := BuiltinScenario("straggler", 100, DefaultHeterogeneity)
			scn.Events = nil
			benchRun(b, scn, p)
		})
	}
}

// BenchmarkCompareStraggler is the specification's comparison: the four
// built-ins × 10 seeds on the straggler scenario at 100 req/s, all cores.
func BenchmarkCompareStraggler(b *testing.B) {
	scn, _ := BuiltinScenario("straggler", 100, DefaultHeterogeneity)
	e := Experiment{Scenario: scn, Policies: SpecificationPolicies()}
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
