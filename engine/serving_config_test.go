package engine

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// servingScenario is three reference-speed replicas with the serving token
// model and DefaultServing.
func servingScenario(rate float64) Scenario {
	s := NewScenario("serving")
	s.Rate = rate
	s.Speeds = []float64{11, 11, 11}
	s.Demand.Tokens = ServingTokenModel()
	c := DefaultServing()
	s.Serving = &c
	return s
}

// Impossible serving configurations are refused with the field and what is
// allowed, never run.
func TestServingBadInput(t *testing.T) {
	cases := []struct {
		name, field, allowed string
		change               func(s *Scenario)
	}{
		{"batch size 0", "serving.max_batch", "from 1 to 4096", func(s *Scenario) { s.Serving.MaxBatch = 0 }},
		{"KV smaller than a request", "serving.kv_blocks", "from 576 to", func(s *Scenario) { s.Serving.KVBlocks = 100 }},
		{"KV smaller than a prompt", "serving.kv_blocks", "the longest request (a 8192-token prompt and 1024 output tokens) must fit alone", func(s *Scenario) { s.Serving.KVBlocks = 500 }},
		{"refresh negative", "serving.signals.refresh_ms", "a multiple of 0.5 ms", func(s *Scenario) { s.Serving.Signals.RefreshMs = -200 }},
		{"refresh off the grid", "serving.signals.refresh_ms", "a multiple of 0.5 ms", func(s *Scenario) { s.Serving.Signals.RefreshMs = 0.3 }},
		{"refresh NaN", "serving.signals.refresh_ms", "0 (always fresh)", func(s *Scenario) { s.Serving.Signals.RefreshMs = math.NaN() }},
		{"probes beyond the replicas", "serving.signals.probes", "0 (no probes) to 3, the number of replicas", func(s *Scenario) { s.Serving.Signals.Probes = 4 }},
		{"probe delay off the grid", "serving.signals.probe_delay_ms", "a multiple of 0.5 ms", func(s *Scenario) { s.Serving.Signals.Probes, s.Serving.Signals.ProbeDelayMs = 2, 0.1 }},
		{"probe delay without probes", "serving.signals.probe_delay_ms", "0 without probes", func(s *Scenario) { s.Serving.Signals.ProbeDelayMs = 1 }},
		{"unknown prefix index", "serving.signals.prefix_index", "approximate or precise", func(s *Scenario) { s.Serving.Signals.PrefixIndex = "exact" }},
		{"budget below a prompt", "serving.token_budget", "at least the longest prompt, 8192 tokens, without chunked_prefill", func(s *Scenario) { s.Serving.ChunkedPrefill = false }},
		{"budget below the batch", "serving.token_budget", "max_batch + 1 = 33", func(s *Scenario) { s.Serving.TokenBudget = 32 }},
		{"overhead above a decode", "serving.iteration_overhead_ms", "[0, tokens.decode_ms_per_token = 16.25]", func(s *Scenario) { s.Serving.OverheadMs = 17 }},
		{"unknown queue", "serving.queue", "fifo or priority", func(s *Scenario) { s.Serving.Queue = "lifo" }},
		{"block size", "serving.block_tokens", "0 (16) or an integer from 1 to 1024", func(s *Scenario) { s.Serving.BlockTokens = -1 }},
		{"prefix cache", "serving.prefix_cache_blocks", "0 (no prefix cache)", func(s *Scenario) { s.Serving.PrefixCacheBlocks = -5 }},
		{"groups without a system prompt", "serving.workload.system_prompt_tokens", "with prefix groups", func(s *Scenario) { s.Serving.Workload.PrefixGroups = 10 }},
		{"a system prompt without groups", "serving.workload.system_prompt_tokens", "0 without", func(s *Scenario) { s.Serving.Workload.SystemPromptTokens = 100 }},
		{"zipf NaN", "serving.workload.zipf_s", "[0, 10]", func(s *Scenario) { s.Serving.Workload.ZipfS = math.NaN() }},
		{"sessions without a context bound", "serving.workload.mean_turns", "[1, 1e6]", func(s *Scenario) { s.Serving.Workload.Sessions = 10 }},
		{"context below a first turn", "serving.workload.max_context_tokens", "from 8192 (a first turn", func(s *Scenario) {
			s.Serving.Workload.Sessions, s.Serving.Workload.MeanTurns, s.Serving.Workload.MaxContextTokens = 10, 3, 4000
		}},
		{"shares above one", "serving.workload.sheddable_share", "at most 1 − critical_share = 0.5", func(s *Scenario) {
			s.Serving.Workload.CriticalShare, s.Serving.Workload.SheddableShare = 0.5, 0.6
		}},
		{"mix shares", "serving.workload.mix", "shares summing to 1", func(s *Scenario) { s.Serving.Workload.Mix = []RequestClass{PromptHeavy(0.5), DecodeHeavy(0.3)} }},
		{"a class without output", "serving.workload.mix[0].output.min", "at least 1", func(s *Scenario) {
			c := DecodeHeavy(1)
			c.Output.Min = 0
			s.Serving.Workload.Mix = []RequestClass{c}
		}},
		{"a hot prefix without groups", "serving.workload.hot_prefix", "none without prefix groups", func(s *Scenario) {
			s.Serving.Workload.HotPrefix = HotPrefix{FromMs: 1000, ToMs: 2000, Share: 0.5}
		}},
		{"a hot prefix window reversed", "serving.workload.hot_prefix.to_ms", "a time after from_ms = 2000", func(s *Scenario) {
			s.Serving.Workload = ServingWorkload{PrefixGroups: 4, SystemPromptTokens: 100, HotPrefix: HotPrefix{FromMs: 2000, ToMs: 1000, Share: 0.5}}
		}},
		{"a hot prefix share above one", "serving.workload.hot_prefix.share", "[0, 1]", func(s *Scenario) {
			s.Serving.Workload = ServingWorkload{PrefixGroups: 4, SystemPromptTokens: 100, HotPrefix: HotPrefix{FromMs: 0, ToMs: 1000, Share: 1.5}}
		}},
		{"requests without tokens", "serving", "token demand", func(s *Scenario) { s.Demand.Kind = ExponentialDemand; s.Demand.Mean = 10 }},
		{"requests without output", "tokens.output.min", "at least 1", func(s *Scenario) { s.Demand.Tokens.Output.Min = 0 }},
		{"a trace prefix longer than its prompt", "trace[1].prefix_tokens", "0 to prompt_tokens = 50", func(s *Scenario) {
			s.Arrivals = Replay
			s.Trace = []TraceRecord{{At: 1, Prompt: 100, Output: 5}, {At: 2, Prompt: 50, Output: 5, PrefixGroup: 1, PrefixTokens: 60}}
		}},
		{"generated attributes with a trace", "serving.workload", "none with trace arrivals", func(s *Scenario) {
			s.Arrivals = Replay
			s.Trace = []TraceRecord{{At: 1, Prompt: 100, Output: 5}}
			s.Serving.Workload.CriticalShare = 0.2
		}},
	}
	for _, c := range cases {
		s := servingScenario(10)
		cfg := *s.Serving
		s.Serving = &cfg
		c.change(&s)
		err := s.Validate(DefaultWarmup + DefaultMeasure)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(fe.Allowed, c.allowed) {
			t.Errorf("%s: got %v, want a FieldError for %s allowing %q", c.name, err, c.field, c.allowed)
		}
	}
	if s := servingScenario(10); s.Validate(DefaultWarmup+DefaultMeasure) != nil {
		t.Fatalf("the default serving scenario is invalid: %v", s.Validate(DefaultWarmup+DefaultMeasure))
	}
}

