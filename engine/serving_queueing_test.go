package engine_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/routelab/routelab/engine"
)

// The serving model against things known independently of it: the
// throughput of a saturated batch, M/G/1 with batches of one, and LRU hit
// rates.

// servingCluster is n reference-speed replicas with the serving token
// model, jitter 0, a large queue, and the serving configuration c.
func servingCluster(n int, rate float64, c engine.ServingConfig) engine.Scenario {
	s := homogeneous("serving", n, engine.DemandModel{Kind: engine.TokenDemand, Tokens: engine.ServingTokenModel()}, rate/float64(n), 100000)
	s.Serving = &c
	return s
}

// fixedTokens is a count that is always n.
func fixedTokens(n int) engine.TokenCount {
	return engine.TokenCount{Median: float64(n), Sigma: 0, Min: n, Max: n}
}

// A saturated batching server keeps B requests running, each making a token
// per iteration, and replaces each completion at the next iteration. With
// every request of P prompt and n output tokens, an iteration takes on
// average
//
//	t = O + B·(decode − O) + (B/n)·(base + prefill·P)
//
// (the shared overhead, a token for each request, and the prefill of the
// B/n requests that join per iteration), so the throughput is B/t tokens
// per ms, B/(n·t) requests. Measured over ten minutes of overload (arrivals
// at twice that; the queue sheds the rest), within 2 %.
func TestBatchThroughputAtSaturation(t *testing.T) {
	t.Parallel()
	tm := engine.ServingTokenModel()
	for _, c := range []struct{ b, prompt, output int }{{8, 200, 100}, {32, 200, 100}, {32, 1500, 40}} {
		t.Run(fmt.Sprintf("B=%d/P=%d/n=%d", c.b, c.prompt, c.output), func(t *testing.T) {
			t.Parallel()
			cfg := engine.ServingConfig{MaxBatch: c.b, OverheadMs: 16}
			iter := cfg.OverheadMs + float64(c.b)*(tm.DecodeMs-cfg.OverheadMs) +
				float64(c.b)/float64(c.output)*(tm.BaseMs+tm.PrefillMs*float64(c.prompt))
			want := 1000 * float64(c.b) / (float64(c.output) * iter) // requests per second
			scn := servingCluster(1, 2*want, cfg)
			scn.Demand.Tokens.Prompt, scn.Demand.Tokens.Output = fixedTokens(c.prompt), fixedTokens(c.output)
			scn.QueueCap = 200
			r, err := engine.Run(context.Background(), engine.RunSpec{Scenario: scn, Policy: engine.RoundRobin(), Seed: 1,
				Protocol: engine.Protocol{Warmup: 60000, Measure: 600000, SLO: 1e6}})
			if err != nil {
				t.Fatal(err)
			}
			batch := r.PerReplica[0].Serving.MeanBatch
			t.Logf("B = %d: iteration %.3f ms, predicted %.4g req/s, measured %.4g req/s (%+.2f %%); mean batch %.3f; shed %.0f %%",
				c.b, iter, want, r.ThroughputRPS, 100*(r.ThroughputRPS/want-1), batch, 100*r.ShedRate)
			if math.Abs(r.ThroughputRPS/want-1) > 0.02 {
				t.Errorf("throughput %.4g req/s, predicted B/(n·t) = %.4g", r.ThroughputRPS, want)
			}
			if batch < float64(c.b)-0.01 {
				t.Errorf("the batch ran %.3f requests on average, want B = %d at saturation", batch, c.b)
			}
		})
	}
}

// tokenPMF is the distribution of a bounded log-normal token count, from the
// formula (Φ of the log of the rounding thresholds), independent of the
// engine's samplers.
func tokenPMF(c engine.TokenCount) map[int]float64 {
	out := map[int]float64{}
	cdf := func(x float64) float64 { // P(round(median·e^(σZ)) <= x)
		if c.Sigma == 0 {
			if float64(c.Median) <= x+0.5 {
				return 1
			}
			return 0
		}
		return 0.5 * math.Erfc(-(math.Log(x+0.5)-math.Log(c.Median))/(c.Sigma*math.Sqrt2))
	}
	prev := 0.0
	for k := c.Min; k <= c.Max; k++ {
		p := 1.0
		if k < c.Max {
			p = cdf(float64(k))
		}
		if p-prev > 0 {
			out[k] = p - prev
		}
		prev = p
	}
	return out
}

