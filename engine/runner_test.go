package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// A Runner's results are Run's, byte for byte: with prepared samplers, with
// buffers handed on from summary-only runs, in a fork, and for a scenario
// it was not given.
func TestRunnerIsRun(t *testing.T) {
	proto := Protocol{Warmup: 1000, Measure: 20000, SLO: DefaultSLO}
	chat, err := BuiltinScenario("chat", ScenarioRate("chat"), DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := BuiltinScenario("burst", ScenarioRate("burst"), DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	runner := NewRunner(chat)
	runners := []*Runner{runner, runner.Fork(), NewRunner()}
	for _, scn := range []Scenario{chat, spec} {
		for _, pol := range allPolicies()[:3] {
			for seed := uint64(1); seed <= 3; seed++ {
				for _, summaryOnly := range []bool{true, false} {
					rs := RunSpec{Scenario: scn, Policy: pol, Seed: seed, Protocol: proto, SummaryOnly: summaryOnly}
					want, err := Run(context.Background(), rs)
					if err != nil {
						t.Fatal(err)
					}
					for i, r := range runners {
						got, err := r.Run(context.Background(), rs)
						if err != nil {
							t.Fatal(err)
						}
						a, _ := json.Marshal(want)
						b, _ := json.Marshal(got)
						if !bytes.Equal(a, b) || len(want.Latencies) != len(got.Latencies) {
							t.Fatalf("%s %s seed %d (summary only %v), runner %d:\n%s by Run,\n%s by the runner", scn.Name, pol.Name, seed, summaryOnly, i, a, b)
						}
					}
				}
			}
		}
	}
	if runner.tables[chat.Demand.Tokens] == nil {
		t.Error("the runner did not prepare the samplers of the scenario it was given")
	}
}
