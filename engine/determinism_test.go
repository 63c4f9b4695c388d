package engine

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
)

func straggler(t testing.TB) Experiment {
	return Experiment{Scenario: mustScenario(t, "straggler", 175, HighHeterogeneity), Policies: allPolicies()}
}

func TestSameSeedSameBytes(t *testing.T) {
	a, b := compareJSON(t, straggler(t)), compareJSON(t, straggler(t))
	if !bytes.Equal(a, b) {
		t.Fatal("two identical comparisons gave different JSON")
	}
}

// Parallelism never changes a figure: GOMAXPROCS 1 and 2, and any number of
// workers, give the same bytes.
func TestResultsIndependentOfParallelism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	one := compareJSON(t, straggler(t))
	runtime.GOMAXPROCS(2)
	two := compareJSON(t, straggler(t))
	e := straggler(t)
	e.Workers = 7
	seven := compareJSON(t, e)
	if !bytes.Equal(one, two) || !bytes.Equal(one, seven) {
		t.Fatal("results depend on GOMAXPROCS or the number of workers")
	}
}

func TestWorkloadFingerprintsEqualAcrossPolicies(t *testing.T) {
	c, err := Compare(context.Background(), straggler(t))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	for _, p := range c.Policies {
		for i, r := range p.Runs {
			if r.Fingerprint != c.Fingerprints[i] {
				t.Errorf("%s seed %d: fingerprint %x, want %x", p.Name, r.Seed, r.Fingerprint, c.Fingerprints[i])
			}
		}
	}
	for _, f := range c.Fingerprints {
		seen[f] = true
	}
	if len(seen) != len(c.Seeds) {
		t.Errorf("%d distinct fingerprints for %d seeds", len(seen), len(c.Seeds))
	}
}

// state renders everything observable about a simulator.
func state(s *Simulator) string {
	snap := s.Snapshot()
	return fmt.Sprintf("%+v\n%+v\nfp=%x", snap, *s.cohort, s.wl.hash)
}

// Advance gives the same result however time is chunked, and skipping idle
// boundaries gives exactly what visiting every boundary gives.
func TestAdvanceChunkInvariance(t *testing.T) {
	for _, name := range ScenarioNames() {
		scn := mustScenario(t, name, 150, DefaultHeterogeneity)
		proto := DefaultProtocol()
		run := func(chunk float64, everyStep bool) string {
			s, err := NewSimulator(scn, Adaptive(DefaultAdaptiveParams()), SimOptions{Seed: 4, Measure: &proto, SampleEvery: 250})
			if err != nil {
				t.Fatal(err)
			}
			s.everyStep = everyStep
			// Advance exactly to the horizon: whole chunks, then the remainder.
			n := int(proto.Horizon() / chunk)
			for i := 0; i < n; i++ {
				if err := s.Advance(chunk); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Advance(proto.Horizon() - float64(n)*chunk); err != nil {
				t.Fatal(err)
			}
			if s.Now() != proto.Horizon() {
				t.Fatalf("Advance(%g) chunks reached %v, want %v", chunk, s.Now(), proto.Horizon())
			}
			return state(s) + fmt.Sprintf("%+v", s.sampler.tl)
		}
		ref := run(1000, false)
		for _, chunk := range []float64{0.1, 0.5, 7} {
			if got := run(chunk, false); got != ref {
				t.Errorf("%s: Advance(%g) chunks differ from Advance(1000)", name, chunk)
			}
		}
		if got := run(7, true); got != ref {
			t.Errorf("%s: visiting every boundary differs from skipping idle ones", name)
		}
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
		_ = s.Advance(5000)
		before := s.totals.Arrivals
		allocs := testing.AllocsPerRun(20, func() { _ = s.Advance(100) })
		if routed := s.totals.Arrivals - before; routed < 300 {
			t.Fatalf("%s: only %d requests routed", p.Name, routed)
		}
		if allocs != 0 {
			t.Errorf("%s: %v allocations per 100 ms of simulated time, want 0", p.Name, allocs)
		}
	}
}
