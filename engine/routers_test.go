package engine

import (
	"math"
	"strings"
	"testing"
)

// Every expected value below is worked by hand from the published rule (the
// comments show the arithmetic); docs/routers.md cites each source.

// served makes a replica of the serving model: waiting, running, KV use,
// tokens in flight and prefix hit tokens.
func served(waiting, running int, kv float64, tokens, hit int) Replica {
	r := healthy(waiting, running)
	r.KVUtil, r.TokensInFlight, r.PrefixHitTokens = kv, tokens, hit
	return r
}

// withPrompt sets the routed request's prompt.
func withPrompt(v *View, tokens int) *View {
	v.Request.PromptTokens = tokens
	return v
}

// counts picks n times on the same view.
func counts(t *testing.T, p Policy, v *View, n int) map[int]int {
	t.Helper()
	c := map[int]int{}
	for range n {
		c[pick(t, p, v)]++
	}
	return c
}

// llm-d's default profile: 2·queue + 2·kv + 3·prefix, ties at random.
func TestLLMDProfile(t *testing.T) {
	p := newPolicy(t, LLMD(), 3)
	// queue: waiting 4, 0, 2 → (4−4)/4 = 0, 1, (4−2)/4 = 0.5
	// kv: 1 − 0.5, 1 − 0.9, 1 − 0.2 = 0.5, 0.1, 0.8
	// prefix: 800/1000, 0, 200/1000 = 0.8, 0, 0.2
	// sums: 0 + 1 + 2.4 = 3.4; 2 + 0.2 + 0 = 2.2; 1 + 1.6 + 0.6 = 3.2
	v := withPrompt(view(served(4, 3, 0.5, 0, 800), served(0, 3, 0.9, 0, 0), served(2, 3, 0.2, 0, 200)), 1000)
	if id := pick(t, p, v); id != 1 {
		t.Errorf("picked %d, want 1 (3.4 against 2.2 and 3.2)", id)
	}
	// Equal queues score 1 each; with equal KV and no prefix all tie, and
	// the tie is drawn uniformly.
	c := counts(t, p, withPrompt(view(served(3, 1, 0.4, 0, 0), served(3, 2, 0.4, 0, 0), served(3, 0, 0.4, 0, 0)), 500), 30000)
	for id := 1; id <= 3; id++ {
		if c[id] < 9500 || c[id] > 10500 {
			t.Errorf("three-way tie: replica %d drawn %d times of 30000, want about 10000", id, c[id])
		}
	}
	// The specification's model: no KV, no prompt, so the shortest waiting
	// queue (2, 0, 1 → replica 2).
	if id := pick(t, p, view(healthy(2, 1), healthy(0, 1), healthy(1, 1))); id != 2 {
		t.Errorf("specification's model: picked %d, want 2", id)
	}
}

// llm-d's prefix-affinity filter: candidates with prefix score >= 0.8 only,
// unless none; skipped with probability 0.01.
func TestLLMDAffinityFilter(t *testing.T) {
	p := newPolicy(t, LLMDAffinity(), 3)
	// Matches 0.9, 0.8, 0 → the filter keeps 1 and 2 (0.8 >= 0.8). Among
	// them queue scores (5−5)/2 = 0 and 1, KV 1 each: 2 against 4 → 2.
	// Skipping the filter (1 % of picks), queue over all three (max 5,
	// min 0) gives 0, 0.4, 1: sums 2, 2.8, 4 → 3.
	v := withPrompt(view(served(5, 1, 0, 0, 900), served(3, 1, 0, 0, 800), served(0, 1, 0, 0, 0)), 1000)
	c := counts(t, p, v, 10000)
	if c[1] != 0 || c[3] < 50 || c[3] > 150 || c[2]+c[3] != 10000 {
		t.Errorf("picks %v: want replica 2 but for about 100 explorations to 3 (0.01 of 10000)", c)
	}
	// No candidate passes: all are kept, and the load scorers decide.
	if id := pick(t, p, withPrompt(view(served(1, 1, 0, 0, 100), served(0, 1, 0, 0, 0), served(2, 1, 0, 0, 0)), 1000)); id != 2 {
		t.Errorf("none passes the filter: picked %d, want the shortest queue, 2", id)
	}
}