// A trace's optional columns parse, and bad values are refused at their
// line and column.
func TestTraceServingColumns(t *testing.T) {
	good := "arrival_ms,prompt_tokens,output_tokens,prefix_group,prefix_tokens,session,priority\n" +
		"0.5,900,20,3,512,7,critical\n1.5,100,10,,,,\n2,1200,30,3,512,7,sheddable\n"
	recs, err := ReadTrace(strings.NewReader(good), "good.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []TraceRecord{
		{At: 0.5, Prompt: 900, Output: 20, PrefixGroup: 3, PrefixTokens: 512, Session: 7, Priority: Critical},
		{At: 1.5, Prompt: 100, Output: 10},
		{At: 2, Prompt: 1200, Output: 30, PrefixGroup: 3, PrefixTokens: 512, Session: 7, Priority: Sheddable},
	}
	for i := range want {
		if recs[i] != want[i] {
			t.Errorf("record %d = %+v, want %+v", i, recs[i], want[i])
		}
	}
	head := "arrival_ms,prompt_tokens,output_tokens,prefix_group,prefix_tokens,priority\n"
	bad := []struct{ in, want string }{
		{"arrival_ms,prompt_tokens,output_tokens,tenant\n1,2,3,4\n", `t.csv:1:40: unknown column "tenant"`},
		{"arrival_ms,prompt_tokens,output_tokens,session,session\n", `t.csv:1:48: column "session" given twice`},
		{head + "1,100,5,2,150,\n", "t.csv:2:11: prefix_tokens 150 is longer than the prompt's 100 tokens"},
		{head + "1,100,5,x,50,\n", `t.csv:2:9: prefix_group "x"`},
		{head + "1,100,5,2,50,urgent\n", `t.csv:2:14: priority "urgent" (want critical, standard, sheddable or empty)`},
		{head + "1,100,5,0,50,\n", "t.csv:2:11: prefix_tokens 50 without a prefix_group"},
		{head + "1,100,5,2,0,\n", "t.csv:2:11: prefix_tokens 0 with prefix_group 2"},
		{"arrival_ms,prompt_tokens,output_tokens,prefix_group\n1,100,5,2\n", "t.csv:2:9: prefix_group 2 without a prefix_tokens column"},
		{head + "1,100,5,2\n", "t.csv:2: 4 fields (want 6, as the header names)"},
	}
	for _, b := range bad {
		if _, err := ReadTrace(strings.NewReader(b.in), "t.csv"); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ReadTrace(%q) error %v, want %q", b.in, err, b.want)
		}
	}
}

