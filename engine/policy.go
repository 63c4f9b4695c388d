package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/routelab/routelab/internal/xmath"
)

// Replica is what a router knows about one replica when it routes a request:
// current queue state, health and statistics of completed requests. It never
// includes a request's sampled service time or the replica's true speed.
//
// The serving model (Scenario.Serving) adds the signals a production router
// scrapes from a replica's metrics; they are zero in the specification's
// model. Waiting, InFlight, Outstanding, KVUtil and TokensInFlight are then
// a snapshot SignalAgeMs old (see SignalConfig.RefreshMs), fresh for a
// replica that answered a probe for this decision (Probed). Health and the
// router's own statistics (the EWMAs, Completed, PrefixHitTokens from the
// router's index) are always current, and eligibility is decided on the
// replica's true state.
type Replica struct {
	ID          int     // 1-based
	Waiting     int     // requests in the waiting queue
	InFlight    int     // requests in service: 0 or 1, or the running batch (up to B) in the serving model
	Outstanding int     // Waiting + InFlight
	Healthy     bool    //
	ServiceEWMA float64 // ŝ: EWMA (α = 0.15) of observed service times, ms; starts at 11
	RewardEWMA  float64 // r̄: EWMA (α = 0.15) of max(0, 1 − s/100); starts at 0.89
	Completed   int     // n: completed requests observed from this replica

	// KVUtil is the fraction of the replica's KV blocks held, 0 to 1 (0
	// without a KV limit).
	KVUtil float64
	// TokensInFlight are the prompt and generated tokens of the requests at
	// the replica, running and waiting.
	TokensInFlight int
	// PrefixHitTokens are the tokens of this request's prompt the replica
	// holds in its prefix cache: by the router's record of what it sent
	// there (approximate index), or by the cache itself (precise index).
	PrefixHitTokens int
	// SignalAgeMs is how old Waiting, InFlight, Outstanding, KVUtil and
	// TokensInFlight are (0: fresh).
	SignalAgeMs float64
	// Probed says the replica answered a probe for this decision.
	Probed bool
}

// View is the router's picture of the cluster at one routing decision.
type View struct {
	Now float64 // ms
	// Replicas holds every replica in id order (Replicas[i].ID == i+1).
	Replicas []Replica
	// Eligible holds the replicas that may take the request (healthy, with
	// room in the waiting queue), in id order; never empty when Pick is called.
	Eligible []Replica
	// TotalCompleted is the sum of Completed over all replicas (T).
	TotalCompleted int
	// Request is the request being routed, as the router sees it.
	Request RequestInfo
}

// RequestInfo is what a router sees of a request: its prompt and the
// serving attributes — never its output length or service time.
type RequestInfo struct {
	Seq       int64   // sequence number, 1-based, in arrival order
	ArrivalMs float64 // arrival time
	// PromptTokens is the prompt's length (0 when the demand model has no
	// tokens).
	PromptTokens int
	// PrefixGroup names the system prompt the prompt starts with (0: none);
	// PrefixTokens is its length.
	PrefixGroup  int
	PrefixTokens int
	// Session names the conversation the request continues (0: none);
	// SessionTokens are the tokens it carries from the session's earlier
	// turns, after the system prompt.
	Session       int
	SessionTokens int
	Priority      Priority
	// Rerouted says the request comes back from a failed replica's queue.
	Rerouted bool
}

// requestInfo is the router's view of r.
func requestInfo(r *request, rerouted bool) RequestInfo {
	var q RequestInfo
	setRequestInfo(&q, r, rerouted)
	return q
}

// setRequestInfo fills q in place: the router's view is rebuilt at every
// decision, and storing the priority (a string) only when it changes spares
// the hot path a write barrier.
func setRequestInfo(q *RequestInfo, r *request, rerouted bool) {
	q.Seq, q.ArrivalMs, q.PromptTokens = r.seq, r.arrival, int(r.prompt)
	q.PrefixGroup, q.PrefixTokens, q.Session, q.SessionTokens = int(r.group), int(r.system), int(r.session), int(r.carried)
	q.Rerouted = rerouted
	if p := priorityOf(r.priority); q.Priority != p {
		q.Priority = p
	}
}