// llm-d's probabilistic admitter: critical and standard always pass; a
// sheddable request is refused with probability min(sat⁵·300, 1).
func TestLLMDShedding(t *testing.T) {
	if got := ShedProbability(0.15); math.Abs(got-0.02278125) > 1e-12 { // 0.15⁵ = 7.59375e-5, × 300
		t.Errorf("ShedProbability(0.15) = %g, want 0.02278125 (the README's ~2.3 %%)", got)
	}
	if ShedProbability(0.34) != 1 || ShedProbability(0) != 0 {
		t.Errorf("ShedProbability(0.34) = %g, (0) = %g, want 1 and 0", ShedProbability(0.34), ShedProbability(0))
	}
	pol, err := LLMDShed().New(PolicyEnv{Replicas: 3, Rand: NewRand(1, streamPolicy)})
	if err != nil {
		t.Fatal(err)
	}
	a := pol.(Admitter)
	// saturation max(5/5, 0) = 1, 0, max(0, 0.4/0.8) = 0.5: mean 0.5, p = 1
	full := view(served(5, 1, 0, 0, 0), served(0, 1, 0, 0, 0), served(0, 1, 0.4, 0, 0))
	if s := SaturationOf(full); s != 0.5 {
		t.Errorf("saturation %g, want 0.5", s)
	}
	refused := func(v *View, pr Priority, n int) int {
		v.Request.Priority = pr
		k := 0
		for range n {
			if !a.Admit(v) {
				k++
			}
		}
		return k
	}
	if k := refused(full, Critical, 100); k != 0 {
		t.Errorf("critical requests refused %d times", k)
	}
	if k := refused(full, Standard, 100); k != 0 {
		t.Errorf("standard requests refused %d times", k)
	}
	if k := refused(full, Sheddable, 100); k != 100 {
		t.Errorf("sheddable at saturation 0.5 refused %d of 100, want all (p = 1)", k)
	}
	// one waiting each: saturation 0.2, p = 0.2⁵·300 = 0.096: 1920 of
	// 20000 expected, σ ≈ 42
	if k := refused(view(served(1, 1, 0, 0, 0), served(1, 1, 0, 0, 0), served(1, 1, 0, 0, 0)), Sheddable, 20000); k < 1712 || k > 2128 {
		t.Errorf("saturation 0.2: %d of 20000 refused, want about 1920", k)
	}
	// Signals older than 200 ms count as saturated: p = 1.
	stale := view(served(0, 0, 0, 0, 0), served(0, 0, 0, 0, 0))
	stale.Replicas[0].SignalAgeMs, stale.Replicas[1].SignalAgeMs = 250, 250
	if k := refused(stale, Sheddable, 50); k != 50 {
		t.Errorf("stale signals: %d of 50 refused, want all", k)
	}
	if k := refused(view(healthy(0, 0), healthy(0, 0)), Sheddable, 50); k != 0 {
		t.Errorf("an idle pool refused %d of 50", k)
	}
}

