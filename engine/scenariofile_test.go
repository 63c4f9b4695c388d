package engine

import (
	"strings"
	"testing"
)

// A recorded session written as a scenario file and read back replays to
// the counts it recorded: the file holds everything a replay needs.
func TestScenarioFileReplaysItsSession(t *testing.T) {
	scn := mustScenario(t, "straggler", 180, HighHeterogeneity)
	sim, err := NewSimulator(scn, LatencyAware(DefaultAlpha), SimOptions{Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	step := func(ms float64) {
		if err := sim.Advance(ms); err != nil {
			t.Fatal(err)
		}
	}
	step(2500.3)
	if err := sim.Apply(Event{Kind: EventFail, Replica: 2}); err != nil {
		t.Fatal(err)
	}
	step(1700)
	if err := sim.Use(LeastQueue()); err != nil {
		t.Fatal(err)
	}
	if err := sim.Apply(Event{Kind: EventSetRate, Value: 260}); err != nil {
		t.Fatal(err)
	}
	step(3333.3)
	file := recordSession(sim, scn, "latency-aware", 11)
	data, err := file.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseScenarioFile(data, "session.json")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	policy, err := back.Session.PolicySpec(PolicyByName)
	if err != nil {
		t.Fatal(err)
	}
	replay, err := NewSimulator(back.Scenario, policy, SimOptions{Seed: back.Session.Seed})
	if err != nil {
		t.Fatal(err)
	}
	if err := replay.Advance(back.Session.Until); err != nil {
		t.Fatal(err)
	}
	if got, want := countsOf(replay), back.Session.Counts; got != want {
		t.Errorf("replayed counts %+v, recorded %+v", got, want)
	}
	if again, _ := back.MarshalIndent(); string(again) != string(data) {
		t.Errorf("the file does not round-trip:\n%s\nthen\n%s", data, again)
	}
}

func recordSession(sim *Simulator, scn Scenario, policy string, seed uint64) ScenarioFile {
	scn.Events = append(append([]Event(nil), scn.Events...), sim.LiveEvents()...)
	rec := &RecordedSession{Seed: seed, Policy: policy, Until: sim.Now(), Counts: countsOf(sim)}
	for _, s := range sim.Switches() {
		rec.Switches = append(rec.Switches, NamedSwitch{At: s.At, Policy: s.Policy.Name})
	}
	return ScenarioFile{Scenario: scn, Session: rec}
}

func countsOf(sim *Simulator) SessionCounts {
	snap := sim.Snapshot()
	c := SessionCounts{Arrivals: snap.Totals.Arrivals, Completed: snap.Totals.Completed, Shed: snap.Totals.Shed}
	for _, r := range snap.Replicas {
		c.Unfinished += len(r.Requests)
	}
	return c
}

func TestScenarioFileErrors(t *testing.T) {
	good := `{"scenario": {"name": "s", "rate_rps": 100, "speeds_ms": [8, 11], "queue_cap": 50, "arrivals": "poisson",
  "demand": {"kind": "exponential", "mean_ms": 11, "tokens": {"base_ms": 0, "prefill_ms_per_token": 0, "decode_ms_per_token": 0,
  "prompt": {"median": 0, "sigma": 0, "min": 0, "max": 0}, "output": {"median": 0, "sigma": 0, "min": 0, "max": 0}}},
  "jitter": 0.1, "events": [{"at_ms": 40000, "kind": "fail", "replica": 2}]}%s}`
	if _, err := ParseScenarioFile([]byte(strings.Replace(good, "%s", "", 1)), "f.json"); err != nil {
		t.Fatalf("a good file (an event after 15 s is fine here): %v", err)
	}
	session := func(s string) string { return strings.Replace(good, "%s", `, "session": `+s, 1) }
	for _, b := range []struct{ in, want string }{
		{`{"scenario": {}, "extra": 1}`, `f.json:1:`},
		{`[1]`, "f.json:1:1: the file: got JSON array, want an object"},
		{`{"scenario": 5}`, `f.json:1:14: field "scenario": got JSON number, want an object`},
		{strings.Replace(good, "%s", "", 1) + "x", "f.json:"},
		{strings.Replace(strings.Replace(good, "%s", "", 1), `"replica": 2`, `"replica": 3`, 1), "scenario: events[0].replica: 3 is not allowed"},
		{session(`{"seed": 0, "policy": "adaptive", "until_ms": 5, "counts": {"arrivals": 0, "completed": 0, "shed": 0, "unfinished": 0}}`), "session: seed: 0 is not allowed"},
		{session(`{"seed": 1, "policy": "", "until_ms": 5, "counts": {"arrivals": 0, "completed": 0, "shed": 0, "unfinished": 0}}`), "session: policy"},
		{session(`{"seed": 1, "policy": "adaptive", "until_ms": 5.2, "counts": {"arrivals": 0, "completed": 0, "shed": 0, "unfinished": 0}}`), "until_ms: 5.2 is not allowed"},
		{session(`{"seed": 1, "policy": "adaptive", "until_ms": 5, "switches": [{"at_ms": 3, "policy": "p2c"}, {"at_ms": 1, "policy": "p2c"}], "counts": {"arrivals": 0, "completed": 0, "shed": 0, "unfinished": 0}}`), "switches[1].at_ms: 1 is not allowed"},
		{session(`{"seed": 1, "policy": "adaptive", "until_ms": 5, "counts": {"arrivals": 3, "completed": 1, "shed": 0, "unfinished": 0}}`), "arrivals = completed + shed + unfinished"},
	} {
		if _, err := ParseScenarioFile([]byte(b.in), "f.json"); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseScenarioFile(%.80s…)\nerror %v\nwant   %q", b.in, err, b.want)
		}
	}
	rec := RecordedSession{Seed: 1, Policy: "adaptive", Switches: []NamedSwitch{{At: 5, Policy: "mine"}}}
	if _, err := rec.PolicySpec(PolicyByName); err == nil || !strings.Contains(err.Error(), `switches[0]: policy: "mine" is not allowed`) {
		t.Errorf("an unknown switch policy: %v", err)
	}
}
