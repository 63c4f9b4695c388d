package engine

import (
	"fmt"
	"math"
)

// ServingConfig is the serving model, opt-in per scenario (Scenario.Serving):
// every replica becomes a continuous-batching LLM server with a KV cache and
// a prefix cache; requests carry router-visible attributes (a shared prefix,
// a session, a priority) drawn from their own stream; and the router's
// signals can be stale or probed. A scenario without it is the
// specification's model, byte for byte.
//
// The iteration-time model is built on the scenario's token model (its
// coefficients are what a request costs alone, as in the specification) and
// one more coefficient, OverheadMs, the part of each iteration the batch
// shares; see docs/serving.md.
type ServingConfig struct {
	// MaxBatch is B, the most requests a replica runs at once (>= 1).
	MaxBatch int `json:"max_batch"`
	// TokenBudget bounds the tokens one iteration processes, prefill and
	// decode together; 0 is no bound.
	TokenBudget int `json:"token_budget,omitempty"`
	// ChunkedPrefill lets a prompt's prefill take several iterations, each
	// within the token budget; without it a prompt waits until it fits whole.
	ChunkedPrefill bool `json:"chunked_prefill,omitempty"`
	// OverheadMs is the part of every iteration the batch shares, in ms at
	// reference speed, from 0 to the token model's decode_ms_per_token: an
	// iteration of n decoding requests costs OverheadMs + n·(decode −
	// OverheadMs) instead of n·decode.
	OverheadMs float64 `json:"iteration_overhead_ms,omitempty"`
	// Queue orders the waiting requests: FIFOQueue (the default) or
	// PriorityQueue.
	Queue QueueOrder `json:"queue,omitempty"`
	// KVBlocks is each replica's KV cache in blocks of BlockTokens tokens;
	// 0 is no limit.
	KVBlocks int `json:"kv_blocks,omitempty"`
	// BlockTokens is the tokens of a KV block and of a prefix-cache block;
	// 0 means 16.
	BlockTokens int `json:"block_tokens,omitempty"`
	// PrefixCacheBlocks is the size of each replica's LRU prefix cache in
	// blocks; 0 is no prefix cache.
	PrefixCacheBlocks int `json:"prefix_cache_blocks,omitempty"`
	// Workload adds prefixes, sessions, priorities and request mixes.
	Workload ServingWorkload `json:"workload,omitzero"`
	// Signals makes the router's view stale or probed.
	Signals SignalConfig `json:"signals,omitzero"`
	// SLO sets the serving targets that attainment counts.
	SLO ServingSLO `json:"slo,omitzero"`
}

// QueueOrder is how a replica's waiting requests are ordered.
type QueueOrder string

// The queue orders.
const (
	// FIFOQueue admits in arrival order.
	FIFOQueue QueueOrder = "fifo"
	// PriorityQueue admits critical before standard before sheddable
	// requests, each class in arrival order; preemption takes the lowest
	// class first.
	PriorityQueue QueueOrder = "priority"
)

// Priority is a request's class, as llm-d's criticality.
type Priority string

// The priorities.
const (
	Critical  Priority = "critical"
	Standard  Priority = "standard"
	Sheddable Priority = "sheddable"
)

// priorityOf is a request's class from its stored rank (1 critical, 0
// standard, -1 sheddable).
func priorityOf(rank int8) Priority {
	switch rank {
	case 1:
		return Critical
	case -1:
		return Sheddable
	}
	return Standard
}

// rank is the stored form of a priority; ok is false for an unknown name.
func (p Priority) rank() (int8, bool) {
	switch p {
	case Critical:
		return 1, true
	case Standard, "":
		return 0, true
	case Sheddable:
		return -1, true
	}
	return 0, false
}