// Scorer weights that are NaN, infinite or negative are refused, naming the
// value and the scorer.
func TestScorerWeightsRefused(t *testing.T) {
	for _, w := range []float64{math.NaN(), -1, math.Inf(1)} {
		_, err := ScoringProfile{Name: "bad", Scorers: []Scorer{QueueScorer(2), KVScorer(w)}}.Spec().New(PolicyEnv{Replicas: 2, Rand: NewRand(1, 2)})
		if err == nil || !strings.Contains(err.Error(), "scorers[1].weight") || !strings.Contains(err.Error(), `scorer "kv"`) || !strings.Contains(err.Error(), "a finite number >= 0") {
			t.Errorf("weight %g: %v", w, err)
		}
	}
	if _, err := (ScoringProfile{Name: "none"}).Spec().New(PolicyEnv{Replicas: 2, Rand: NewRand(1, 2)}); err == nil || !strings.Contains(err.Error(), "at least one scorer") {
		t.Errorf("no scorers: %v", err)
	}
	nan := Scorer{Name: "nan", Weight: 1, New: func(PolicyEnv) (ScoreFunc, error) {
		return func(_ *View, _ []Replica, out []float64) error { out[0] = math.NaN(); return nil }, nil
	}}
	p := newPolicy(t, ScoringProfile{Name: "p", Scorers: []Scorer{nan}}.Spec(), 2)
	if _, err := p.Pick(view(healthy(0, 0), healthy(0, 0))); err == nil || !strings.Contains(err.Error(), `scorer "nan" gave NaN for replica 1`) {
		t.Errorf("a NaN score: %v", err)
	}
}

// llm-d's load-aware scorer: 0.5 for an empty queue, else
// 0.5·(1 − min(q, 128)/128).
func TestLoadScorer(t *testing.T) {
	f, _ := LoadScorer(1).New(PolicyEnv{})
	out := make([]float64, 3)
	cands := []Replica{healthy(0, 1), healthy(64, 1), healthy(200, 1)}
	if err := f(&View{}, cands, out); err != nil || out[0] != 0.5 || out[1] != 0.25 || out[2] != 0 {
		t.Errorf("scores %v (%v), want 0.5, 0.5·(1 − 64/128) = 0.25, 0", out, err)
	}
}

// vLLM's data-parallel balancer: lowest 4·waiting + running, ties to the
// lowest id, counting its own routings until the next scrape.
func TestVLLMDataParallel(t *testing.T) {
	p := newPolicy(t, VLLMDataParallel(), 3)
	v := view(healthy(1, 3), healthy(0, 6), healthy(2, 0)) // 7, 6, 8
	if id := pick(t, p, v); id != 2 {
		t.Errorf("picked %d, want 2 (6 against 7 and 8)", id)
	}
	// Same scrape: replica 2 counts one more waiting, 4 + 6 = 10 → 1 (7).
	if id := pick(t, p, v); id != 1 {
		t.Errorf("second pick %d, want 1 (7 against 10 and 8)", id)
	}
	// Then 4·2 + 3 = 11, 10, 8 → 3.
	if id := pick(t, p, v); id != 3 {
		t.Errorf("third pick %d, want 3 (8 against 11 and 10)", id)
	}
	// A new scrape clears the counts: 2 again.
	v.Now = 100
	if id := pick(t, p, v); id != 2 {
		t.Errorf("after a new scrape picked %d, want 2", id)
	}
	if id := pick(t, newPolicy(t, VLLMDataParallel(), 3), view(healthy(1, 1), healthy(1, 1), healthy(0, 5))); id != 1 {
		t.Errorf("a tie at 5: picked %d, want the lowest id, 1", id)
	}
}

// vLLM production stack prefixaware: random among the longest matches, all
// replicas when none matches.
func TestVLLMPrefixAware(t *testing.T) {
	p := newPolicy(t, VLLMPrefixAware(), 3)
	c := counts(t, p, withPrompt(view(served(0, 0, 0, 0, 300), served(9, 1, 0, 0, 500), served(9, 1, 0, 0, 500)), 1000), 4000)
	if c[1] != 0 || c[2] < 1800 || c[3] < 1800 {
		t.Errorf("longest match held by 2 and 3: picks %v, want about 2000 each and none for 1", c)
	}
	c = counts(t, p, view(healthy(0, 0), healthy(3, 1), healthy(9, 1)), 3000)
	if c[1] < 900 || c[2] < 900 || c[3] < 900 {
		t.Errorf("no match: picks %v, want uniform", c)
	}
}