// servingSignals are the serving signals of a view that cost the serving
// model work at every decision: a replica's KV utilisation and tokens in
// flight (from its batch's state at the instant) and its prefix hits for
// the request (a cache lookup).
type servingSignals uint8

const (
	loadSignals   servingSignals = 1 << iota // KVUtil, TokensInFlight
	prefixSignals                            // PrefixHitTokens
	allSignals    = loadSignals | prefixSignals
)

// signalReader is an optional interface of the engine's own policies that
// read only some of the costly serving signals, or none: their decisions'
// views carry only those (the others are 0). Every other policy — a
// scripted one, a production router, a composition — sees them all, and so
// does every snapshot of the view. Which signals a view carries changes no
// result: TestSignalReadersDecideAsWithEverySignal runs each such policy
// both ways.
type signalReader interface {
	servingSignals() servingSignals
}

// Policy routes requests. Pick returns the id of an eligible replica; the
// engine calls it only when at least one replica is eligible (otherwise the
// request is shed). Observe reports each completion's service time (ms) and
// replica id, in completion order.
type Policy interface {
	Pick(v *View) (int, error)
	Observe(replica int, serviceMs float64)
}

// CompletionObserver is an optional interface of a Policy: the engine
// calls ObserveCompletion after Observe for every completion, with the
// request's token-level figures (NaN in the specification's model, which has
// no tokens). It is detected once, when a run starts.
type CompletionObserver interface {
	ObserveCompletion(c Completion)
}

// Completion is a finished request as the router sees it when the reply
// streams back.
type Completion struct {
	Replica   int
	Request   RequestInfo
	ServiceMs float64 // time in service (the batching server: from its first admission to its last token)
	LatencyMs float64 // end to end
	// TTFTMs is the time to the first token; ITLMs the mean gap between
	// tokens and ITLP99Ms the 99th-percentile gap (NaN with one token).
	TTFTMs       float64
	ITLMs        float64
	ITLP99Ms     float64
	OutputTokens int
	CachedTokens int // prompt tokens the replica's prefix cache served
	Preemptions  int
}

// Admitter is an optional interface of a Policy: when a request has an
// eligible replica, the engine asks Admit first, and a request refused is
// shed (counted as shed, its decision marked Rejected). Admission control
// such as llm-d's shedding of sheddable requests under saturation goes
// here. It is detected once, when a run starts.
type Admitter interface {
	Admit(v *View) bool
}

// PolicyEnv is what a policy gets when a run starts.
type PolicyEnv struct {
	Replicas int
	// Rand is the policy's own stream; drawing from it never changes the
	// workload.
	Rand *Rand
	// Now is the simulated time in ms, when the simulator gives it (a
	// policy that changes over time reads it; see Switching).
	Now func() float64
	// WorkLeft is replica id's true remaining work in ms, for oracles only
	// (LeastWorkLeft): no router knows it.
	WorkLeft func(id int) float64
}

// PolicySpec names a policy and makes a fresh instance for every run, so runs
// can proceed in parallel without sharing state. Kind and Params say what the
// policy is, for people reading a spec (its display, a notebook's output);
// the policy itself reads only what New closed over.
type PolicySpec struct {
	Name   string
	New    func(env PolicyEnv) (Policy, error)
	Kind   PolicyKind
	Params []PolicyParam
}

// PolicyKind says how a policy is made.
type PolicyKind string

// The kinds of policy: the engine's own, and the three scripted kinds the
// lab package makes from functions written in a notebook cell. A spec made
// in Go code may leave Kind empty.
const (
	BuiltinPolicy  PolicyKind = "built-in"
	CostPolicy     PolicyKind = "cost function"
	PickerPolicy   PolicyKind = "picker"
	StatefulPolicy PolicyKind = "stateful"
)