// With batches of one, a replica behind Random routing is an M/G/1 queue
// whose service is a request's demand (the shared overhead is never
// shared): its mean latency is Pollaczek–Khinchine with the grid's service
// moments plus Δ/2, as in docs/validation.md, the moments computed exactly
// from the token counts' distributions. The time to first token is the
// wait plus the first iteration (base + prefill·prompt + one decode),
// rounded up to the grid as the first token is seen.
func TestBatchOfOneIsMG1(t *testing.T) {
	t.Parallel()
	tm := engine.ServingTokenModel()
	prompt, output := tokenPMF(tm.Prompt), tokenPMF(tm.Output)
	var es, es2, ef float64 // E[S'], E[S'²], E[F'] in ms
	steps := func(ms float64) float64 { return grid * math.Max(1, math.Ceil(ms/grid)) }
	for p, pp := range prompt {
		ef += pp * steps(tm.Demand(p, 1)) // one iteration: base, the prompt, a token
		for o, po := range output {
			s := steps(tm.Demand(p, o))
			es += pp * po * s
			es2 += pp * po * s * s
		}
	}
	const n, rho = 4, 0.8
	lambda := rho / es // per replica, per ms
	cfg := engine.ServingConfig{MaxBatch: 1, OverheadMs: 16}
	scn := servingCluster(n, n*lambda*1000, cfg)
	proto := protocolFor(scn.Rate, 120000, grid*math.Ceil(1000*es/grid))
	got := runSeedsN(t, scn, engine.Random(), proto, nSeeds, meanLatency, func(r *engine.RunResult) float64 { return r.Serving.TTFT.Mean })
	want := mg1Sojourn(lambda, es, es2) + grid/2
	checkMean(t, "mean latency", got[0], want, true, fmt.Sprintf("P-K with E[S'] = %.5g ms, E[S'²] = %.5g ms², + Δ/2", es, es2))
	checkMean(t, "mean TTFT", got[1], want-es+ef, true, fmt.Sprintf("the latency less E[S'] plus the first iteration E[F'] = %.5g ms", ef))
}

// runSeedsN is runSeeds for several figures of the same runs.
func runSeedsN(t *testing.T, scn engine.Scenario, pol engine.PolicySpec, proto engine.Protocol, n int, fs ...func(*engine.RunResult) float64) []estimate {
	t.Helper()
	var runs []*engine.RunResult
	runSeeds(t, scn, pol, proto, n, func(r *engine.RunResult) float64 {
		runs = append(runs, r)
		return 0
	})
	out := make([]estimate, len(fs))
	for i, f := range fs {
		xs := make([]float64, len(runs))
		for j, r := range runs {
			xs[j] = f(r)
		}
		out[i] = estimateOf(xs)
	}
	return out
}

// cheHitRate is Che's approximation of an LRU cache of c items under
// independent requests with popularities q: item g is in the cache with
// probability 1 − e^(−q_g·T), T the characteristic time at which the
// expected number of distinct items requested fills the cache.
func cheHitRate(q []float64, c float64) float64 {
	fill := func(t float64) float64 {
		var n float64
		for _, x := range q {
			n += -math.Expm1(-x * t)
		}
		return n
	}
	lo, hi := 0.0, 1.0
	for fill(hi) < c {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if fill(mid) < c {
			lo = mid
		} else {
			hi = mid
		}
	}
	var h float64
	for _, x := range q {
		h += x * -math.Expm1(-x*lo)
	}
	return h
}

// A replica's prefix cache under Zipf-distributed system prompts is an LRU
// cache of whole prompts (all the same size): with batches of one its
// lookups and insertions follow the requests one by one, so its hit rate is
// that of LRU under the independent reference model, which Che's
// approximation gives within 5 %.
func TestPrefixCacheMatchesChe(t *testing.T) {
	t.Parallel()
	const groups, items, blocks, bs = 1000, 100, 64, 16
	for _, s := range []float64{0.7, 1.0} {
		t.Run(fmt.Sprintf("zipf=%g", s), func(t *testing.T) {
			t.Parallel()
			q := make([]float64, groups)
			var sum float64
			for g := range q {
				q[g] = math.Pow(float64(g+1), -s)
				sum += q[g]
			}
			for g := range q {
				q[g] /= sum
			}
			want := cheHitRate(q, items)
			cfg := engine.ServingConfig{MaxBatch: 1, BlockTokens: bs, PrefixCacheBlocks: items * blocks,
				Workload: engine.ServingWorkload{PrefixGroups: groups, ZipfS: s, SystemPromptTokens: blocks * bs}}
			scn := servingCluster(1, 0.1, cfg)
			scn.Demand.Tokens.Output = fixedTokens(8)
			got := runSeeds(t, scn, engine.RoundRobin(), protocolFor(scn.Rate, 50000, 20000000), 5, func(r *engine.RunResult) float64 { return r.Serving.HitRate })
			rel := got.mean/want - 1
			t.Logf("Zipf(%g) over %d prompts, LRU of %d: hit rate %v, Che %.4f (%+.2f %%)", s, groups, items, got, want, 100*rel)
			if math.Abs(rel) > 0.05 {
				t.Errorf("hit rate %.4f, Che's approximation %.4f: off by %+.2f %%", got.mean, want, 100*rel)
			}
		})
	}
}