// SGLang cache-aware: least load when imbalanced (both thresholds), best
// match above 0.3, else the smallest tree.
func TestSGLang(t *testing.T) {
	p := newPolicy(t, SGLang(), 3)
	// outstanding 70, 2, 10: 70 − 2 = 68 > 64 and 70 > 1.5·2 → least, 2,
	// though replica 1 holds the whole prompt
	if id := pick(t, p, withPrompt(view(served(60, 10, 0, 0, 1000), served(0, 2, 0, 0, 0), served(0, 10, 0, 0, 0)), 1000)); id != 2 {
		t.Errorf("imbalanced: picked %d, want 2", id)
	}
	// 200 − 130 = 70 > 64 and 200 > 1.5·130 = 195: imbalanced → 2
	p = newPolicy(t, SGLang(), 3)
	if id := pick(t, p, withPrompt(view(served(190, 10, 0, 0, 1000), served(120, 10, 0, 0, 0), served(140, 10, 0, 0, 0)), 1000)); id != 2 {
		t.Errorf("imbalanced by both thresholds: picked %d, want 2", id)
	}
	// 205 − 140 = 65 > 64 but 205 <= 1.5·140 = 210: balanced, so the best
	// match (0.4 > 0.3) wins
	p = newPolicy(t, SGLang(), 3)
	if id := pick(t, p, withPrompt(view(served(195, 10, 0, 0, 400), served(130, 10, 0, 0, 0), served(140, 10, 0, 0, 200)), 1000)); id != 1 {
		t.Errorf("balanced, match 0.4: picked %d, want 1", id)
	}
	// best match 300/1000 = 0.3 is not above 0.3: smallest tree. Trees
	// start empty (replica 1), then grow by the unmatched tokens: 700 at 1,
	// then 1000 at 2, 1000 at 3, then 1 again (700 < 1000).
	p = newPolicy(t, SGLang(), 3)
	v := withPrompt(view(served(0, 1, 0, 0, 300), served(0, 1, 0, 0, 0), served(0, 1, 0, 0, 0)), 1000)
	var got []int
	for range 4 {
		got = append(got, pick(t, p, v))
	}
	if got[0] != 1 || got[1] != 2 || got[2] != 3 || got[3] != 1 {
		t.Errorf("smallest tree sequence %v, want [1 2 3 1]", got)
	}
}

// Dynamo: lowest w·prefill + decode (both in tokens here), ties to fewer
// outstanding.
func TestDynamoKV(t *testing.T) {
	// prompt 1000: prefill 200, 1000, 0; decode 5000+1000, 3000+1000,
	// 4500+1000 → 6200, 5000, 5500 → 2
	v := withPrompt(view(served(0, 1, 0, 5000, 800), served(0, 1, 0, 3000, 0), served(0, 1, 0, 4500, 1000)), 1000)
	if id := pick(t, newPolicy(t, DynamoKV(1), 3), v); id != 2 {
		t.Errorf("w = 1: picked %d, want 2 (5000)", id)
	}
	// w = 4: 800 + 6000 = 6800, 4000 + 4000 = 8000, 0 + 5500 = 5500 → 3
	if id := pick(t, newPolicy(t, DynamoKV(4), 3), v); id != 3 {
		t.Errorf("w = 4: picked %d, want 3 (5500)", id)
	}
	if id := pick(t, newPolicy(t, DynamoKV(1), 3), view(healthy(2, 1), healthy(0, 1), healthy(1, 1))); id != 2 {
		t.Errorf("equal costs: picked %d, want the fewest outstanding, 2", id)
	}
	if n := DynamoKV(4).Name; n != "dynamo(w=4)" {
		t.Errorf("name %q", n)
	}
	if _, err := DynamoKV(-1).New(PolicyEnv{Replicas: 2}); err == nil || !strings.Contains(err.Error(), "dynamo.w") {
		t.Errorf("w = −1: %v", err)
	}
}

