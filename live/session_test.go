package live

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routelab/routelab/engine"
)

func straggler(t *testing.T) engine.Scenario {
	t.Helper()
	s, err := engine.BuiltinScenario("straggler", 150, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A live session steered by a scripted sequence of controls at fixed
// simulated times equals the same scenario timeline run headless, byte for
// byte; and whatever it did, its recorded Scenario and Policy replay it.
func TestScriptedSessionEqualsItsTimeline(t *testing.T) {
	scn := straggler(t)
	proto := engine.DefaultProtocol()
	// Paused, so that no time passes before the script is in place.
	sess, err := Start(context.Background(), Options{Scenario: scn, Policy: engine.LatencyAware(engine.DefaultAlpha), Seed: 7, Speed: Fastest, Measure: &proto, Paused: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	script := []struct {
		at float64
		c  Control
	}{
		{4000, SetRate(220)},
		{6000, Fail(2)},
		{7500, Burst(1.5, 1000)},
		{9000, Recover(2)},
		{11000, Use(engine.LeastQueue())},
		{12500, Slow(3, 4)},
	}
	for _, s := range script {
		if err := sess.At(s.at, s.c); err != nil {
			t.Fatal(err)
		}
	}
	sess.Resume()
	if err := sess.Wait(); err != nil {
		t.Fatal(err)
	}
	live, err := sess.Result()
	if err != nil {
		t.Fatal(err)
	}

	// The same timeline, written as a scenario and a switching policy.
	timeline := scn
	timeline.Events = append(append([]engine.Event(nil), scn.Events...),
		engine.Event{At: 4000, Kind: engine.EventSetRate, Value: 220},
		engine.Event{At: 6000, Kind: engine.EventFail, Replica: 2},
		engine.Event{At: 7500, Kind: engine.EventScaleRate, Value: 1.5},
		engine.Event{At: 8500, Kind: engine.EventScaleRate, Value: 1},
		engine.Event{At: 9000, Kind: engine.EventRecover, Replica: 2},
		engine.Event{At: 12500, Kind: engine.EventSlow, Replica: 3, Value: 4},
	)
	policy := engine.Switching(engine.LatencyAware(engine.DefaultAlpha), []engine.PolicySwitch{{At: 11000, Policy: engine.LeastQueue()}})
	headless := run(t, timeline, policy, 7, proto)
	replayed := run(t, sess.Scenario(), sess.Policy(), 7, proto)
	for name, r := range map[string]*engine.RunResult{"the scripted timeline": headless, "the recorded session": replayed} {
		if a, b := measured(t, live), measured(t, r); a != b {
			t.Errorf("the live session and %s differ:\nlive: %s\nheadless: %s", name, a, b)
		}
	}
}

func run(t *testing.T, scn engine.Scenario, p engine.PolicySpec, seed uint64, proto engine.Protocol) *engine.RunResult {
	t.Helper()
	r, err := engine.Run(context.Background(), engine.RunSpec{Scenario: scn, Policy: p, Seed: seed, Protocol: proto})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// measured is a run's figures without the policy's name (a switching policy
// names its switches).
func measured(t *testing.T, r *engine.RunResult) string {
	t.Helper()
	sum := r.RunSummary
	sum.Policy, sum.Scenario = "", ""
	b, err := json.Marshal(struct {
		S engine.RunSummary
		L engine.LatencyStats
		R []engine.ReplicaResult
		X []float64
	}{sum, r.Latency, r.PerReplica, r.Latencies})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Controls given while the session runs in real time are recorded at the
// simulated time they took effect, and the recording replays exactly.
func TestLiveControlsReplay(t *testing.T) {
	scn := straggler(t)
	proto := engine.Protocol{Warmup: 200, Measure: 800, SLO: 50}
	scn.Events = nil
	sess, err := Start(context.Background(), Options{Scenario: scn, Policy: engine.Adaptive(engine.DefaultAdaptiveParams()), Seed: 3, Speed: 2000, FrameEvery: 5 * time.Millisecond, Measure: &proto}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Control{SetRate(260), Slow(1, 6), Use(engine.RoundRobin()), Fail(3), Restore(1)} {
		time.Sleep(60 * time.Millisecond)
		if err := sess.Do(c); err != nil && !strings.Contains(err.Error(), "ended") {
			t.Fatal(err)
		}
	}
	if err := sess.Wait(); err != nil {
		t.Fatal(err)
	}
	live, err := sess.Result()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := measured(t, live), measured(t, run(t, sess.Scenario(), sess.Policy(), 3, proto)); a != b {
		t.Errorf("the live session and its recording differ:\nlive: %s\nreplay: %s", a, b)
	}
	if n := len(sess.Scenario().Events); n == 0 {
		t.Error("no control was recorded")
	}
}

func TestStopLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	var frames int
	var mu sync.Mutex
	sess, err := Start(context.Background(), Options{Scenario: straggler(t), Policy: engine.LeastQueue(), Seed: 1, FrameEvery: 10 * time.Millisecond},
		func(Frame) { mu.Lock(); frames++; mu.Unlock() })
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(80 * time.Millisecond)
	sess.Stop()
	if err := sess.Do(SetRate(10)); err == nil {
		t.Error("a control after Stop was accepted")
	}
	if !sess.Frame().Done {
		t.Error("the last frame is not marked done")
	}
	mu.Lock()
	if frames < 2 {
		t.Errorf("%d frames in 80 ms at one per 10 ms", frames)
	}
	mu.Unlock()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Stop, %d before", n, before)
	}
}

// Cancelling the context (an interrupted cell, a closed page) ends the
// session as Stop does.
func TestContextEndsSession(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sess, err := Start(ctx, Options{Scenario: straggler(t), Policy: engine.LeastQueue(), Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := sess.Wait(); err != nil {
		t.Errorf("a cancelled session ended with %v, want nil", err)
	}
}

func TestPauseStopsSimulatedTime(t *testing.T) {
	sess, err := Start(context.Background(), Options{Scenario: straggler(t), Policy: engine.LeastQueue(), Seed: 1, Speed: 1000, FrameEvery: 5 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Stop()
	time.Sleep(50 * time.Millisecond)
	sess.Pause()
	time.Sleep(20 * time.Millisecond)
	at := sess.Now()
	time.Sleep(100 * time.Millisecond)
	if now := sess.Now(); now != at {
		t.Errorf("paused, simulated time went from %v to %v ms", at, now)
	}
	if !sess.Frame().Paused {
		t.Error("the frame does not say paused")
	}
	sess.Resume()
	time.Sleep(100 * time.Millisecond)
	if now := sess.Now(); now <= at {
		t.Errorf("resumed, simulated time stayed at %v ms", now)
	}
}

func TestFramesDescribeTheCluster(t *testing.T) {
	proto := engine.DefaultProtocol()
	sess, err := Start(context.Background(), Options{Scenario: straggler(t), Policy: engine.RoundRobin(), Seed: 2, Speed: Fastest, Until: 7000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Wait(); err != nil {
		t.Fatal(err)
	}
	f := sess.Frame()
	if !f.Done || f.Now != 7000 || len(f.Replicas) != 3 || f.P99 == nil || f.Throughput <= 0 {
		t.Fatalf("frame at the end: %+v", f)
	}
	// Round Robin keeps feeding the straggler (replica 1, ×5 from 5 s).
	r1 := f.Replicas[0]
	if r1.Slowdown != 5 || r1.Waiting == 0 || r1.Share < 0.2 {
		t.Errorf("straggler replica in the frame: %+v", r1)
	}
	var shares float64
	for _, r := range f.Replicas {
		shares += r.Share
		for i, m := range r.Requests {
			if m.Done < f.Now || (i > 0 && m.Done < r.Requests[i-1].Done) || m.OnTime != (m.Done-m.Arrival <= proto.SLO) {
				t.Errorf("replica %d request %d: %+v at %v ms", r.ID, i, m, f.Now)
			}
		}
	}
	if shares < 0.999 || shares > 1.001 {
		t.Errorf("shares sum to %v", shares)
	}
	if _, err := json.Marshal(f); err != nil {
		t.Errorf("a frame does not encode as JSON: %v", err)
	}
}

func TestBadOptionsAndControls(t *testing.T) {
	scn := straggler(t)
	for name, o := range map[string]Options{
		"no policy":           {Scenario: scn, Seed: 1},
		"negative speed":      {Scenario: scn, Policy: engine.LeastQueue(), Seed: 1, Speed: -1},
		"fastest without end": {Scenario: scn, Policy: engine.LeastQueue(), Seed: 1, Speed: Fastest},
		"seed 0":              {Scenario: scn, Policy: engine.LeastQueue()},
	} {
		if _, err := Start(context.Background(), o, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	sess, err := Start(context.Background(), Options{Scenario: scn, Policy: engine.LeastQueue(), Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Stop()
	for name, c := range map[string]Control{
		"replica 99":     Fail(99),
		"rate -1":        SetRate(-1),
		"empty":          {},
		"burst of -1 ms": Burst(2, -1),
	} {
		if err := sess.Do(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := sess.At(-5, SetRate(10)); err == nil {
		t.Error("a control in the past was accepted")
	}
}
