package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
)

// state renders everything observable about a simulator (the serving
// model's tally by value, not by address).
func state(s *Simulator) string {
	snap := s.Snapshot()
	c := *s.cohort
	srv := c.srv
	c.srv = nil
	if srv != nil {
		return fmt.Sprintf("%+v\n%+v\n%+v\nfp=%x", snap, c, *srv, s.wl.hash)
	}
	return fmt.Sprintf("%+v\n%+v\nfp=%x", snap, c, s.wl.hash)
}

// Advance gives the same result however time is chunked, and skipping idle
// boundaries gives exactly what visiting every boundary gives. The chunks
// include sizes that are no whole number of nanoseconds (1/3, 0.1, 0.7 ms)
// and random ones, from a nanosecond-fraction to tens of ms.
func TestAdvanceChunkInvariance(t *testing.T) {
	proto := DefaultProtocol()
	for _, name := range ScenarioNames() {
		scn := mustScenario(t, name, 150, DefaultHeterogeneity)
		ref := advanceState(t, scn, proto, []float64{proto.Horizon()}, false)
		for _, chunk := range []float64{1.0 / 3, 0.1, 0.7, 0.5, 7} {
			if got := advanceState(t, scn, proto, evenChunks(proto.Horizon(), chunk), false); got != ref {
				t.Errorf("%s: Advance(%g) chunks differ from Advance(%g)", name, chunk, proto.Horizon())
			}
		}
		if got := advanceState(t, scn, proto, randomChunks(proto.Horizon(), 9), false); got != ref {
			t.Errorf("%s: random chunks differ from Advance(%g)", name, proto.Horizon())
		}
		if got := advanceState(t, scn, proto, evenChunks(proto.Horizon(), 7), true); got != ref {
			t.Errorf("%s: visiting every boundary differs from skipping idle ones", name)
		}
	}
}

// The case: 3,000 chunks of 1/3 ms reach 1000 ms with the arrivals of
// Advance(1000) (the rounded-chunk accumulator stopped at 999.5 ms with one
// arrival fewer).
func TestAdvanceThirdsReachTheWholeSecond(t *testing.T) {
	scn := mustScenario(t, "steady", 100, DefaultHeterogeneity)
	whole, thirds := newSim(t, scn), newSim(t, scn)
	if err := whole.Advance(1000); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3000; i++ {
		if err := thirds.Advance(1.0 / 3); err != nil {
			t.Fatal(err)
		}
	}
	if thirds.Now() != 1000 || thirds.Totals() != whole.Totals() {
		t.Fatalf("3000 × Advance(1/3): %v ms, %+v; Advance(1000): %v ms, %+v", thirds.Now(), thirds.Totals(), whole.Now(), whole.Totals())
	}
}

// The remainder rounds the exact sum of its chunks to the nanosecond,
// whatever the split: subnormal chunks, chunks that are no whole number of
// nanoseconds, sums just either side of a boundary.
func TestRemainderRoundsTheExactSum(t *testing.T) {
	tiny := math.SmallestNonzeroFloat64
	for _, c := range []struct {
		chunks []float64
		steps  int64
	}{
		{[]float64{0.25, 0.25}, 1},
		{[]float64{0.49999951}, 1},       // 499999.51 ns rounds up to a boundary
		{[]float64{0.49999949}, 0},       // 499999.49 ns does not
		{[]float64{0.24999951, 0.25}, 1}, // 499999.51 ns
		{[]float64{tiny, tiny, 0.5}, 1},
		{[]float64{0.5 - 1e-10, tiny, 1e-10}, 1},
		{[]float64{1e12}, 2e12},
		{slices.Repeat([]float64{1e-4}, 5000), 1}, // 5000 × 100 ns
		{slices.Repeat([]float64{1.0 / 3}, 3), 2}, // 1 ms
		{slices.Repeat([]float64{0.1}, 4), 0},     // 0.4 ms
	} {
		var r remainder
		var steps int64
		for _, dt := range c.chunks {
			steps += r.add(dt)
		}
		if steps != c.steps {
			t.Errorf("%d chunks from %v: %d steps, want %d", len(c.chunks), c.chunks[0], steps, c.steps)
		}
	}
}