// Ray Serve's power of two: among replicas under max_ongoing_requests;
// every replica at its limit → the fewest outstanding.
func TestRayPowerOfTwo(t *testing.T) {
	p := newPolicy(t, RayPowerOfTwo(5), 3)
	if c := counts(t, p, view(healthy(4, 1), healthy(6, 1), healthy(1, 1)), 100); c[3] != 100 {
		t.Errorf("only 3 under 5: picks %v", c)
	}
	if id := pick(t, p, view(healthy(4, 1), healthy(5, 1), healthy(6, 1))); id != 1 {
		t.Errorf("all at the limit: picked %d, want the fewest outstanding, 1", id)
	}
	// 1 and 3 under the limit: both are drawn, the shorter (1) wins.
	if c := counts(t, p, view(healthy(0, 1), healthy(8, 1), healthy(2, 1)), 100); c[1] != 100 {
		t.Errorf("two under the limit: picks %v, want all to 1", c)
	}
	// A tie goes to the first drawn: both appear.
	if c := counts(t, p, view(healthy(1, 1), healthy(8, 1), healthy(1, 1)), 1000); c[1] < 400 || c[3] < 400 {
		t.Errorf("a tie: picks %v, want both", c)
	}
	if c := counts(t, newPolicy(t, RayPowerOfTwo(0), 2), view(healthy(40, 1), healthy(9, 1)), 100); c[2] != 100 {
		t.Errorf("no limit: picks %v, want all to 2", c)
	}
	if _, err := RayPowerOfTwo(-1).New(PolicyEnv{Replicas: 2}); err == nil || !strings.Contains(err.Error(), "ray-p2c.max_ongoing") {
		t.Errorf("max_ongoing −1: %v", err)
	}
}

// Ray Serve prefix affinity: power of two when queues differ by more than
// 10; else power of two among the best matches (rate >= 0.1), or among the
// smallest trees.
func TestRayPrefixAffinity(t *testing.T) {
	p := newPolicy(t, RayPrefixAffinity(), 3)
	// 12 − 1 = 11 > 10: power of two over 1 and 2 (3 is down) → 2, though 1
	// holds the prompt
	v := withPrompt(view(served(11, 1, 0, 0, 1000), served(0, 1, 0, 0, 0), Replica{}), 1000)
	if c := counts(t, p, v, 50); c[2] != 50 {
		t.Errorf("imbalanced: picks %v, want all to 2", c)
	}
	// balanced; best match 100/1000 = 0.1 >= 0.1 held by 1 and 3: the
	// shorter of them, 3
	v = withPrompt(view(served(2, 1, 0, 0, 100), served(0, 0, 0, 0, 50), served(0, 1, 0, 0, 100)), 1000)
	if c := counts(t, p, v, 50); c[3] != 50 {
		t.Errorf("match 0.1: picks %v, want all to 3", c)
	}
	// A fresh router sends a full match to 1 (its tree grows by 500), then a
	// low match (99/1000) goes among the smallest trees, 2 and 3: the
	// shorter, 3.
	p = newPolicy(t, RayPrefixAffinity(), 3)
	if id := pick(t, p, withPrompt(view(served(0, 1, 0, 0, 500), served(0, 1, 0, 0, 0), served(0, 1, 0, 0, 0)), 1000)); id != 1 {
		t.Fatalf("full match picked %d, want 1", id)
	}
	if c := counts(t, p, withPrompt(view(served(0, 1, 0, 0, 99), served(1, 1, 0, 0, 0), served(0, 1, 0, 0, 0)), 1000), 1); c[3] != 1 {
		t.Errorf("low match: picks %v, want 3", c)
	}
}

