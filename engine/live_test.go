package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// A live session — the simulator advanced in chunks of any size while
// controls are applied — is exactly the run of its scenario with the
// controls added to the timeline: same workload fingerprint, counts,
// latencies and per-replica results. (The review of the landed engine found
// 58 of 800 such pairs different, because live controls acted after a
// boundary's completions and scheduled events before them.)
func TestLiveSessionReplaysExactly(t *testing.T) {
	trials := 800
	if testing.Short() {
		trials = 100
	}
	rng := NewRand(2026, 9)
	scenarios := ScenarioNames()
	policies := allPolicies()
	proto := DefaultProtocol()
	differ := 0
	for trial := 0; trial < trials; trial++ {
		scn := mustScenario(t, scenarios[rng.Intn(len(scenarios))], 80+float64(rng.Intn(200)), Heterogeneity([]string{"default", "high"}[rng.Intn(2)]))
		policy := policies[rng.Intn(len(policies))]
		seed := uint64(1 + rng.Intn(1000))
		live, events, switches := liveRun(t, scn, policy, seed, proto, rng, policies)
		replayed := scn
		replayed.Events = append(append([]Event(nil), scn.Events...), events...)
		want := mustRun(t, RunSpec{Scenario: replayed, Policy: Switching(policy, switches), Seed: seed, Protocol: proto})
		if a, b := resultJSON(t, live), resultJSON(t, want); a != b {
			differ++
			if differ <= 3 {
				t.Errorf("trial %d (%s, %s, seed %d, %d controls): the live run and its replay differ:\nlive:   %s\nreplay: %s", trial, scn.Name, policy.Name, seed, len(events), a, b)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d live sessions differ from their replay", differ, trials)
	}
}

// The same holds for the serving model: batching servers with prefixes,
// sessions, KV pressure, stale and probed signals, live controls and
// policy switches included.
func TestLiveServingSessionReplaysExactly(t *testing.T) {
	trials := 120
	if testing.Short() {
		trials = 20
	}
	rng := NewRand(2027, 9)
	policies := []PolicySpec{LeastQueue(), PowerOfTwo(), LeastKV(), RoundRobin(), Adaptive(DefaultAdaptiveParams())}
	proto := Protocol{Warmup: 5000, Measure: 40000, SLO: 1e5}
	for trial := 0; trial < trials; trial++ {
		scn := richServing(4 + float64(rng.Intn(8)))
		scn.Events = nil
		policy := policies[rng.Intn(len(policies))]
		seed := uint64(1 + rng.Intn(1000))
		live, events, switches := liveRun(t, scn, policy, seed, proto, rng, policies)
		replayed := scn
		replayed.Events = events
		want := mustRun(t, RunSpec{Scenario: replayed, Policy: Switching(policy, switches), Seed: seed, Protocol: proto})
		a, b := resultJSON(t, live)+fmt.Sprintf("%+v", *live.Serving), resultJSON(t, want)+fmt.Sprintf("%+v", *want.Serving)
		if a != b {
			t.Fatalf("trial %d (%s, seed %d, %d controls): the live serving run and its replay differ:\nlive:   %.600s\nreplay: %.600s", trial, policy.Name, seed, len(events), a, b)
		}
	}
}

// liveRun advances a simulator to the protocol's horizon in random chunks,
// applying random controls between them — events now, events scheduled for
// later (a burst's end), switches of policy — and returns its result and
// the controls as they took effect.
func liveRun(t *testing.T, scn Scenario, policy PolicySpec, seed uint64, proto Protocol, rng *Rand, policies []PolicySpec) (*RunResult, []Event, []PolicySwitch) {
	t.Helper()
	sim, err := NewSimulator(scn, policy, SimOptions{Seed: seed, Measure: &proto})
	if err != nil {
		t.Fatal(err)
	}
	horizon := proto.Horizon()
	for sim.Now() < horizon-50 {
		if err := sim.Advance(rng.Float64() * 40); err != nil {
			t.Fatal(err)
		}
		var err error
		switch rng.Intn(8) {
		case 0, 1:
			err = sim.Apply(randomControl(rng, scn.Replicas()))
		case 2:
			e := randomControl(rng, scn.Replicas())
			e.At = min(sim.Now()+rng.Float64()*2000, horizon)
			err = sim.Schedule(e)
		case 3:
			err = sim.Use(policies[rng.Intn(len(policies))])
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := sim.runUntil(context.Background(), ceilStep(horizon)); err != nil {
		t.Fatal(err)
	}
	return sim.result(RunSpec{Policy: policy, Seed: seed, Protocol: proto}), sim.LiveEvents(), sim.Switches()
}

func randomControl(rng *Rand, replicas int) Event {
	id := 1 + rng.Intn(replicas)
	switch rng.Intn(6) {
	case 0:
		return Event{Kind: EventSetRate, Value: 50 + float64(rng.Intn(300))}
	case 1:
		return Event{Kind: EventScaleRate, Value: 0.5 + rng.Float64()*2}
	case 2:
		return Event{Kind: EventSlow, Replica: id, Value: 1 + float64(rng.Intn(8))}
	case 3:
		return Event{Kind: EventRestore, Replica: id}
	case 4:
		return Event{Kind: EventFail, Replica: id}
	}
	return Event{Kind: EventRecover, Replica: id}
}

// resultJSON is what a run measured (not the name it gives its policy:
// a replayed switching policy names its switches). The latency statistics
// are written with %#v, as JSON has no NaN for a run that completed no
// cohort request (a serving scenario overloaded and failing).
func resultJSON(t *testing.T, r *RunResult) string {
	t.Helper()
	sum := r.RunSummary
	sum.Policy = ""
	b, err := json.Marshal(struct {
		Summary   RunSummary
		Latency   string
		Replicas  []ReplicaResult
		Latencies []float64
	}{sum, fmt.Sprintf("%#v", r.Latency), r.PerReplica, r.Latencies})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
