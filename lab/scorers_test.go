package lab

import (
	"bytes"
	"context"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// chat is a small serving scenario with shared system prompts: three
// replicas, eight system prompts of 512 tokens, Zipf 1.1.
func chat(t *testing.T) engine.Scenario {
	t.Helper()
	s := engine.NewScenario("chat")
	s.Rate, s.Speeds = 30, []float64{11, 11, 11}
	s.Demand.Tokens = engine.ServingTokenModel()
	c := engine.DefaultServing()
	c.Workload = engine.ServingWorkload{PrefixGroups: 8, ZipfS: 1.1, SystemPromptTokens: 512}
	s.Serving = &c
	return s
}

func compareJSON(t *testing.T, scn engine.Scenario, specs ...PolicySpec) []byte {
	t.Helper()
	c, err := experiment.Compare(context.Background(), experiment.Experiment{Scenario: scn, Policies: specs, Seeds: experiment.DefaultSeeds(3),
		Protocol: engine.Protocol{Warmup: 1000, Measure: 4000, SLO: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Composed with llm-d's weights, the scorers are the built-in llm-d profile:
// the same comparison, byte for byte, once named alike; another weight
// changes it.
func TestScorersComposeLLMD(t *testing.T) {
	composed := Scorers(QueueScore(2), KVScore(2), PrefixScore(3))
	if composed.Name != "scorers(queue=2,kv=2,prefix=3)" || composed.Kind != engine.ScorerPolicy {
		t.Errorf("composed %q of kind %q", composed.Name, composed.Kind)
	}
	composed.Name = "llm-d"
	want := compareJSON(t, chat(t), LLMD())
	if got := compareJSON(t, chat(t), composed); !bytes.Equal(got, want) {
		t.Errorf("composed profile differs from llm-d:\n%s\nwant\n%s", got, want)
	}
	other := Scorers(QueueScore(2), KVScore(2), PrefixScore(0.5))
	other.Name = "llm-d"
	if bytes.Equal(compareJSON(t, chat(t), other), want) {
		t.Error("a prefix weight of 0.5 gave llm-d's results: the weights are not read")
	}
}

// A scorer written as a function joins the built-ins; one that scores the
// replica's own id is a preference for the highest id when nothing else
// differs.
func TestScoreFunction(t *testing.T) {
	highest := Score("highest", 1, func(v *View, r Replica) float64 { return float64(r.ID) / float64(len(v.Replicas)) })
	p, err := Scorers(QueueScore(2), highest).New(engine.PolicyEnv{Replicas: 3, Rand: engine.NewRand(1, 2)})
	if err != nil {
		t.Fatal(err)
	}
	v := &View{Replicas: make([]Replica, 3)}
	for i := range 3 {
		v.Replicas[i] = Replica{ID: i + 1, Healthy: true}
	}
	v.Eligible = v.Replicas
	// queue scores all 1 (equal queues): 2 + 1/3, 2 + 2/3, 2 + 1 → 3
	if id, err := p.Pick(v); err != nil || id != 3 {
		t.Errorf("picked %d (%v), want 3", id, err)
	}
	// replica 3 waits 2, the others 0: queue 1, 1, 0 → 2.33, 2.67, 1 → 2
	v.Replicas[2].Waiting = 2
	if id, err := p.Pick(v); err != nil || id != 2 {
		t.Errorf("picked %d (%v), want 2", id, err)
	}
}