// PolicyParam is one parameter of a policy, as people read it: c = 0.35
// (exploration weight).
type PolicyParam struct {
	Name  string
	Value float64
	Unit  string // "" for a pure number
	About string
}

// Router parameters fixed by the specification.
const (
	DefaultAlpha   = 0.15  // EWMA weight of the newest observation
	DefaultCeiling = 100.0 // reward ceiling L, ms
	DefaultC       = 0.35  // Adaptive exploration weight
)

// ewma is an exponentially weighted moving average.
type ewma struct{ v float64 }

func (e *ewma) update(alpha, x float64) { e.v += xmath.Mul(alpha, x-e.v) }

// reward maps a service time onto [0, 1].
func reward(serviceMs, ceiling float64) float64 { return max(0, 1-serviceMs/ceiling) }

// RoundRobin cycles a cursor over the ordered list of eligible replicas. The
// cursor advances only on an accepted assignment (Pick is never called for a
// shed request), so when the eligible set changes, shares change with it.
func RoundRobin() PolicySpec {
	return PolicySpec{Name: "round-robin", Kind: BuiltinPolicy, New: func(PolicyEnv) (Policy, error) { return &roundRobin{}, nil }}
}

type roundRobin struct{ cursor int }

func (p *roundRobin) Pick(v *View) (int, error) {
	id := v.Eligible[p.cursor%len(v.Eligible)].ID
	p.cursor++
	return id, nil
}

func (p *roundRobin) Observe(int, float64) {}

// LeastQueue picks the eligible replica with the fewest outstanding requests
// (waiting + in flight), ties to the lowest id.
func LeastQueue() PolicySpec {
	return PolicySpec{Name: "least-queue", Kind: BuiltinPolicy, New: func(PolicyEnv) (Policy, error) { return leastQueue{}, nil }}
}

type leastQueue struct{}

func (leastQueue) Pick(v *View) (int, error) {
	best := &v.Eligible[0]
	for i := 1; i < len(v.Eligible); i++ {
		if r := &v.Eligible[i]; r.Outstanding < best.Outstanding {
			best = r
		}
	}
	return best.ID, nil
}

func (leastQueue) Observe(int, float64) {}

// LatencyAware minimises (o_i + 1)·ŝ_i, ŝ an EWMA with weight alpha of the
// observed service times (starting at 11 ms), ties to the lowest id.
func LatencyAware(alpha float64) PolicySpec {
	params := []PolicyParam{alphaParam(alpha)}
	name := paramName("latency-aware", params, []PolicyParam{alphaParam(DefaultAlpha)})
	return PolicySpec{Name: name, Kind: BuiltinPolicy, Params: params, New: func(env PolicyEnv) (Policy, error) {
		if err := checkAlpha(alpha); err != nil {
			return nil, err
		}
		p := &latencyAware{alpha: alpha, est: make([]ewma, env.Replicas)}
		for i := range p.est {
			p.est[i].v = ReferenceDemand
		}
		return p, nil
	}}
}

func alphaParam(alpha float64) PolicyParam {
	return PolicyParam{Name: "α", Value: alpha, About: "EWMA weight of the newest observation"}
}

// paramName is a policy's name with the parameters that differ from their
// defaults: "latency-aware(α=0.5)", "adaptive(c=0.1,L=80)".
func paramName(base string, params, defaults []PolicyParam) string {
	var parts []string
	for i, p := range params {
		if p.Value != defaults[i].Value {
			parts = append(parts, fmt.Sprintf("%s=%g", p.Name, p.Value))
		}
	}
	if len(parts) == 0 {
		return base
	}
	return base + "(" + strings.Join(parts, ",") + ")"
}

func checkAlpha(alpha float64) error {
	if !finite(alpha) || alpha <= 0 || alpha > 1 {
		return fieldErr("alpha", alpha, "a number in (0, 1]")
	}
	return nil
}

