package engine

import (
	"math"
	"slices"

	"github.com/routelab/routelab/internal/xmath"
)

// The production routers of LLM serving, each a pure rule over the View
// plus the router's own state. docs/routers.md gives each one's source, its
// signals and where routelab simplifies it. On the specification's model
// the serving signals are zero (no KV, no prefixes, no tokens in flight);
// each doc comment says what the rule then falls back to.

// VLLMDataParallel is vLLM's data-parallel balancer: the lowest
// 4·waiting + running, scanning from the first engine so ties go to the
// lowest id; between two stats updates it adds each request it routes to
// its own copy of the chosen engine's waiting count (vllm-project/vllm
// vllm/v1/engine/core_client.py, DPLBAsyncMPClient). routelab's update is
// the scrape (SignalConfig.RefreshMs): a replica whose signals are newer
// than the ones counted against starts again from zero.
func VLLMDataParallel() PolicySpec {
	return PolicySpec{Name: "vllm-dp", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		return &vllmDP{added: make([]int, env.Replicas), scraped: make([]float64, env.Replicas)}, nil
	}}
}

type vllmDP struct {
	added   []int     // requests routed since the replica's scrape
	scraped []float64 // the scrape's time (Now − SignalAgeMs)
}

func (p *vllmDP) Pick(v *View) (int, error) {
	best, bestScore := 0, math.MaxInt
	for _, r := range v.Eligible {
		i := r.ID - 1
		if at := v.Now - r.SignalAgeMs; at != p.scraped[i] {
			p.scraped[i], p.added[i] = at, 0
		}
		if s := 4*(r.Waiting+p.added[i]) + r.InFlight; s < bestScore {
			best, bestScore = r.ID, s
		}
	}
	p.added[best-1]++
	return best, nil
}

func (p *vllmDP) Observe(int, float64) {}

// VLLMPrefixAware is the vLLM production stack's prefixaware router: a
// replica drawn at random among those holding the longest prefix of the
// request, every eligible replica when none holds any (vllm-project/
// production-stack src/vllm_router/routers/routing_logic.py,
// PrefixAwareRouter). The stack keeps a trie of everything it routed and
// never evicts; routelab's match is the router's index
// (Replica.PrefixHitTokens). On the specification's model it is random.
func VLLMPrefixAware() PolicySpec {
	return PolicySpec{Name: "vllm-prefix", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		return &vllmPrefix{rng: env.Rand}, nil
	}}
}

type vllmPrefix struct{ rng *Rand }

func (p *vllmPrefix) Pick(v *View) (int, error) {
	longest, n := -1, 0
	for _, r := range v.Eligible {
		switch {
		case r.PrefixHitTokens > longest:
			longest, n = r.PrefixHitTokens, 1
		case r.PrefixHitTokens == longest:
			n++
		}
	}
	k := p.rng.Intn(n)
	for _, r := range v.Eligible {
		if r.PrefixHitTokens == longest {
			if k == 0 {
				return r.ID, nil
			}
			k--
		}
	}
	return v.Eligible[0].ID, nil
}

func (p *vllmPrefix) Observe(int, float64) {}

// treeSizes is the size in tokens of the radix tree a router builds of what
// it routed to each replica, never evicted: routing a request inserts its
// prompt, which grows the replica's tree by the part it did not match (at
// least one token, so a request without tokens still counts).
type treeSizes []int64

func (t treeSizes) insert(v *View, id int) {
	r := &v.Replicas[id-1]
	t[id-1] += int64(max(1, v.Request.PromptTokens-r.PrefixHitTokens))
}

// SGLang is the SGLang model gateway's cache-aware policy with its command
// line defaults: when the load (requests in flight at the router) is
// imbalanced — max − min > 64 and max > 1.5·min — the least loaded replica;
// otherwise, if the best prefix match rate exceeds 0.3, the best-matching
// replica (ties to the lower load, then the lower id); otherwise the replica
// with the smallest tree (lightseekorg/smg
// model_gateway/src/policies/cache_aware.rs). On the specification's model
// no prompt matches, and it spreads requests by count until the load
// imbalances.
func SGLang() PolicySpec {
	return PolicySpec{Name: "sglang", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		return &sglang{tree: make(treeSizes, env.Replicas)}, nil
	}}
}