// ServingWorkload are the serving attributes of requests, drawn from a
// stream of their own (five draws per request, whatever is configured), so
// the specification's four draws per request are untouched and every
// policy sees the same requests.
type ServingWorkload struct {
	// PrefixGroups is the number of distinct system prompts; a request's
	// group is drawn from a Zipf law with exponent ZipfS (0: uniform), group
	// 1 the most popular. 0 is no shared prefix.
	PrefixGroups int     `json:"prefix_groups,omitempty"`
	ZipfS        float64 `json:"zipf_s,omitempty"`
	// SystemPromptTokens is the length of every group's system prompt,
	// which comes before the request's own prompt tokens.
	SystemPromptTokens int `json:"system_prompt_tokens,omitempty"`
	// Sessions is the number of multi-turn conversations open at once (0:
	// none). A request continues a session drawn uniformly from them, which
	// ends after a geometric number of turns of mean MeanTurns (a new one
	// takes its place); a turn's prompt is the conversation so far (system
	// prompt, earlier prompts and replies) plus new tokens, at most
	// MaxContextTokens (a turn that would not fit starts a new session).
	Sessions         int     `json:"sessions,omitempty"`
	MeanTurns        float64 `json:"mean_turns,omitempty"`
	MaxContextTokens int     `json:"max_context_tokens,omitempty"`
	// CriticalShare and SheddableShare are the fractions of critical and
	// sheddable requests; the rest are standard.
	CriticalShare  float64 `json:"critical_share,omitempty"`
	SheddableShare float64 `json:"sheddable_share,omitempty"`
	// Mix, when set, draws each request's shape from these classes (shares
	// summing to 1) instead of the token model's prompt and output counts.
	Mix []RequestClass `json:"mix,omitempty"`
	// HotPrefix sends a share of the requests arriving in a window to a
	// system prompt no request used before (group PrefixGroups + 1): a
	// sudden hot prefix, as a launch or a viral prompt gives.
	HotPrefix HotPrefix `json:"hot_prefix,omitzero"`
}

// HotPrefix is a window of arrival times [FromMs, ToMs) in which a request
// takes the hot prefix with probability Share (from the same draw as its
// group, so the draws per request stay fixed).
type HotPrefix struct {
	FromMs float64 `json:"from_ms"`
	ToMs   float64 `json:"to_ms"`
	Share  float64 `json:"share"`
}

// RequestClass is one kind of request of a mix: its share and its prompt
// (the request's own tokens, before any system prompt or earlier turns) and
// output token counts.
type RequestClass struct {
	Name   string     `json:"name"`
	Share  float64    `json:"share"`
	Prompt TokenCount `json:"prompt"`
	Output TokenCount `json:"output"`
}

// PromptHeavy is a class of long prompts and short replies (summaries,
// classification, retrieval-augmented questions), with the given share.
func PromptHeavy(share float64) RequestClass {
	return RequestClass{Name: "prompt-heavy", Share: share,
		Prompt: TokenCount{Median: 3000, Sigma: 0.5, Min: 512, Max: 8192},
		Output: TokenCount{Median: 60, Sigma: 0.5, Min: 8, Max: 256}}
}

// DecodeHeavy is a class of short prompts and long replies (generation,
// reasoning), with the given share.
func DecodeHeavy(share float64) RequestClass {
	return RequestClass{Name: "decode-heavy", Share: share,
		Prompt: TokenCount{Median: 150, Sigma: 0.6, Min: 16, Max: 1024},
		Output: TokenCount{Median: 600, Sigma: 0.4, Min: 64, Max: 1024}}
}

// PrefixIndex is where a router's prefix match comes from.
type PrefixIndex string

// The prefix indexes.
const (
	// ApproximateIndex: the router's own record of the prompts it sent to
	// each replica (an LRU of the replica cache's size), as llm-d's and
	// SGLang's approximate indexes; it misses what a replica evicted early
	// and what a reply added.
	ApproximateIndex PrefixIndex = "approximate"
	// PreciseIndex: the replicas' actual caches, as from KV-cache events.
	PreciseIndex PrefixIndex = "precise"
)