type latencyAware struct {
	alpha float64
	est   []ewma
}

func (p *latencyAware) Pick(v *View) (int, error) {
	best, bestCost := 0, math.Inf(1)
	for i := range v.Eligible { // by index: a Replica is too big to copy per element
		r := &v.Eligible[i]
		if c := xmath.Mul(float64(r.Outstanding+1), p.est[r.ID-1].v); c < bestCost {
			best, bestCost = r.ID, c
		}
	}
	return best, nil
}

func (p *latencyAware) Observe(id int, s float64) { p.est[id-1].update(p.alpha, s) }

// AdaptiveParams are the Adaptive policy's knobs.
type AdaptiveParams struct {
	C       float64 // exploration weight
	Alpha   float64 // EWMA weight for ŝ and r̄
	Ceiling float64 // L, ms: reward = max(0, 1 − s/L); congestion = o·ŝ/L
}

// DefaultAdaptiveParams are the specification's c = 0.35, α = 0.15, L = 100 ms.
func DefaultAdaptiveParams() AdaptiveParams {
	return AdaptiveParams{C: DefaultC, Alpha: DefaultAlpha, Ceiling: DefaultCeiling}
}

// Validate checks the parameters: c finite and >= 0, α in (0, 1], L finite
// and > 0.
func (a AdaptiveParams) Validate() error {
	if !finite(a.C) || a.C < 0 {
		return fieldErr("adaptive.c", a.C, "a finite number >= 0")
	}
	if err := checkAlpha(a.Alpha); err != nil {
		return err
	}
	return checkPositive("adaptive.ceiling_ms", a.Ceiling)
}

// Adaptive scores each eligible replica as
//
//	r̄_i + c·sqrt(ln(max(T,1)) / max(n_i,1)) − o_i·ŝ_i/L
//
// and picks the highest, ties to the lowest id: exploitation, exploration
// and congestion avoidance. r̄ starts at 1 − 11/L and ŝ at 11 ms, so before
// any reward is clipped r̄ = 1 − ŝ/L.
func Adaptive(p AdaptiveParams) PolicySpec {
	name := paramName("adaptive", p.params(), DefaultAdaptiveParams().params())
	return PolicySpec{Name: name, Kind: BuiltinPolicy, Params: p.params(), New: func(env PolicyEnv) (Policy, error) {
		if err := p.Validate(); err != nil {
			return nil, err
		}
		a := &adaptive{p: p, s: make([]ewma, env.Replicas), r: make([]ewma, env.Replicas), n: make([]int, env.Replicas)}
		for i := range a.s {
			a.s[i].v = ReferenceDemand
			a.r[i].v = 1 - ReferenceDemand/p.Ceiling
		}
		return a, nil
	}}
}

// params lists the parameters in the order of Adaptive's name.
func (a AdaptiveParams) params() []PolicyParam {
	return []PolicyParam{
		{Name: "c", Value: a.C, About: "exploration weight"},
		alphaParam(a.Alpha),
		{Name: "L", Value: a.Ceiling, Unit: "ms", About: "reward ceiling"},
	}
}

type adaptive struct {
	p    AdaptiveParams
	s, r []ewma
	n    []int
	t    int
}

// score is the Adaptive score of replica r given ln(max(T,1)).
func (a *adaptive) score(r *Replica, lnT float64) float64 {
	i := r.ID - 1
	explore := xmath.Mul(a.p.C, math.Sqrt(lnT/float64(max(a.n[i], 1))))
	congestion := xmath.Mul(float64(r.Outstanding), a.s[i].v) / a.p.Ceiling
	return a.r[i].v + explore - congestion
}

func (a *adaptive) Pick(v *View) (int, error) {
	lnT := xmath.Log(float64(max(a.t, 1)))
	best, bestScore := 0, math.Inf(-1)
	for i := range v.Eligible {
		r := &v.Eligible[i]
		if sc := a.score(r, lnT); sc > bestScore {
			best, bestScore = r.ID, sc
		}
	}
	return best, nil
}

