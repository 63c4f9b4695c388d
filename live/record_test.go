package live

import (
	"context"
	"testing"
	"time"

	"github.com/routelab/routelab/engine"
)

// A recording taken while the session runs in real time, written to JSON
// and read back, replays headless to the counts it recorded.
func TestRecordingReplays(t *testing.T) {
	scn := straggler(t)
	sess, err := Start(context.Background(), Options{Scenario: scn, Policy: engine.Adaptive(engine.DefaultAdaptiveParams()), Seed: 5, Speed: 3000, FrameEvery: 5 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Stop()
	for _, c := range []Control{SetRate(240), Fail(2), Use(engine.LeastQueue()), Burst(1.5, 800), Recover(2)} {
		time.Sleep(40 * time.Millisecond)
		if err := sess.Do(c); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(40 * time.Millisecond)
	data, err := sess.Recording().MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	file, err := engine.ParseScenarioFile(data, "recording.json")
	if err != nil {
		t.Fatal(err)
	}
	rec := file.Session
	if rec.Until == 0 || len(rec.Switches) != 1 || rec.Counts.Completed == 0 {
		t.Fatalf("recording: %s", data)
	}
	policy, err := rec.PolicySpec(engine.PolicyByName)
	if err != nil {
		t.Fatal(err)
	}
	replay, err := Start(context.Background(), Options{Scenario: file.Scenario, Policy: policy, Seed: rec.Seed, Speed: Fastest, Until: rec.Until}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := replay.Wait(); err != nil {
		t.Fatal(err)
	}
	f := replay.Frame()
	got := engine.SessionCounts{Arrivals: f.Arrivals, Completed: f.Completed, Shed: f.Shed, Unfinished: f.Unfinished}
	if got != rec.Counts {
		t.Errorf("replayed to %v ms: %+v; the session recorded %+v", rec.Until, got, rec.Counts)
	}
}