// SignalConfig is how fresh the router's view of the replicas is.
type SignalConfig struct {
	// RefreshMs is the interval at which the replicas' queue and KV signals
	// are scraped (a multiple of 0.5 ms); between scrapes the router sees
	// the last scrape. 0 is always fresh.
	RefreshMs float64 `json:"refresh_ms,omitempty"`
	// PrefixIndex is where prefix matches come from: approximate (the
	// default) or precise.
	PrefixIndex PrefixIndex `json:"prefix_index,omitempty"`
	// Probes is the number of eligible replicas (drawn from a stream of the
	// router's own) asked for their signals before each decision, Prequal
	// style; the request waits ProbeDelayMs (a multiple of 0.5 ms) for the
	// answers, which are fresh. 0 is no probing.
	Probes       int     `json:"probes,omitempty"`
	ProbeDelayMs float64 `json:"probe_delay_ms,omitempty"`
}

// ServingSLO are the targets a completed request must meet to count as
// attained; 0 leaves a target out.
type ServingSLO struct {
	TTFTMs float64 `json:"ttft_ms,omitempty"` // time to first token
	ITLMs  float64 `json:"itl_ms,omitempty"`  // the request's mean inter-token latency
	// ITLP99Ms bounds the request's own 99th-percentile inter-token gap.
	ITLP99Ms float64 `json:"itl_p99_ms,omitempty"`
	E2EMs    float64 `json:"e2e_ms,omitempty"` // end to end
}

// Upper bounds of the serving model's inputs.
const (
	MaxBatchSize  = 4096
	MaxBlocks     = 1 << 26
	MaxBlockSize  = 1024
	MaxGroups     = 1 << 20
	DefaultBlocks = 16 // tokens per block when BlockTokens is 0
)

// ServingTokenModel is the synthetic token model of the serving examples:
// a request alone costs 3 ms + 0.08 ms per prompt token + 16.25 ms per
// output token at reference speed, so with DefaultServing's 16 ms shared
// overhead a decode iteration of n requests takes 16 + 0.25·n ms. The
// numbers describe no real accelerator.
func ServingTokenModel() TokenModel {
	return TokenModel{
		BaseMs:    3,
		PrefillMs: 0.08,
		DecodeMs:  16.25,
		Prompt:    TokenCount{Median: 600, Sigma: 0.9, Min: 16, Max: 8192},
		Output:    TokenCount{Median: 180, Sigma: 0.7, Min: 8, Max: 1024},
	}
}

// DefaultServing is a batching configuration for ServingTokenModel: B = 32,
// a 2048-token budget with chunked prefill, 16 ms of shared overhead, 8192
// KV blocks and 4096 prefix-cache blocks of 16 tokens, FIFO, fresh signals,
// TTFT ≤ 500 ms and mean ITL ≤ 50 ms.
func DefaultServing() ServingConfig {
	return ServingConfig{
		MaxBatch: 32, TokenBudget: 2048, ChunkedPrefill: true, OverheadMs: 16,
		Queue: FIFOQueue, KVBlocks: 8192, BlockTokens: DefaultBlocks, PrefixCacheBlocks: 4096,
		SLO: ServingSLO{TTFTMs: 500, ITLMs: 50},
	}
}

// blockTokens is the block size in tokens.
func (c *ServingConfig) blockTokens() int {
	if c.BlockTokens == 0 {
		return DefaultBlocks
	}
	return c.BlockTokens
}