func newSim(t *testing.T, scn Scenario) *Simulator {
	t.Helper()
	s, err := NewSimulator(scn, LeastQueue(), SimOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// advanceState advances a fresh simulator by each chunk in turn, requires it
// to reach the horizon, and renders its state and timeline.
func advanceState(t *testing.T, scn Scenario, proto Protocol, chunks []float64, everyStep bool) string {
	t.Helper()
	s, err := NewSimulator(scn, Adaptive(DefaultAdaptiveParams()), SimOptions{Seed: 4, Measure: &proto, SampleEvery: 250})
	if err != nil {
		t.Fatal(err)
	}
	s.everyStep = everyStep
	for _, c := range chunks {
		if err := s.Advance(c); err != nil {
			t.Fatal(err)
		}
	}
	if s.Now() != proto.Horizon() {
		t.Fatalf("%d chunks from %g ms reached %v, want %v", len(chunks), chunks[0], s.Now(), proto.Horizon())
	}
	return state(s) + fmt.Sprintf("%+v", s.sampler.tl)
}

// evenChunks splits total into chunks of size, the last one the float64
// remainder when size does not divide it (within rounding).
func evenChunks(total, size float64) []float64 {
	n := int(math.Round(total / size))
	if float64(n)*size > total {
		n--
	}
	out := slices.Repeat([]float64{size}, n)
	if rest := total - float64(n)*size; rest > 1e-9 {
		out = append(out, rest)
	}
	return out
}

// randomChunks splits total into chunks drawn from a seeded stream, from
// 1e-7 ms to about 40 ms, with the float64 remainder last.
func randomChunks(total float64, seed uint64) []float64 {
	r := NewRand(seed, 99)
	var out []float64
	sum := 0.0
	for {
		c := math.Pow(10, 7*r.Float64()-7) * 40 // log-uniform in [4e-6, 40)
		if sum+c >= total {
			return append(out, total-sum)
		}
		out = append(out, c)
		sum += c
	}
}

// A snapshot only reads: taking one at every step changes nothing.
func TestSnapshotsDoNotPerturb(t *testing.T) {
	scn := mustScenario(t, "failure", 200, DefaultHeterogeneity)
	proto := DefaultProtocol()
	run := func(snap bool) string {
		s, _ := NewSimulator(scn, LatencyAware(DefaultAlpha), SimOptions{Seed: 2, Measure: &proto})
		for s.Now() < proto.Horizon() {
			_ = s.Advance(5)
			if snap {
				s.Snapshot()
			}
		}
		return state(s)
	}
	if run(true) != run(false) {
		t.Fatal("taking snapshots changed the simulation")
	}
}

// In steady state routing a request allocates nothing.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	for _, p := range allPolicies() {
		scn := mustScenario(t, "steady", 200, DefaultHeterogeneity)
		proto := Protocol{Warmup: 1000, Measure: 1e6, SLO: 50}
		s, err := NewSimulator(scn, p, SimOptions{Seed: 1, Measure: &proto})
		if err != nil {
			t.Fatal(err)
		}
		checkSteadyAllocs(t, s, p.Name, 5000, 100, 300, "100 ms of simulated time")
	}
}

// checkSteadyAllocs advances s past warm (ms), then requires that steps of
// step ms route at least minRouted requests in all and allocate nothing.
func checkSteadyAllocs(t *testing.T, s *Simulator, name string, warm, step float64, minRouted int64, per string) {
	t.Helper()
	_ = s.Advance(warm)
	before := s.totals.Arrivals
	allocs := testing.AllocsPerRun(20, func() { _ = s.Advance(step) })
	if routed := s.totals.Arrivals - before; routed < minRouted {
		t.Fatalf("%s: only %d requests routed", name, routed)
	}
	if allocs != 0 {
		t.Errorf("%s: %v allocations per %s, want 0", name, allocs, per)
	}
}

// A comparison that keeps summaries hands each worker's latency buffer and
// queues from run to run: it allocates less per run than one run's latency
// buffer alone, and gives the results it gives without the hand-over.
func TestSummaryRunsReuseTheirBuffers(t *testing.T) {
	scn := mustScenario(t, "steady", 100, DefaultHeterogeneity)
	proto := DefaultProtocol()
	policies := SpecificationPolicies()
	const seeds = 50
	runner := NewRunner(scn)
	runAll := func() [][]RunSummary {
		out := make([][]RunSummary, len(policies))
		for i, pol := range policies {
			for seed := uint64(1); seed <= seeds; seed++ {
				r, err := runner.Run(context.Background(), RunSpec{Scenario: scn, Policy: pol, Seed: seed, Protocol: proto, SummaryOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				out[i] = append(out[i], r.RunSummary)
			}
		}
		return out
	}
	runAll() // warm: the buffers grow to their size
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := runAll()
	runtime.ReadMemStats(&after)
	perRun := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(policies)*seeds)
	if buffer := float64(8 * expectedCohort(&scn, proto)); perRun >= buffer {
		t.Errorf("%.0f bytes allocated per run; one run's latency buffer alone is %.0f", perRun, buffer)
	}
	for i, runs := range got {
		for j, r := range runs {
			alone, err := Run(context.Background(), RunSpec{Scenario: scn, Policy: policies[i], Seed: uint64(j + 1), Protocol: proto, SummaryOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(r)
			b, _ := json.Marshal(alone.RunSummary)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s seed %d:\n%s through the runner,\n%s alone", policies[i].Name, j+1, a, b)
			}
		}
	}
	// The Simulator and its replicas' arrays are among what is handed on.
	b := &runner.buffers
	spec := RunSpec{Scenario: scn, Policy: policies[0], Seed: 1, Protocol: proto, SummaryOnly: true}
	if _, err := runner.Run(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	last, replicas := b.sim, b.replicas
	next, err := newSimulator(scn, policies[1], SimOptions{Seed: 2, Measure: &proto}, simInternals{buffers: b})
	switch {
	case err != nil:
		t.Fatal(err)
	case last == nil || next != last || &next.replicas[0] != &replicas[0]:
		t.Error("the next run did not reuse the last summary-only run's Simulator and replica states")
	case b.sim != nil || b.replicas != nil || b.view != nil || b.eligible != nil:
		t.Error("the buffers still hold what the next run took")
	}
}