// The serving attributes come from their own stream, five draws a request
// whatever is configured: adding prefixes, sessions or priorities leaves
// every arrival time and jitter of the seed as it was, and two policies
// (two runs) of one configuration see the same requests.
func TestServingDrawsKeepTheWorkload(t *testing.T) {
	plain := servingScenario(10)
	rich := servingScenario(10)
	w := ServingWorkload{PrefixGroups: 50, ZipfS: 1.1, SystemPromptTokens: 700, Sessions: 30, MeanTurns: 4,
		MaxContextTokens: 16000, CriticalShare: 0.2, SheddableShare: 0.3}
	cfg := *rich.Serving
	cfg.Workload = w
	rich.Serving = &cfg
	a, b, c := newWorkload(&plain, 5, nil), newWorkload(&rich, 5, nil), newWorkload(&rich, 5, nil)
	for i := range 5000 {
		x, y, z := a.pop(), b.pop(), c.pop()
		if x.arrival != y.arrival || x.jitter != y.jitter || x.output != y.output {
			t.Fatalf("request %d: the serving attributes moved the seed's draws: %+v vs %+v", i, x, y)
		}
		if y != z {
			t.Fatalf("request %d: the same seed gave %+v and %+v", i, y, z)
		}
	}
	if b.hash == a.hash {
		t.Error("the fingerprint ignores the serving attributes")
	}
}