func (a *adaptive) Observe(id int, s float64) {
	a.s[id-1].update(a.p.Alpha, s)
	a.r[id-1].update(a.p.Alpha, reward(s, a.p.Ceiling))
	a.n[id-1]++
	a.t++
}

// WeightedRoundRobin is smooth weighted round robin (nginx's): each
// eligible replica's weight is its estimated service rate 1/ŝ_i, ŝ an EWMA
// with weight alpha of its observed service times (starting at 11 ms). At
// each pick every eligible replica's credit grows by its weight, the
// replica with the most credit wins (ties to the lowest id) and pays back
// the eligible weights' total. Over any stretch with fixed weights each
// replica gets its weight's share, interleaved rather than in runs; unlike
// Latency Aware it ignores queue lengths.
func WeightedRoundRobin(alpha float64) PolicySpec {
	params := []PolicyParam{alphaParam(alpha)}
	name := paramName("weighted-rr", params, []PolicyParam{alphaParam(DefaultAlpha)})
	return PolicySpec{Name: name, Kind: BuiltinPolicy, Params: params, New: func(env PolicyEnv) (Policy, error) {
		if err := checkAlpha(alpha); err != nil {
			return nil, err
		}
		p := &weightedRR{alpha: alpha, est: make([]ewma, env.Replicas), credit: make([]float64, env.Replicas)}
		for i := range p.est {
			p.est[i].v = ReferenceDemand
		}
		return p, nil
	}}
}

type weightedRR struct {
	alpha  float64
	est    []ewma
	credit []float64
}

func (p *weightedRR) Pick(v *View) (int, error) {
	best, total := -1, 0.0
	for i := range v.Eligible {
		r := &v.Eligible[i]
		i := r.ID - 1
		w := 1 / p.est[i].v
		p.credit[i] += w
		total += w
		if best < 0 || p.credit[i] > p.credit[best] {
			best = i
		}
	}
	p.credit[best] -= total
	return best + 1, nil
}

func (p *weightedRR) Observe(id int, s float64) { p.est[id-1].update(p.alpha, s) }

// Random picks an eligible replica uniformly, from the policy's own stream.
func Random() PolicySpec {
	return PolicySpec{Name: "random", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) { return &random{rng: env.Rand}, nil }}
}

type random struct{ rng *Rand }

func (p *random) Pick(v *View) (int, error) { return v.Eligible[p.rng.Intn(len(v.Eligible))].ID, nil }
func (p *random) Observe(int, float64)      {}

// PowerOfTwo samples two distinct eligible replicas uniformly (from the
// policy's own stream) and picks the one with fewer outstanding requests,
// ties to the lower id.
func PowerOfTwo() PolicySpec {
	return PolicySpec{Name: "p2c", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) { return &powerOfTwo{rng: env.Rand}, nil }}
}

type powerOfTwo struct{ rng *Rand }

// twoDistinct draws two distinct indices below n (n >= 2), uniformly, with
// two draws: the second among the n − 1 others.
func twoDistinct(rng *Rand, n int) (i, j int) {
	i = rng.Intn(n)
	j = rng.Intn(n - 1)
	if j >= i {
		j++
	}
	return i, j
}

func (p *powerOfTwo) Pick(v *View) (int, error) {
	n := len(v.Eligible)
	if n == 1 {
		return v.Eligible[0].ID, nil
	}
	i, j := twoDistinct(p.rng, n)
	a, b := &v.Eligible[i], &v.Eligible[j]
	if b.Outstanding < a.Outstanding || (b.Outstanding == a.Outstanding && b.ID < a.ID) {
		a = b
	}
	return a.ID, nil
}

func (p *powerOfTwo) Observe(int, float64) {}

