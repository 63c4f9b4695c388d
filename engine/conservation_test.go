package engine

import (
	"context"
	"encoding/binary"
	"math"
	"testing"
)

// Re-routing a failed replica's queue can shed: requests lost that way are
// counted once, as shed cohort requests.
func TestFailureReroutingLossesAreShed(t *testing.T) {
	scn := NewScenario("all-fail")
	scn.Rate = 300
	scn.QueueCap = 5
	scn.Events = []Event{
		{At: 4000, Kind: EventFail, Replica: 1}, {At: 4000, Kind: EventFail, Replica: 2}, {At: 4000, Kind: EventFail, Replica: 3},
		{At: 8000, Kind: EventRecover, Replica: 2},
	}
	var rerouted, rerouteShed int
	r := mustRun(t, RunSpec{Scenario: scn, Policy: LeastQueue(), Seed: 3, OnDecision: func(d Decision) {
		if d.Rerouted {
			rerouted++
			if d.Replica == 0 {
				rerouteShed++
			}
		}
	}})
	checkConservation(t, r)
	if rerouted == 0 || rerouteShed == 0 {
		t.Fatalf("no re-routing losses exercised (rerouted %d, shed while re-routing %d)", rerouted, rerouteShed)
	}
	t.Logf("re-routed %d, shed while re-routing %d, total shed %d of %d", rerouted, rerouteShed, r.Shed, r.Cohort)
}

// fuzzScenario builds a scenario from fuzz bytes; every field can be bad.
func fuzzScenario(data []byte) (Scenario, Protocol, uint64, int) {
	next := func() uint64 {
		if len(data) < 8 {
			data = append(data, make([]byte, 8)...)
		}
		v := binary.LittleEndian.Uint64(data)
		data = data[8:]
		return v
	}
	f := func(lo, hi float64) float64 {
		v := next()
		if v%17 == 0 {
			return math.Float64frombits(v) // any bit pattern, NaN and Inf included
		}
		return lo + (hi-lo)*float64(v>>11)/(1<<53)
	}
	s := NewScenario("fuzz")
	s.Rate = f(-10, 600)
	s.Speeds = make([]float64, int(next()%7))
	for i := range s.Speeds {
		s.Speeds[i] = f(-1, 40)
	}
	s.QueueCap = int(next()%12) - 1
	s.Jitter = f(-0.1, 1.2)
	s.Demand.Kind = []DemandKind{TokenDemand, ExponentialDemand, FixedDemand, LogNormalDemand, "bogus"}[next()%5]
	s.Demand.Mean = f(-1, 30)
	s.Demand.CV = f(-0.5, 3)
	kinds := []EventKind{EventSetRate, EventScaleRate, EventSlow, EventRestore, EventFail, EventRecover, "bogus"}
	for i := 0; i < int(next()%6); i++ {
		s.Events = append(s.Events, Event{At: f(-100, 6000), Kind: kinds[next()%uint64(len(kinds))], Replica: int(next()%8) - 1, Value: f(-1, 8)})
	}
	p := Protocol{Warmup: float64(next()%4000) / 2, Measure: float64(next()%6000)/2 - 1, SLO: f(-5, 100)}
	return s, p, next() % 5, int(next() % uint64(len(allPolicies())))
}

// FuzzRun: no configuration panics the engine; invalid ones are rejected
// with an error; valid ones conserve requests. Seeds are kept under
// testdata/fuzz/FuzzRun.
func FuzzRun(f *testing.F) {
	f.Add([]byte("steady"))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 200, 201, 202, 203, 204, 205, 206, 207})
	f.Fuzz(func(t *testing.T, data []byte) {
		scn, proto, seed, pi := fuzzScenario(data)
		r, err := Run(context.Background(), RunSpec{Scenario: scn, Policy: allPolicies()[pi], Seed: seed, Protocol: proto})
		if err != nil {
			if r != nil {
				t.Fatalf("error %v with a result", err)
			}
			return
		}
		checkConservation(t, r)
	})
}