type sglang struct{ tree treeSizes }

// SGLang's command-line defaults.
const (
	sglangAbs   = 64
	sglangRel   = 1.5
	sglangCache = 0.3
)

func (p *sglang) Pick(v *View) (int, error) {
	id := p.pick(v)
	p.tree.insert(v, id)
	return id, nil
}

func (p *sglang) pick(v *View) int {
	lo, hi := leastOutstanding(v.Eligible), v.Eligible[0]
	for _, r := range v.Eligible {
		if r.Outstanding > hi.Outstanding {
			hi = r
		}
	}
	if hi.Outstanding-lo.Outstanding > sglangAbs && float64(hi.Outstanding) > xmath.Mul(sglangRel, float64(lo.Outstanding)) {
		return lo.ID
	}
	best := v.Eligible[0]
	for _, r := range v.Eligible[1:] {
		if r.PrefixHitTokens > best.PrefixHitTokens || (r.PrefixHitTokens == best.PrefixHitTokens && r.Outstanding < best.Outstanding) {
			best = r
		}
	}
	if prefixShare(v, &best) > sglangCache {
		return best.ID
	}
	small := v.Eligible[0].ID
	for _, r := range v.Eligible[1:] {
		if p.tree[r.ID-1] < p.tree[small-1] {
			small = r.ID
		}
	}
	return small
}

func (p *sglang) Observe(int, float64) {}

// leastOutstanding is the candidate with the fewest outstanding requests,
// the lowest id among ties.
func leastOutstanding(cands []Replica) Replica {
	best := cands[0]
	for _, r := range cands[1:] {
		if r.Outstanding < best.Outstanding {
			best = r
		}
	}
	return best
}

// DynamoKV is NVIDIA Dynamo's KV router at its defaults (overlap weight 1,
// temperature 0): the lowest cost w·prefill blocks + decode blocks, where
// prefill blocks are the request's prompt blocks the replica does not hold
// and decode blocks are the replica's active blocks with the request's
// added (ai-dynamo/dynamo docs/router/kv_cache_routing.md and its default
// worker selector). routelab counts the active blocks from
// Replica.TokensInFlight and breaks ties by fewer outstanding requests, then
// the lower id; on the specification's model (no tokens in flight) it is
// the shortest queue.
func DynamoKV(overlapWeight float64) PolicySpec {
	defaults := []PolicyParam{{Name: "w", Value: 1, About: "weight of the prefill blocks (kv_overlap_score_weight)"}}
	params := []PolicyParam{defaults[0]}
	params[0].Value = overlapWeight
	return PolicySpec{Name: paramName("dynamo", params, defaults), Kind: BuiltinPolicy, Params: params, New: func(PolicyEnv) (Policy, error) {
		if !finite(overlapWeight) || overlapWeight < 0 {
			return nil, fieldErr("dynamo.w", overlapWeight, "a finite number >= 0")
		}
		return &dynamo{w: overlapWeight}, nil
	}}
}

type dynamo struct{ w float64 }

func (p *dynamo) Pick(v *View) (int, error) {
	best, bestCost := v.Eligible[0], math.Inf(1)
	prompt := float64(v.Request.PromptTokens)
	for _, r := range v.Eligible {
		prefill := max(0, prompt-float64(r.PrefixHitTokens))
		// Both terms in tokens: dividing by the block size changes no order.
		c := xmath.Mul(p.w, prefill) + float64(r.TokensInFlight) + prompt
		if c < bestCost || (c == bestCost && r.Outstanding < best.Outstanding) {
			best, bestCost = r, c
		}
	}
	return best.ID, nil
}

func (p *dynamo) Observe(int, float64) {}

// RayServeDefaultMaxOngoing is Ray Serve's default max_ongoing_requests.
const RayServeDefaultMaxOngoing = 5