// validate checks the configuration against its scenario: every error names
// the field (serving.…) and what is allowed.
func (c *ServingConfig) validate(s *Scenario) error {
	if s.Arrivals != Replay && s.Demand.Kind != TokenDemand {
		return fieldErr("serving", "demand "+string(s.Demand.Kind), "token demand (demand.kind tokens) or trace arrivals: requests need prompt and output tokens")
	}
	for _, check := range []func(*Scenario) error{c.validateBatch, c.validateKV, c.Workload.validate, c.Signals.validate, c.SLO.validate} {
		if err := check(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *ServingConfig) validateBatch(s *Scenario) error {
	if c.MaxBatch < 1 || c.MaxBatch > MaxBatchSize {
		return fieldErr("serving.max_batch", c.MaxBatch, fmt.Sprintf("an integer from 1 to %d", MaxBatchSize))
	}
	if c.TokenBudget != 0 {
		if c.TokenBudget <= c.MaxBatch || c.TokenBudget > MaxTokens*MaxBatchSize {
			return fieldErr("serving.token_budget", c.TokenBudget, fmt.Sprintf("0 (no bound) or an integer from max_batch + 1 = %d to %d: every running request decodes a token each iteration, and a prefill needs one more", c.MaxBatch+1, MaxTokens*MaxBatchSize))
		}
		if p := maxPrompt(s); !c.ChunkedPrefill && c.TokenBudget < p {
			return fieldErr("serving.token_budget", c.TokenBudget, fmt.Sprintf("at least the longest prompt, %d tokens, without chunked_prefill (it could never be scheduled)", p))
		}
	}
	if d := s.Demand.Tokens.DecodeMs; !finite(c.OverheadMs) || c.OverheadMs < 0 || c.OverheadMs > d {
		return fieldErr("serving.iteration_overhead_ms", c.OverheadMs, fmt.Sprintf("a number in [0, tokens.decode_ms_per_token = %g]: the shared part of an iteration is at most what a request alone pays for a token", d))
	}
	if c.Queue != "" && c.Queue != FIFOQueue && c.Queue != PriorityQueue {
		return fieldErr("serving.queue", string(c.Queue), "fifo or priority")
	}
	return nil
}

func (c *ServingConfig) validateKV(s *Scenario) error {
	if c.BlockTokens < 0 || c.BlockTokens > MaxBlockSize {
		return fieldErr("serving.block_tokens", c.BlockTokens, fmt.Sprintf("0 (16) or an integer from 1 to %d", MaxBlockSize))
	}
	if c.PrefixCacheBlocks < 0 || c.PrefixCacheBlocks > MaxBlocks {
		return fieldErr("serving.prefix_cache_blocks", c.PrefixCacheBlocks, fmt.Sprintf("0 (no prefix cache) or an integer up to %d", MaxBlocks))
	}
	if c.KVBlocks == 0 {
		return nil
	}
	bs := c.blockTokens()
	need := maxPrompt(s) + maxOutput(s)
	if c.KVBlocks < 0 || c.KVBlocks > MaxBlocks || c.KVBlocks*bs < need {
		return fieldErr("serving.kv_blocks", c.KVBlocks, fmt.Sprintf("0 (no limit) or from %d to %d blocks of %d tokens: the longest request (a %d-token prompt and %d output tokens) must fit alone",
			(need+bs-1)/bs, MaxBlocks, bs, maxPrompt(s), maxOutput(s)))
	}
	return nil
}

// maxPrompt and maxOutput bound a request's prompt and output tokens in a
// valid scenario: the token model's (or each class's) largest counts, with
// the system prompt or the session context, or the trace's largest.
func maxPrompt(s *Scenario) int {
	if s.Arrivals == Replay {
		n := 0
		for _, r := range s.Trace {
			n = max(n, r.Prompt)
		}
		return n
	}
	w := &s.Serving.Workload
	own := s.Demand.Tokens.Prompt.Max
	for _, c := range w.Mix {
		own = max(own, c.Prompt.Max)
	}
	if w.Sessions > 0 {
		return max(w.MaxContextTokens, w.SystemPromptTokens+own)
	}
	return w.SystemPromptTokens + own
}

func maxOutput(s *Scenario) int {
	n := 0
	if s.Arrivals == Replay {
		for _, r := range s.Trace {
			n = max(n, r.Output)
		}
		return n
	}
	n = s.Demand.Tokens.Output.Max
	for _, c := range s.Serving.Workload.Mix {
		n = max(n, c.Output.Max)
	}
	return n
}

func (w *ServingWorkload) validate(s *Scenario) error {
	if s.Arrivals == Replay && (w.PrefixGroups != 0 || w.Sessions != 0 || w.CriticalShare != 0 || w.SheddableShare != 0 || len(w.Mix) > 0) {
		return fieldErr("serving.workload", "generated attributes", "none with trace arrivals: a trace's prefix_group, prefix_tokens, session and priority columns give them")
	}
	if w.PrefixGroups < 0 || w.PrefixGroups > MaxGroups {
		return fieldErr("serving.workload.prefix_groups", w.PrefixGroups, fmt.Sprintf("0 (no shared prefixes) to %d", MaxGroups))
	}
	if err := checkRange("serving.workload.zipf_s", w.ZipfS, 0, 10); err != nil {
		return err
	}
	if w.SystemPromptTokens < 0 || w.SystemPromptTokens > MaxTokens || (w.PrefixGroups > 0) != (w.SystemPromptTokens > 0) {
		return fieldErr("serving.workload.system_prompt_tokens", w.SystemPromptTokens, fmt.Sprintf("from 1 to %d with prefix groups, 0 without", MaxTokens))
	}
	if err := w.validateSessions(s); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"critical_share", w.CriticalShare}, {"sheddable_share", w.SheddableShare}} {
		if err := checkRange("serving.workload."+f.name, f.v, 0, 1); err != nil {
			return err
		}
	}
	if w.CriticalShare+w.SheddableShare > 1 {
		return fieldErr("serving.workload.sheddable_share", w.SheddableShare, fmt.Sprintf("at most 1 − critical_share = %g", 1-w.CriticalShare))
	}
	if err := w.validateMix(); err != nil {
		return err
	}
	if err := w.HotPrefix.validate(w); err != nil {
		return err
	}
	return checkOutputs(s)
}