// Multi-turn sessions extend themselves: a turn's prompt starts with the
// whole previous turn (its prompt and reply), within the context bound,
// and its carried tokens say so; groups follow a Zipf law and priorities
// their shares.
func TestServingWorkloadShapes(t *testing.T) {
	s := servingScenario(10)
	cfg := *s.Serving
	cfg.Workload = ServingWorkload{PrefixGroups: 20, ZipfS: 1, SystemPromptTokens: 500, Sessions: 40, MeanTurns: 5,
		MaxContextTokens: 20000, CriticalShare: 0.1, SheddableShare: 0.25}
	s.Serving = &cfg
	w := newWorkload(&s, 3, nil)
	last := map[int32]request{}
	turns, continued, n := map[int32]int{}, 0, 200000
	groups := make([]int, 21)
	var critical, sheddable int
	for range n {
		r := w.pop()
		if r.session == 0 || r.group == 0 || r.system != 500 {
			t.Fatalf("request %+v lacks a session or its group's system prompt", r)
		}
		if prev, ok := last[r.session]; ok {
			continued++
			if r.carried != prev.prompt+prev.output-500 || r.group != prev.group || r.prompt <= prev.prompt+prev.output {
				t.Fatalf("turn %+v does not extend the previous turn %+v", r, prev)
			}
		} else if r.carried != 0 {
			t.Fatalf("a first turn carries %d tokens", r.carried)
		}
		if r.prompt > 20000 {
			t.Fatalf("a prompt of %d tokens exceeds the context bound", r.prompt)
		}
		last[r.session] = r
		turns[r.session]++
		if r.carried == 0 {
			groups[r.group]++
		}
		switch r.priority {
		case 1:
			critical++
		case -1:
			sheddable++
		}
	}
	meanTurns := float64(n) / float64(len(turns))
	if meanTurns < 3.5 || meanTurns > 5 { // geometric of mean 5, cut by the context bound
		t.Errorf("%.2f turns per session, want a little under 5", meanTurns)
	}
	if r := float64(groups[1]) / float64(groups[2]); math.Abs(r-2) > 0.15 {
		t.Errorf("group 1 started %d sessions, group 2 %d: ratio %.2f, Zipf(1) says 2", groups[1], groups[2], r)
	}
	if c, sh := float64(critical)/float64(n), float64(sheddable)/float64(n); math.Abs(c-0.1) > 0.005 || math.Abs(sh-0.25) > 0.005 {
		t.Errorf("priorities %.3f critical, %.3f sheddable; want 0.1 and 0.25", c, sh)
	}
	t.Logf("%d sessions, %.2f turns each; %d turns continued one", len(turns), meanTurns, continued)
}

// A hot prefix takes its share of the arrivals in its window, none outside
// it, and leaves the Zipf law of the others as it was (the draw is split,
// not added, so a seed's other attributes do not move).
func TestHotPrefix(t *testing.T) {
	s := servingScenario(50)
	cfg := *s.Serving
	cfg.Workload = ServingWorkload{PrefixGroups: 10, ZipfS: 1, SystemPromptTokens: 200, HotPrefix: HotPrefix{FromMs: 100000, ToMs: 300000, Share: 0.6}}
	s.Serving = &cfg
	w := newWorkload(&s, 5, nil)
	var in, hotIn, out, hotOut, one, two int
	for {
		r := w.pop()
		if r.arrival >= 400000 {
			break
		}
		inside := r.arrival >= 100000 && r.arrival < 300000
		hot := r.group == 11
		switch {
		case inside:
			in++
			if hot {
				hotIn++
			}
		default:
			out++
			if hot {
				hotOut++
			}
		}
		if !hot && inside {
			switch r.group {
			case 1:
				one++
			case 2:
				two++
			}
		}
	}
	share := float64(hotIn) / float64(in)
	t.Logf("hot prefix: %d of %d arrivals in the window (%.3f), %d of %d outside; groups 1 and 2 in the window %d, %d", hotIn, in, share, hotOut, out, one, two)
	if hotOut != 0 || math.Abs(share-0.6) > 0.015 {
		t.Errorf("hot share %.3f in the window (want 0.6), %d hot requests outside it", share, hotOut)
	}
	if r := float64(one) / float64(two); math.Abs(r-2) > 0.2 {
		t.Errorf("in the window, group 1 : group 2 = %.2f, Zipf(1) says 2", r)
	}
}
