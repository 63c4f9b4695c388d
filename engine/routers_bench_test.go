package engine

import (
	"context"
	"testing"
)

// chatServing is a chat-like serving scenario: three replicas of the
// default batching configuration, eight shared system prompts of 512 tokens
// drawn Zipf(1.1), 8 req/s.
func chatServing() Scenario {
	s := NewScenario("chat")
	s.Rate, s.Speeds = 8, []float64{11, 11, 11}
	s.Demand.Tokens = ServingTokenModel()
	c := DefaultServing()
	c.Workload = ServingWorkload{PrefixGroups: 8, ZipfS: 1.1, SystemPromptTokens: 512}
	s.Serving = &c
	return s
}

// BenchmarkRouterComparison compares six production routers over ten seeds
// of the chat scenario at the default protocol (3 s warm-up, 12 s
// measured): one op is the whole comparison. The target is 1 s.
func BenchmarkRouterComparison(b *testing.B) {
	e := Experiment{Scenario: chatServing(), Seeds: DefaultSeeds(10),
		Policies: []PolicySpec{LLMD(), SGLang(), DynamoKV(1), VLLMDataParallel(), RayPrefixAffinity(), Prequal()}}
	var reqs int
	for b.Loop() {
		c, err := Compare(context.Background(), e)
		if err != nil {
			b.Fatal(err)
		}
		reqs = 0
		for _, p := range c.Policies {
			for _, r := range p.Runs {
				reqs += r.Cohort
			}
		}
	}
	b.ReportMetric(float64(reqs), "cohort-requests/op")
}
