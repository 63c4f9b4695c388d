package engine

// servingScenarios are the built-in scenarios of the serving model (opt-in:
// the specification's four scenarios and its study name theirs). Each runs
// within the specification's protocol (3 s warm-up, 12 s measured), so its
// requests are short chat turns; its rate is near, and for the herding
// scenario above, the cluster's capacity at the default heterogeneity.
func servingScenarios() []scenarioDef {
	return []scenarioDef{
		{name: "chat", lab: "Chat", about: "chat turns behind 32 shared system prompts of 1,000 tokens (Zipf), prefix caching", rate: 24,
			serving: chatServing},
		{name: "sessions", lab: "Sessions", about: "multi-turn conversations: each turn's prompt extends the last turn's", rate: 18,
			serving: func(s *Scenario) {
				chatServing(s)
				w := &s.Serving.Workload
				w.PrefixGroups, w.SystemPromptTokens = 8, 400
				w.Sessions, w.MeanTurns, w.MaxContextTokens = 300, 4, 12000
			}},
		{name: "long-context", lab: "LongContext", about: "chat with a tenth of long documents (prompts of 4k–32k tokens) and a tenth of long replies", rate: 9,
			serving: func(s *Scenario) {
				chatServing(s)
				s.Serving.Workload.Mix = []RequestClass{
					{Name: "chat", Share: 0.8, Prompt: s.Demand.Tokens.Prompt, Output: s.Demand.Tokens.Output},
					{Name: "long-context", Share: 0.1, Prompt: TokenCount{Median: 10000, Sigma: 0.5, Min: 4096, Max: 32000}, Output: TokenCount{Median: 80, Sigma: 0.5, Min: 8, Max: 400}},
					{Name: "long-reply", Share: 0.1, Prompt: TokenCount{Median: 200, Sigma: 0.6, Min: 16, Max: 1024}, Output: TokenCount{Median: 300, Sigma: 0.3, Min: 64, Max: 600}},
				}
			}},
		{name: "kv-pressure", lab: "KVPressure", about: "long replies into KV caches of 256 blocks: admissions wait and requests are preempted", rate: 4,
			serving: func(s *Scenario) {
				chatServing(s)
				s.Demand.Tokens.Prompt = TokenCount{Median: 200, Sigma: 0.6, Min: 16, Max: 1024}
				s.Demand.Tokens.Output = TokenCount{Median: 250, Sigma: 0.4, Min: 32, Max: 600}
				s.Serving.Workload.SystemPromptTokens = 200
				s.Serving.KVBlocks = 256
			}},
		{name: "hot-prefix", lab: "HotPrefix", about: "chat; traffic ×2 from 6 s to 9 s, 60 % of it on a new system prompt",
			rate: 20, serving: func(s *Scenario) {
				chatServing(s)
				s.Serving.Workload.HotPrefix = HotPrefix{FromMs: 6000, ToMs: 9000, Share: 0.6}
			}, events: []Event{{At: 6000, Kind: EventScaleRate, Value: 2}, {At: 9000, Kind: EventScaleRate, Value: 1}}},
		{name: "herding", lab: "Herding", about: "chat near capacity with signals scraped every 200 ms: stale queues herd", rate: 30,
			serving: func(s *Scenario) {
				chatServing(s)
				s.Serving.Signals.RefreshMs = 200
			}},
		{name: "prefix-failure", lab: "PrefixFailure", about: "chat; replica 2 fails at 6 s and recovers at 10 s with an empty prefix cache", rate: 20,
			serving: chatServing, events: []Event{{At: 6000, Kind: EventFail, Replica: 2}, {At: 10000, Kind: EventRecover, Replica: 2}}},
	}
}

// chatServing makes s a serving scenario of chat turns: the serving token
// model's coefficients with shorter prompts and replies (a turn takes
// about 1.5 s), DefaultServing, and 32 system prompts of 1,000 tokens
// drawn from a Zipf law of exponent 1.
func chatServing(s *Scenario) {
	s.Demand.Tokens = ServingTokenModel()
	s.Demand.Tokens.Prompt = TokenCount{Median: 300, Sigma: 0.8, Min: 16, Max: 4096}
	s.Demand.Tokens.Output = TokenCount{Median: 60, Sigma: 0.6, Min: 4, Max: 512}
	c := DefaultServing()
	c.Workload = ServingWorkload{PrefixGroups: 32, ZipfS: 1, SystemPromptTokens: 1000}
	s.Serving = &c
}