func (h *HotPrefix) validate(w *ServingWorkload) error {
	if *h == (HotPrefix{}) {
		return nil
	}
	if w.PrefixGroups == 0 || w.PrefixGroups >= MaxGroups {
		return fieldErr("serving.workload.hot_prefix", "a hot prefix", fmt.Sprintf("none without prefix groups (prefix_groups from 1 to %d)", MaxGroups-1))
	}
	if err := checkRange("serving.workload.hot_prefix.share", h.Share, 0, 1); err != nil {
		return err
	}
	if !finite(h.FromMs) || h.FromMs < 0 || h.FromMs > MaxHorizon {
		return fieldErr("serving.workload.hot_prefix.from_ms", h.FromMs, fmt.Sprintf("a time in [0, %g] ms", MaxHorizon))
	}
	if !finite(h.ToMs) || h.ToMs <= h.FromMs || h.ToMs > MaxHorizon {
		return fieldErr("serving.workload.hot_prefix.to_ms", h.ToMs, fmt.Sprintf("a time after from_ms = %g, up to %g ms", h.FromMs, MaxHorizon))
	}
	return nil
}

func (w *ServingWorkload) validateSessions(s *Scenario) error {
	if w.Sessions < 0 || w.Sessions > MaxGroups {
		return fieldErr("serving.workload.sessions", w.Sessions, fmt.Sprintf("0 (no sessions) to %d", MaxGroups))
	}
	if w.Sessions == 0 {
		if w.MeanTurns != 0 || w.MaxContextTokens != 0 {
			return fieldErr("serving.workload.mean_turns", w.MeanTurns, "0, with max_context_tokens 0, when there are no sessions")
		}
		return nil
	}
	if !finite(w.MeanTurns) || w.MeanTurns < 1 || w.MeanTurns > 1e6 {
		return fieldErr("serving.workload.mean_turns", w.MeanTurns, "a number of turns in [1, 1e6]")
	}
	first := w.SystemPromptTokens + s.Demand.Tokens.Prompt.Max
	for _, c := range w.Mix {
		first = max(first, w.SystemPromptTokens+c.Prompt.Max)
	}
	if w.MaxContextTokens < first || w.MaxContextTokens > MaxTokens {
		return fieldErr("serving.workload.max_context_tokens", w.MaxContextTokens, fmt.Sprintf("from %d (a first turn: system prompt and the longest prompt) to %d", first, MaxTokens))
	}
	return nil
}