// RayPowerOfTwo is Ray Serve's default request router: two replicas drawn
// at random among those under max_ongoing_requests, the one with the
// shorter queue (outstanding requests, which Ray probes) winning, the first
// drawn on a tie (ray-project/ray serve/_private/request_router/
// pow_2_router.py). When every replica is at its limit Ray holds the
// request and retries; routelab has no router queue and sends it to the
// fewest outstanding. maxOngoing 0 means no limit (Ray Serve LLM's
// default, 10⁹).
func RayPowerOfTwo(maxOngoing int) PolicySpec {
	defaults := []PolicyParam{{Name: "max_ongoing", Value: RayServeDefaultMaxOngoing, About: "a replica's max_ongoing_requests (0: no limit)"}}
	params := []PolicyParam{defaults[0]}
	params[0].Value = float64(maxOngoing)
	return PolicySpec{Name: paramName("ray-p2c", params, defaults), Kind: BuiltinPolicy, Params: params, New: func(env PolicyEnv) (Policy, error) {
		if maxOngoing < 0 {
			return nil, fieldErr("ray-p2c.max_ongoing", maxOngoing, "an integer >= 0 (0: no limit)")
		}
		return &rayP2C{rng: env.Rand, cap: maxOngoing, under: make([]Replica, 0, env.Replicas)}, nil
	}}
}

type rayP2C struct {
	rng   *Rand
	cap   int
	under []Replica
}

func (p *rayP2C) Pick(v *View) (int, error) {
	p.under = p.under[:0]
	for _, r := range v.Eligible {
		if p.cap == 0 || r.Outstanding < p.cap {
			p.under = append(p.under, r)
		}
	}
	if len(p.under) == 0 {
		return leastOutstanding(v.Eligible).ID, nil
	}
	return twoChoices(p.rng, p.under).ID, nil
}

func (p *rayP2C) Observe(int, float64) {}

// twoChoices draws two distinct candidates and returns the one with fewer
// outstanding requests, the first drawn on a tie.
func twoChoices(rng *Rand, cands []Replica) Replica {
	n := len(cands)
	if n == 1 {
		return cands[0]
	}
	i, j := twoDistinct(rng, n)
	if cands[j].Outstanding < cands[i].Outstanding {
		return cands[j]
	}
	return cands[i]
}

// RayPrefixAffinity is Ray Serve LLM's PrefixCacheAffinityRouter at its
// defaults: when the queues differ by more than 10 it is power of two over
// every replica; otherwise, if the best prefix match rate is at least 0.1,
// power of two among the best-matching replicas, else among the replicas
// with the smallest tree (the least used prefix cache); without a prompt,
// power of two (ray-project/ray doc/source/serve/llm/user-guides/
// prefix-aware-routing.md). Ray Serve LLM sets no ongoing limit. On the
// specification's model it is power of two.
func RayPrefixAffinity() PolicySpec {
	return PolicySpec{Name: "ray-prefix", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		return &rayPrefix{rng: env.Rand, tree: make(treeSizes, env.Replicas), cands: make([]Replica, 0, env.Replicas)}, nil
	}}
}

type rayPrefix struct {
	rng   *Rand
	tree  treeSizes
	cands []Replica
}

// Ray's PrefixCacheAffinityRouter defaults.
const (
	rayImbalance = 10
	rayMatchRate = 0.1
)

func (p *rayPrefix) Pick(v *View) (int, error) {
	id := p.pick(v)
	p.tree.insert(v, id)
	return id, nil
}

func (p *rayPrefix) pick(v *View) int {
	lo, hi := math.MaxInt, math.MinInt
	for _, r := range v.Eligible {
		lo, hi = min(lo, r.Outstanding), max(hi, r.Outstanding)
	}
	if hi-lo > rayImbalance || v.Request.PromptTokens <= 0 {
		return twoChoices(p.rng, v.Eligible).ID
	}
	best := 0
	for _, r := range v.Eligible {
		best = max(best, r.PrefixHitTokens)
	}
	p.cands = p.cands[:0]
	if float64(best) >= xmath.Mul(rayMatchRate, float64(v.Request.PromptTokens)) {
		for _, r := range v.Eligible {
			if r.PrefixHitTokens == best {
				p.cands = append(p.cands, r)
			}
		}
	} else {
		small := int64(math.MaxInt64)
		for _, r := range v.Eligible {
			small = min(small, p.tree[r.ID-1])
		}
		for _, r := range v.Eligible {
			if p.tree[r.ID-1] == small {
				p.cands = append(p.cands, r)
			}
		}
	}
	return twoChoices(p.rng, p.cands).ID
}