// AIBrix: fewest running when running differs by more than 16; else the
// best match whose running is within mean + 2σ; else fewest running.
func TestAIBrix(t *testing.T) {
	p := newPolicy(t, AIBrix(), 3)
	if id := pick(t, p, withPrompt(view(served(0, 20, 0, 0, 1000), served(0, 2, 0, 0, 0), served(0, 10, 0, 0, 0)), 1000)); id != 2 {
		t.Errorf("20 − 2 > 16: picked %d, want 2", id)
	}
	// running 4, 2, 3: mean 3, σ = √(2/3) ≈ 0.82, limit ≈ 4.63; matches
	// 500, 800, 800: 2 and 3 lead, 2 has fewer running
	if id := pick(t, p, withPrompt(view(served(0, 4, 0, 0, 500), served(0, 2, 0, 0, 800), served(0, 3, 0, 0, 800)), 1000)); id != 2 {
		t.Errorf("best match: picked %d, want 2", id)
	}
	// ten replicas, running 0 but 10 at the last: mean 1, σ = √((9 + 81)/10)
	// = 3, limit 7; the only match is at the last, over the limit → the
	// fewest running, the lowest id, 1
	rs := make([]Replica, 10)
	for i := range rs {
		rs[i] = served(0, 0, 0, 0, 0)
	}
	rs[9] = served(0, 10, 0, 0, 900)
	if id := pick(t, p, withPrompt(view(rs...), 1000)); id != 1 {
		t.Errorf("match over mean + 2σ: picked %d, want 1", id)
	}
	if id := pick(t, p, view(healthy(0, 1), healthy(0, 0), healthy(0, 1))); id != 2 {
		t.Errorf("no match: picked %d, want the fewest running, 2", id)
	}
}

// Prequal: hot when in flight exceeds the 0.84 quantile of the pool; the
// lowest latency among the cold.
func TestPrequal(t *testing.T) {
	p := newPolicy(t, Prequal(), 3)
	o := p.(CompletionObserver)
	// Latency estimates after one completion each: 0.15·latency.
	o.ObserveCompletion(Completion{Replica: 1, LatencyMs: 100})
	o.ObserveCompletion(Completion{Replica: 2, LatencyMs: 10})
	o.ObserveCompletion(Completion{Replica: 3, LatencyMs: 50})
	// in flight 1, 5, 2: sorted 1, 2, 5, the 0.84 quantile at 1.68 is
	// 2 + 0.68·3 = 4.04 → 2 is hot; of 1 and 3, 3 is faster
	if id := pick(t, p, view(healthy(0, 1), healthy(4, 1), healthy(1, 1))); id != 3 {
		t.Errorf("picked %d, want 3", id)
	}
	// Probes: the pool is 2 and 3 (in flight 5, 2: quantile 2 + 0.84·3 =
	// 4.52, 2 hot) → 3, though unprobed 1 is faster still
	p = newPolicy(t, Prequal(), 3)
	o = p.(CompletionObserver)
	o.ObserveCompletion(Completion{Replica: 1, LatencyMs: 1})
	o.ObserveCompletion(Completion{Replica: 2, LatencyMs: 10})
	o.ObserveCompletion(Completion{Replica: 3, LatencyMs: 50})
	v := view(healthy(0, 1), healthy(4, 1), healthy(1, 1))
	v.Eligible[1].Probed, v.Eligible[2].Probed = true, true
	if id := pick(t, p, v); id != 3 {
		t.Errorf("probed pool: picked %d, want 3", id)
	}
	// No latency yet: equal estimates, so the fewest in flight among the
	// cold (3, 1, 2: quantile 2.68, 1 hot) → 2
	if id := pick(t, newPolicy(t, Prequal(), 3), view(healthy(2, 1), healthy(0, 1), healthy(1, 1))); id != 2 {
		t.Errorf("no estimates: picked %d, want 2", id)
	}
}

// C3: lowest R̄ + (1 + os + q̄)³·T̄, EWMAs weighting the newest value 0.9.
func TestC3(t *testing.T) {
	p := newPolicy(t, C3(), 2)
	// No completion yet: every score is 0, the lowest id.
	if id := pick(t, p, view(healthy(2, 1), healthy(0, 0))); id != 1 {
		t.Errorf("cold start: picked %d, want 1", id)
	}
	o := p.(CompletionObserver)
	o.ObserveCompletion(Completion{Replica: 1, ServiceMs: 10, LatencyMs: 30}) // T̄ 9, R̄ 18, q̄ 0.9·2 = 1.8
	o.ObserveCompletion(Completion{Replica: 2, ServiceMs: 20, LatencyMs: 22}) // T̄ 18, R̄ 1.8, q̄ 0
	// outstanding 1 and 2: 18 + (1 + 1 + 1.8)³·9 = 511.848;
	// 1.8 + (1 + 2 + 0)³·18 = 487.8 → 2
	if id := pick(t, p, view(healthy(0, 1), healthy(1, 1))); id != 2 {
		t.Errorf("picked %d, want 2 (487.8 against 511.8)", id)
	}
	c := p.(*c3)
	if s := c.score(Replica{ID: 1, Outstanding: 1}); math.Abs(s-511.848) > 1e-9 {
		t.Errorf("score of 1 = %g, want 511.848", s)
	}
}