func (w *ServingWorkload) validateMix() error {
	if len(w.Mix) == 0 {
		return nil
	}
	sum := 0.0
	for i, c := range w.Mix {
		field := fmt.Sprintf("serving.workload.mix[%d]", i)
		if !finite(c.Share) || c.Share <= 0 || c.Share > 1 {
			return fieldErr(field+".share", c.Share, "a number in (0, 1]")
		}
		sum += c.Share
		if err := c.Prompt.validate(field + ".prompt"); err != nil {
			return err
		}
		if err := c.Output.validate(field + ".output"); err != nil {
			return err
		}
		if c.Output.Min < 1 {
			return fieldErr(field+".output.min", c.Output.Min, "at least 1: every request produces a token")
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		return fieldErr("serving.workload.mix", fmt.Sprintf("shares summing to %g", sum), "shares summing to 1")
	}
	return nil
}

// checkOutputs requires every request to produce at least one token: its
// first token ends its prefill.
func checkOutputs(s *Scenario) error {
	if s.Arrivals == Replay {
		for i, r := range s.Trace {
			if r.Output < 1 {
				return fieldErr(fmt.Sprintf("trace[%d].output_tokens", i), r.Output, "at least 1 with a serving section: every request produces a token")
			}
		}
		return nil
	}
	if len(s.Serving.Workload.Mix) == 0 && s.Demand.Tokens.Output.Min < 1 {
		return fieldErr("tokens.output.min", s.Demand.Tokens.Output.Min, "at least 1 with a serving section: every request produces a token")
	}
	return nil
}

func (g *SignalConfig) validate(s *Scenario) error {
	if !finite(g.RefreshMs) || g.RefreshMs < 0 || g.RefreshMs > MaxMs || !onGrid(g.RefreshMs) {
		return fieldErr("serving.signals.refresh_ms", g.RefreshMs, fmt.Sprintf("0 (always fresh) or a multiple of 0.5 ms up to %g", MaxMs))
	}
	if g.PrefixIndex != "" && g.PrefixIndex != ApproximateIndex && g.PrefixIndex != PreciseIndex {
		return fieldErr("serving.signals.prefix_index", string(g.PrefixIndex), "approximate or precise")
	}
	if g.Probes < 0 || g.Probes > s.Replicas() {
		return fieldErr("serving.signals.probes", g.Probes, fmt.Sprintf("0 (no probes) to %d, the number of replicas", s.Replicas()))
	}
	if !finite(g.ProbeDelayMs) || g.ProbeDelayMs < 0 || g.ProbeDelayMs > MaxMs || !onGrid(g.ProbeDelayMs) || (g.Probes == 0 && g.ProbeDelayMs != 0) {
		return fieldErr("serving.signals.probe_delay_ms", g.ProbeDelayMs, fmt.Sprintf("a multiple of 0.5 ms up to %g, and 0 without probes", MaxMs))
	}
	return nil
}

func (o *ServingSLO) validate(*Scenario) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"ttft_ms", o.TTFTMs}, {"itl_ms", o.ITLMs}, {"itl_p99_ms", o.ITLP99Ms}, {"e2e_ms", o.E2EMs}} {
		if !finite(f.v) || f.v < 0 || f.v > MaxHorizon {
			return fieldErr("serving.slo."+f.name, f.v, fmt.Sprintf("0 (no target) or a number of ms up to %g", MaxHorizon))
		}
	}
	return nil
}