// JoinIdleQueue sends a request to an idle replica (nothing waiting or in
// service) when there is one, the lowest id among them, and otherwise to an
// eligible replica drawn uniformly from the policy's own stream: the
// dispatcher of Lu, Xie, Kliot, Geller, Larus and Greenberg, "Join-Idle-Queue:
// a novel load balancing algorithm for dynamically scalable web services",
// Performance Evaluation 68(11), 2011, with one dispatcher that knows which
// replicas are idle.
func JoinIdleQueue() PolicySpec {
	return PolicySpec{Name: "jiq", Kind: BuiltinPolicy, New: func(env PolicyEnv) (Policy, error) { return &joinIdle{rng: env.Rand}, nil }}
}

type joinIdle struct{ rng *Rand }

func (p *joinIdle) Pick(v *View) (int, error) {
	for i := range v.Eligible {
		r := &v.Eligible[i]
		if r.Outstanding == 0 {
			return r.ID, nil
		}
	}
	return v.Eligible[p.rng.Intn(len(v.Eligible))].ID, nil
}

func (p *joinIdle) Observe(int, float64) {}

// ShortestExpectedDelay picks the eligible replica with the least expected
// delay (outstanding + 1) × mean service time, from service times the
// operator knows (meanMs[i] for replica i+1; none: all equal, which is
// joining the shortest queue), ties to the lowest id: the classic rule of
// heterogeneous server farms (Banawan and Zahorjan, "Load sharing in
// heterogeneous queueing systems", IEEE INFOCOM 1989). Latency Aware is the
// same rule with estimated service times.
func ShortestExpectedDelay(meanMs ...float64) PolicySpec {
	params := make([]PolicyParam, len(meanMs))
	parts := make([]string, len(meanMs))
	for i, m := range meanMs {
		params[i] = PolicyParam{Name: fmt.Sprintf("s%d", i+1), Value: m, Unit: "ms", About: fmt.Sprintf("replica %d's mean service time", i+1)}
		parts[i] = fmt.Sprintf("s%d=%g", i+1, m)
	}
	name := "sed"
	if len(meanMs) > 0 {
		name = "sed(" + strings.Join(parts, ",") + ")" // as paramName writes parameters
	}
	rates := slices.Clone(meanMs)
	return PolicySpec{Name: name, Kind: BuiltinPolicy, Params: params, New: func(env PolicyEnv) (Policy, error) {
		if len(rates) != 0 && len(rates) != env.Replicas {
			return nil, fieldErr("sed.mean_ms", len(rates), fmt.Sprintf("none, or one mean service time per replica (%d)", env.Replicas))
		}
		for i, m := range rates {
			if err := checkUpTo(fmt.Sprintf("sed.mean_ms[%d]", i), m, MaxMs); err != nil {
				return nil, err
			}
		}
		return &shortestDelay{mean: rates}, nil
	}}
}

type shortestDelay struct{ mean []float64 }

func (p *shortestDelay) Pick(v *View) (int, error) {
	best, bestCost := 0, math.Inf(1)
	for i := range v.Eligible {
		r := &v.Eligible[i]
		c := float64(r.Outstanding + 1)
		if p.mean != nil {
			c = xmath.Mul(c, p.mean[r.ID-1])
		}
		if c < bestCost {
			best, bestCost = r.ID, c
		}
	}
	return best, nil
}

func (p *shortestDelay) Observe(int, float64) {}

// LeastKV picks the eligible replica with the lowest KV-cache utilisation,
// then the fewest outstanding requests, then the lowest id: a reference
// router for the serving model's KV signal (in the specification's model
// every replica reports 0, and it is Least Queue).
func LeastKV() PolicySpec {
	return PolicySpec{Name: "least-kv", Kind: BuiltinPolicy, New: func(PolicyEnv) (Policy, error) { return leastKV{}, nil }}
}

type leastKV struct{}

func (leastKV) Pick(v *View) (int, error) {
	best := &v.Eligible[0]
	for i := 1; i < len(v.Eligible); i++ {
		if r := &v.Eligible[i]; r.KVUtil < best.KVUtil || (r.KVUtil == best.KVUtil && r.Outstanding < best.Outstanding) {
			best = r
		}
	}
	return best.ID, nil
}