// Peak EWMA: the estimate jumps to a higher latency and otherwise decays
// with weight exp(−Δt/10 s); cost × (outstanding + 1); a penalty for an
// unknown busy replica.
func TestPeakEWMA(t *testing.T) {
	now := 0.0
	pol, err := PeakEWMA().New(PolicyEnv{Replicas: 2, Rand: NewRand(1, streamPolicy), Now: func() float64 { return now }})
	if err != nil {
		t.Fatal(err)
	}
	p := pol.(*peakEWMA)
	p.ObserveCompletion(Completion{Replica: 2, LatencyMs: 10})
	// 1 is busy and unknown (penalty); 2 costs 10·(3 + 1) = 40
	if id := pick(t, p, view(healthy(0, 1), healthy(2, 1))); id != 2 {
		t.Errorf("unknown busy replica: picked %d, want 2", id)
	}
	p.ObserveCompletion(Completion{Replica: 2, LatencyMs: 50}) // a peak: 50
	if p.cost[1] != 50 {
		t.Errorf("after a peak the estimate is %g, want 50", p.cost[1])
	}
	now = PeakEWMADecayMs
	p.ObserveCompletion(Completion{Replica: 2, LatencyMs: 10}) // 50·e⁻¹ + 10·(1 − e⁻¹)
	want := 10 + 40*math.Exp(-1)
	if math.Abs(p.cost[1]-want) > 1e-9 {
		t.Errorf("decayed estimate %g, want 10 + 40/e = %g", p.cost[1], want)
	}
	p.ObserveCompletion(Completion{Replica: 1, LatencyMs: 20}) // 20
	// 20·(1 + 1) = 40 against 24.7·(0 + 1) → 2; with 2 busy, 49.4 → 1
	if id := pick(t, p, view(healthy(0, 1), healthy(0, 0))); id != 2 {
		t.Errorf("picked %d, want 2 (24.7 against 40)", id)
	}
	if id := pick(t, p, view(healthy(0, 1), healthy(0, 1))); id != 1 {
		t.Errorf("picked %d, want 1 (40 against 49.4)", id)
	}
	if _, err := PeakEWMA().New(PolicyEnv{Replicas: 2}); err == nil || !strings.Contains(err.Error(), "PolicyEnv.Now") {
		t.Errorf("no clock: %v", err)
	}
}

// Least work left: the oracle's least remaining work, ties to the lowest id.
func TestLeastWorkLeft(t *testing.T) {
	left := []float64{30, 10, 20}
	pol, err := LeastWorkLeft().New(PolicyEnv{Replicas: 3, WorkLeft: func(id int) float64 { return left[id-1] }})
	if err != nil {
		t.Fatal(err)
	}
	if id := pick(t, pol, view(healthy(0, 1), healthy(5, 1), healthy(1, 1))); id != 2 {
		t.Errorf("picked %d, want 2 (10 ms left)", id)
	}
	left[0] = 10
	if id := pick(t, pol, view(healthy(0, 1), healthy(5, 1), healthy(1, 1))); id != 1 {
		t.Errorf("a tie at 10 ms: picked %d, want 1", id)
	}
	if _, err := LeastWorkLeft().New(PolicyEnv{Replicas: 2}); err == nil || !strings.Contains(err.Error(), "oracle") {
		t.Errorf("no oracle: %v", err)
	}
}