func (p *rayPrefix) Observe(int, float64) {}

// AIBrix is AIBrix's prefix-cache router at its defaults: when the running
// requests differ by more than 16, the replica with the fewest running;
// otherwise the replicas holding some of the prompt, by match rate (higher
// first) then running (fewer first), the first whose running is at most
// mean + 2·standard deviation of running over the replicas; none, the
// fewest running (vllm-project/aibrix pkg/plugins/gateway/algorithms/
// README.md). Ties go to the lowest id. On the specification's model
// (running is 0 or 1, no prefixes) it picks an idle replica, the lowest id.
func AIBrix() PolicySpec {
	return PolicySpec{Name: "aibrix", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		return &aibrix{}, nil
	}}
}

type aibrix struct{}

// AIBrix's defaults.
const (
	aibrixImbalance = 16
	aibrixStdFactor = 2.0
)

func (aibrix) Pick(v *View) (int, error) {
	least := v.Eligible[0]
	lo, hi, sum := math.MaxInt, math.MinInt, 0.0
	for _, r := range v.Eligible {
		if r.InFlight < least.InFlight {
			least = r
		}
		lo, hi, sum = min(lo, r.InFlight), max(hi, r.InFlight), sum+float64(r.InFlight)
	}
	if hi-lo > aibrixImbalance {
		return least.ID, nil
	}
	n := float64(len(v.Eligible))
	mean, ss := sum/n, 0.0
	for _, r := range v.Eligible {
		d := float64(r.InFlight) - mean
		ss += xmath.Mul(d, d)
	}
	limit := mean + xmath.Mul(aibrixStdFactor, math.Sqrt(ss/n))
	var pick *Replica
	for i := range v.Eligible {
		r := &v.Eligible[i]
		if r.PrefixHitTokens == 0 || float64(r.InFlight) > limit {
			continue
		}
		if pick == nil || r.PrefixHitTokens > pick.PrefixHitTokens || (r.PrefixHitTokens == pick.PrefixHitTokens && r.InFlight < pick.InFlight) {
			pick = r
		}
	}
	if pick == nil {
		return least.ID, nil
	}
	return pick.ID, nil
}

func (aibrix) Observe(int, float64) {}

// PrequalQuantile is the quantile of the probed requests in flight above
// which Prequal calls a replica hot (QRIF; the paper tunes it in 0.6–0.9).
const PrequalQuantile = 0.84

// Prequal is the hot-cold lexicographic rule of Prequal (Wydrowski,
// Kleinberg, Rumble and Archer, "Load is not what you should balance:
// Introducing Prequal", NSDI 2024): over the pool of probed replicas (every
// eligible replica when the scenario does not probe), a replica is hot when
// its requests in flight exceed the 0.84 quantile of the pool's (linear
// interpolation); among the cold, the lowest latency estimate wins (ties to
// fewer in flight, then the lower id). The paper's fallback when every
// probed replica is hot cannot arise with one quantile over one pool: the
// fewest in flight is always cold. The latency estimate is the router's EWMA (α = 0.15) of the
// replica's end-to-end latencies, where Prequal's replicas report one.
func Prequal() PolicySpec {
	return PolicySpec{Name: "prequal", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		return &prequal{lat: make([]ewma, env.Replicas), pool: make([]Replica, 0, env.Replicas), rif: make([]float64, 0, env.Replicas)}, nil
	}}
}

type prequal struct {
	lat  []ewma
	pool []Replica
	rif  []float64
}