func (leastKV) Observe(int, float64) {}

// PolicyEntry is one record of the built-in policy registry: everything
// routelab says about a built-in is read from it (the CLI's names, lab's
// function, the docs' tables, the figures' style).
type PolicyEntry struct {
	Name   string // the name of --policies, records and lab.Builtin
	Family string // one of PolicyFamilies
	About  string // the rule in a few words
	// LabFunc is the lab function that makes the policy with its defaults
	// (lab.P2C for "p2c"): the registry's name spelled as a Go identifier.
	LabFunc string
	Style   PolicyStyle
	// Spec makes the policy with its defaults.
	Spec func() PolicySpec
}

// PolicyStyle is how figures draw a built-in, so that it looks the same in
// every figure: its colour, 1 to 12, of the figures' palette (0: none, an
// incomplete record), and, for the policies figures show most, a marker and
// a dash of its own (empty: the figure gives one that no other policy of it
// has).
type PolicyStyle struct {
	Colour int
	Marker string // circle, square, triangle, diamond, triangle-down, cross, plus or pentagon
	Dash   string // solid, dashed, dotted, dash-dot, long, dash-dot-dot or long-dot
}

// PolicyFamilies are the families of built-in policies: the specification's
// four, the classic load balancers, production LLM routers, research
// routers, and oracles that read what no router can know.
func PolicyFamilies() []string {
	return []string{"specification", "classic", "production", "research", "oracle"}
}

// BuiltinPolicies is the registry: the one list of built-in policies, in
// the order routelab lists them.
func BuiltinPolicies() []PolicyEntry {
	const spec, classic, production, research, oracle = "specification", "classic", "production", "research", "oracle"
	fixed := func(colour int, marker, dash string) PolicyStyle {
		return PolicyStyle{Colour: colour, Marker: marker, Dash: dash}
	}
	colour := func(colour int) PolicyStyle { return PolicyStyle{Colour: colour} }
	return []PolicyEntry{
		{"round-robin", spec, "cursor over the eligible replicas", "RoundRobin", fixed(1, "circle", "dashed"), RoundRobin},
		{"least-queue", spec, "fewest outstanding requests", "LeastQueue", fixed(2, "square", "dotted"), LeastQueue},
		{"latency-aware", spec, "minimise (outstanding+1)·EWMA service time", "LatencyAware", fixed(3, "triangle", "dash-dot"), func() PolicySpec { return LatencyAware(DefaultAlpha) }},
		{"adaptive", spec, "UCB-inspired score, c = 0.35", "Adaptive", fixed(4, "diamond", "solid"), func() PolicySpec { return Adaptive(DefaultAdaptiveParams()) }},
		{"random", classic, "uniform over eligible replicas", "Random", fixed(5, "triangle-down", "long"), Random},
		{"p2c", classic, "power of two choices by outstanding requests", "P2C", fixed(6, "cross", "dash-dot-dot"), PowerOfTwo},
		{"weighted-rr", classic, "smooth weighted round robin, weights 1/EWMA service time", "WeightedRR", fixed(7, "plus", "long-dot"), func() PolicySpec { return WeightedRoundRobin(DefaultAlpha) }},
		{"jiq", classic, "an idle replica if any, else uniform (join-idle-queue)", "JIQ", colour(7), JoinIdleQueue},
		{"sed", classic, "shortest expected delay with known (here equal) service times", "SED", colour(1), func() PolicySpec { return ShortestExpectedDelay() }},
		{"least-kv", classic, "lowest KV-cache utilisation, then fewest outstanding", "LeastKV", colour(3), LeastKV},
		{"llm-d", production, "llm-d's default profile: 2·queue + 2·KV + 3·prefix scores, ties at random", "LLMD", colour(8), LLMD},
		{"llm-d-affinity", production, "llm-d's prefix-affinity filter (≥ 0.8 match) before 2·queue + 2·KV", "LLMDAffinity", colour(9), LLMDAffinity},
		{"llm-d-shed", production, "llm-d's default profile with its probabilistic admitter for sheddable requests", "LLMDShed", colour(10), LLMDShed},
		{"vllm-dp", production, "vLLM's data-parallel balancer: lowest 4·waiting + running", "VLLMDP", colour(11), VLLMDataParallel},
		{"vllm-prefix", production, "vLLM production stack: random among the longest prefix matches", "VLLMPrefix", colour(12), VLLMPrefixAware},
		{"sglang", production, "SGLang cache-aware: best match unless load is imbalanced, else smallest tree", "SGLang", colour(9), SGLang},
		{"dynamo", production, "Dynamo KV router: lowest prefill blocks + decode blocks", "Dynamo", colour(10), func() PolicySpec { return DynamoKV(1) }},
		{"ray-p2c", production, "Ray Serve: power of two under max_ongoing_requests (5)", "RayP2C", colour(11), func() PolicySpec { return RayPowerOfTwo(RayServeDefaultMaxOngoing) }},
		{"ray-prefix", production, "Ray Serve prefix affinity: best match when balanced, else power of two", "RayPrefix", colour(1), RayPrefixAffinity},
		{"aibrix", production, "AIBrix prefix-cache: best match within mean + 2σ running, else fewest running", "AIBrix", colour(3), AIBrix},
		{"prequal", research, "Prequal: lowest latency among cold replicas (in flight ≤ 0.84 quantile)", "Prequal", colour(4), Prequal},
		{"c3", research, "C3: lowest R̄ + q̂³·T̄ with concurrency compensation", "C3", colour(12), C3},
		{"peak-ewma", research, "power of two by peak-EWMA latency × (outstanding + 1)", "PeakEWMA", colour(5), PeakEWMA},
		{"lwl", oracle, "least work left — an oracle that knows true service times", "LWL", colour(6), LeastWorkLeft},
	}
}