func (p *prequal) Pick(v *View) (int, error) {
	p.pool = p.pool[:0]
	for _, r := range v.Eligible {
		if r.Probed {
			p.pool = append(p.pool, r)
		}
	}
	if len(p.pool) == 0 {
		p.pool = append(p.pool, v.Eligible...)
	}
	p.rif = p.rif[:0]
	for _, r := range p.pool {
		p.rif = append(p.rif, float64(r.Outstanding))
	}
	slices.Sort(p.rif)
	hot := quantile(p.rif, PrequalQuantile)
	// The fewest in flight is never above a quantile: it is cold, and the
	// search for the lowest latency among the cold starts there.
	cold := leastOutstanding(p.pool)
	for _, r := range p.pool {
		if float64(r.Outstanding) > hot {
			continue
		}
		if l, lc := p.lat[r.ID-1].v, p.lat[cold.ID-1].v; l < lc || (l == lc && r.Outstanding < cold.Outstanding) {
			cold = r
		}
	}
	return cold.ID, nil
}

// quantile is the q quantile of sorted xs by linear interpolation between
// order statistics.
func quantile(xs []float64, q float64) float64 {
	pos := xmath.Mul(q, float64(len(xs)-1))
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + xmath.Mul(pos-float64(i), xs[i+1]-xs[i])
}

func (p *prequal) Observe(int, float64) {}

// ObserveCompletion updates the replica's latency estimate.
func (p *prequal) ObserveCompletion(c Completion) {
	p.lat[c.Replica-1].update(DefaultAlpha, c.LatencyMs)
}

// C3Alpha is the weight of the newest value in C3's EWMAs.
const C3Alpha = 0.9

// C3 is the replica ranking of C3 (Suresh, Canini, Schmid and Feldmann,
// "C3: Cutting tail latency in cloud data stores via adaptive replica
// selection", NSDI 2015; lalithsuresh/cassandra-c3 ScoreTracker): the
// lowest R̄ + q̂³·T̄, where T̄ is an EWMA of the replica's service times, R̄
// an EWMA of its latency minus service time, and q̂ = 1 + n·outstanding +
// q̄ with n = 1 router and q̄ an EWMA of the replica's waiting queue, all
// EWMAs weighting the newest value 0.9. C3 reads q̄ from the replica's
// replies; routelab reads it from the router's last view of the replica.
// C3's rate control is left out. Ties go to the lowest id; before any
// completion every score is 0 and it is the lowest id.
func C3() PolicySpec {
	return PolicySpec{Name: "c3", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		return &c3{svc: make([]ewma, env.Replicas), resp: make([]ewma, env.Replicas), queue: make([]ewma, env.Replicas), seen: make([]int, env.Replicas)}, nil
	}}
}

type c3 struct {
	svc, resp, queue []ewma
	seen             []int // each replica's waiting queue in the router's last view
}

func (p *c3) score(r Replica) float64 {
	q := 1 + float64(r.Outstanding) + p.queue[r.ID-1].v
	return p.resp[r.ID-1].v + xmath.Mul(xmath.Mul(xmath.Mul(q, q), q), p.svc[r.ID-1].v)
}

func (p *c3) Pick(v *View) (int, error) {
	for _, r := range v.Replicas {
		p.seen[r.ID-1] = r.Waiting
	}
	best, bestScore := 0, math.Inf(1)
	for _, r := range v.Eligible {
		if s := p.score(r); s < bestScore {
			best, bestScore = r.ID, s
		}
	}
	return best, nil
}

func (p *c3) Observe(int, float64) {}

// ObserveCompletion updates the replica's EWMAs from a reply.
func (p *c3) ObserveCompletion(c Completion) {
	i := c.Replica - 1
	p.queue[i].update(C3Alpha, float64(p.seen[i]))
	p.svc[i].update(C3Alpha, c.ServiceMs)
	p.resp[i].update(C3Alpha, c.LatencyMs-c.ServiceMs)
}

// PeakEWMADecayMs is the decay time of Finagle's peak EWMA (10 s).
const PeakEWMADecayMs = 10000.0

// peakPenalty is the cost of a replica with requests outstanding and no
// latency observed yet, so an unknown replica is tried only when idle.
const peakPenalty = 1e12

// PeakEWMA is power of two choices by peak EWMA cost, as Finagle's
// p2cPeakEwma and Linkerd's balancer: two replicas drawn at random, the
// lower cost winning (the first drawn on a tie), a replica's cost being its
// latency estimate × (outstanding + 1). The estimate jumps to any latency
// above it and otherwise decays towards new latencies with weight
// exp(−Δt/10 s) on the old value (twitter/finagle
// finagle-core/.../loadbalancer/PeakEwma). A replica with requests
// outstanding and no latency yet costs a large penalty. It reads the end
// to end latency of each completion; the rule is the same on both models.
func PeakEWMA() PolicySpec {
	return PolicySpec{Name: "peak-ewma", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		if env.Now == nil {
			return nil, fieldErr("peak-ewma", "no clock", "a run that gives the policy the simulated time (PolicyEnv.Now)")
		}
		return &peakEWMA{rng: env.Rand, now: env.Now, cost: make([]float64, env.Replicas), stamp: make([]float64, env.Replicas)}, nil
	}}
}

type peakEWMA struct {
	rng   *Rand
	now   func() float64
	cost  []float64
	stamp []float64
}

func (p *peakEWMA) load(r Replica) float64 {
	c := p.cost[r.ID-1]
	if c == 0 && r.Outstanding > 0 {
		return peakPenalty + float64(r.Outstanding)
	}
	return xmath.Mul(c, float64(r.Outstanding+1))
}

func (p *peakEWMA) Pick(v *View) (int, error) {
	n := len(v.Eligible)
	if n == 1 {
		return v.Eligible[0].ID, nil
	}
	i, j := twoDistinct(p.rng, n)
	a, b := v.Eligible[i], v.Eligible[j]
	if p.load(b) < p.load(a) {
		return b.ID, nil
	}
	return a.ID, nil
}

func (p *peakEWMA) Observe(int, float64) {}

// ObserveCompletion folds a latency into the replica's peak EWMA.
func (p *peakEWMA) ObserveCompletion(c Completion) {
	i, now := c.Replica-1, p.now()
	if c.LatencyMs > p.cost[i] {
		p.cost[i] = c.LatencyMs
	} else {
		w := math.Exp(-(now - p.stamp[i]) / PeakEWMADecayMs)
		p.cost[i] = xmath.Mul(p.cost[i], w) + xmath.Mul(c.LatencyMs, 1-w)
	}
	p.stamp[i] = now
}

// LeastWorkLeft is an oracle, not a router: it sends each request to the
// replica with the least work left, which needs the true service times no
// router knows (PolicyEnv.WorkLeft). On the specification's model the work
// left is exact (the rest of the request in service and the service times
// waiting); on the serving model it is the sum of each request's demand
// alone, an upper bound blind to what a batch shares and has done. Ties go
// to the lowest id. It is a yardstick: how much better could routing get
// with perfect knowledge of sizes.
func LeastWorkLeft() PolicySpec {
	return PolicySpec{Name: "lwl", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) {
		if env.WorkLeft == nil {
			return nil, fieldErr("lwl", "no oracle", "a run that gives the policy the true work left (PolicyEnv.WorkLeft)")
		}
		return &leastWork{left: env.WorkLeft}, nil
	}}
}

type leastWork struct{ left func(id int) float64 }

func (p *leastWork) Pick(v *View) (int, error) {
	best, bestLeft := 0, math.Inf(1)
	for _, r := range v.Eligible {
		if w := p.left(r.ID); w < bestLeft {
			best, bestLeft = r.ID, w
		}
	}
	return best, nil
}

func (p *leastWork) Observe(int, float64) {}

// workLeft is the oracle of LeastWorkLeft: replica id's remaining work in ms
// at its current speed.
func (s *Simulator) workLeft(id int) float64 {
	r := &s.replicas[id-1]
	k := r.speed()
	if f, ok := r.srv.(*fifoServer); ok {
		if !f.busy {
			return 0
		}
		left := float64(f.done-s.step) * StepMs
		for j := 0; j < f.queue.len(); j++ {
			q := f.queue.at(j)
			left += serviceMs(q.demand, k, q.jitter)
		}
		return left
	}
	s.oracle.sum, s.oracle.k = 0, k
	r.srv.each(s.oracle.visit)
	return s.oracle.sum
}

// workSum adds the demands of the requests a server visits.
type workSum struct {
	sum, k float64
	visit  func(request)
}

func (w *workSum) add(q request) { w.sum += serviceMs(q.demand, w.k, q.jitter) }