// builtinPolicy returns the registry's record of a built-in.
func builtinPolicy(name string) (PolicyEntry, bool) {
	for _, d := range BuiltinPolicies() {
		if d.Name == name {
			return d, true
		}
	}
	return PolicyEntry{}, false
}

// SpecificationPolicies are the four policies the specification compares.
func SpecificationPolicies() []PolicySpec {
	return []PolicySpec{RoundRobin(), LeastQueue(), LatencyAware(DefaultAlpha), Adaptive(DefaultAdaptiveParams())}
}

// PolicyNames lists the built-in policies.
func PolicyNames() []string {
	var out []string
	for _, d := range BuiltinPolicies() {
		out = append(out, d.Name)
	}
	return out
}

// PolicyAbout describes a built-in policy in a few words.
func PolicyAbout(name string) string {
	d, _ := builtinPolicy(name)
	return d.About
}

// PolicyByName returns a built-in policy.
func PolicyByName(name string) (PolicySpec, error) {
	if d, ok := builtinPolicy(name); ok {
		return d.Spec(), nil
	}
	return PolicySpec{}, UnknownName("policy", name, PolicyNames(), "")
}

// The specification's policies and the classic ones read queue lengths and
// their own statistics, no costly serving signal; least-kv reads the KV
// utilisation (see signalReader).
func (*roundRobin) servingSignals() servingSignals    { return 0 }
func (leastQueue) servingSignals() servingSignals     { return 0 }
func (*latencyAware) servingSignals() servingSignals  { return 0 }
func (*adaptive) servingSignals() servingSignals      { return 0 }
func (*weightedRR) servingSignals() servingSignals    { return 0 }
func (*random) servingSignals() servingSignals        { return 0 }
func (*powerOfTwo) servingSignals() servingSignals    { return 0 }
func (*joinIdle) servingSignals() servingSignals      { return 0 }
func (*shortestDelay) servingSignals() servingSignals { return 0 }
func (leastKV) servingSignals() servingSignals        { return loadSignals }
