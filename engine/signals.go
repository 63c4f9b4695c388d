package engine

import (
	"math"

	"github.com/routelab/routelab/engine/internal/prefix"
)

// servingRun is what a simulator of the serving model keeps beyond its
// servers: the router's signals — scraped snapshots, probes, its
// approximate prefix index — and the marks of the measurement window.
// Staleness and probes live here, in the engine, so that built-in and
// scripted policies see the same signals.
type servingRun struct {
	c     *ServingConfig
	batch []*batchServer
	// Scrapes: every refresh steps (0: the router reads the replicas live).
	refresh    int64
	nextScrape int64
	scrapedAt  int64
	scraped    []load
	// The router's record of the prompts it sent to each replica, an LRU
	// of the replica cache's size; nil without a prefix cache.
	index []*prefix.Cache
	// Probes: the replicas asked for this decision, drawn from the probe
	// stream; requests wait delay steps for the answers.
	probeRng Rand
	order    []int
	probed   []bool
	delay    int64
	held     heldQueue
	chain    prefix.Chain // the prefix chain of the request being routed (see chainFor)
	// The counters of every replica at the end of the warm-up (nil before),
	// taken at boundary markStep.
	markStep int64
	marks    []counters
}

func newServingRun(scn *Scenario, seed uint64, proto *Protocol) *servingRun {
	c := scn.Serving
	n := scn.Replicas()
	sr := &servingRun{
		c: c, refresh: int64(math.Round(c.Signals.RefreshMs / StepMs)), scraped: make([]load, n),
		order: make([]int, 0, n), probed: make([]bool, n), delay: int64(math.Round(c.Signals.ProbeDelayMs / StepMs)),
		markStep: math.MaxInt64,
	}
	sr.probeRng.Seed(seed, streamProbe)
	if c.PrefixCacheBlocks > 0 && c.Signals.PrefixIndex != PreciseIndex {
		for range n {
			sr.index = append(sr.index, prefix.New(c.PrefixCacheBlocks))
		}
	}
	if proto != nil {
		sr.markStep = ceilStep(proto.Warmup)
	}
	return sr
}

// nextStep is the next boundary at which the serving state has work: a
// scrape, a request whose probes have answered, the warm-up's end.
func (sr *servingRun) nextStep() int64 {
	next := sr.markStep
	if sr.refresh > 0 {
		next = min(next, sr.nextScrape)
	}
	if sr.held.len() > 0 {
		next = min(next, sr.held.headStep())
	}
	return next
}

// boundary scrapes the replicas and marks the warm-up's end when due, after
// the boundary's completions and before its arrivals.
func (sr *servingRun) boundary(now int64) {
	if sr.refresh > 0 && now >= sr.nextScrape {
		for i, b := range sr.batch {
			sr.scraped[i] = b.load(now)
		}
		sr.scrapedAt = now
		sr.nextScrape = now - now%sr.refresh + sr.refresh
	}
	if now == sr.markStep {
		sr.marks = make([]counters, len(sr.batch))
		for i, b := range sr.batch {
			sr.marks[i] = b.counters(now)
		}
		sr.markStep = math.MaxInt64 // done: no more boundaries on its account
	}
}

// probe draws the replicas asked for this decision: Probes distinct ones
// among the eligible (all of them when fewer), uniformly from the probe
// stream. A view for a snapshot asks none (unprobe).
func (sr *servingRun) probe(s *Simulator) {
	k := sr.c.Signals.Probes
	clear(sr.probed)
	if k == 0 {
		return
	}
	sr.order = sr.order[:0]
	for i := range s.replicas {
		if s.isEligible(i + 1) {
			sr.order = append(sr.order, i)
		}
	}
	for j := 0; j < k && j < len(sr.order); j++ {
		x := j + sr.probeRng.Intn(len(sr.order)-j)
		sr.order[j], sr.order[x] = sr.order[x], sr.order[j]
		sr.probed[sr.order[j]] = true
	}
}

// unprobe marks no replica probed, for a view that is not a decision.
func (sr *servingRun) unprobe() { clear(sr.probed) }

// chainFor is the prefix chain whose hits the signals report for req: nil
// for a snapshot (req nil), a request without a shared prefix, or a model
// without a prefix cache. It is computed once per decision, for every
// replica's signals.
func (sr *servingRun) chainFor(req *request) *prefix.Chain {
	if req == nil || req.system+req.carried == 0 || sr.c.PrefixCacheBlocks == 0 {
		return nil
	}
	sr.chain = chainOf(req, int(req.system+req.carried), sr.c.blockTokens())
	return &sr.chain
}

// signals fills replica i's serving signals in out, with the prefix hits
// of ch (see chainFor; 0 when ch is nil), and KVUtil and TokensInFlight
// only when withLoad (0 otherwise: see signalReader).
func (sr *servingRun) signals(now int64, i int, out *Replica, ch *prefix.Chain, withLoad bool) {
	l, age := sr.scraped[i], float64(now-sr.scrapedAt)*StepMs
	switch {
	case (sr.refresh == 0 || sr.probed[i]) && withLoad:
		l, age = sr.batch[i].load(now), 0
	case sr.refresh == 0 || sr.probed[i]:
		l = load{}
		l.waiting, l.running = sr.batch[i].counts()
		age = 0
	case !withLoad:
		l.kvUtil, l.tokens = 0, 0
	}
	out.Waiting, out.InFlight, out.Outstanding = l.waiting, l.running, l.waiting+l.running
	out.KVUtil, out.TokensInFlight = l.kvUtil, l.tokens
	out.SignalAgeMs, out.Probed = age, sr.probed[i]
	out.PrefixHitTokens = 0
	if ch == nil {
		return
	}
	cache := sr.batch[i].cache
	if sr.index != nil {
		cache = sr.index[i]
	}
	out.PrefixHitTokens = cache.Match(*ch) * sr.c.blockTokens()
}

// routed records in the router's index that req's prompt went to replica i.
func (sr *servingRun) routed(i int, req *request) {
	if sr.index != nil && req.system+req.carried > 0 {
		sr.index[i].Touch(chainOf(req, int(req.prompt), sr.c.blockTokens()))
	}
}

// heldQueue holds the requests waiting for their probes' answers, in
// arrival order (which is release order: every request waits as long).
type heldQueue struct {
	reqs  []request
	steps []int64
	head  int
}

func (q *heldQueue) len() int { return len(q.reqs) - q.head }

func (q *heldQueue) headStep() int64 { return q.steps[q.head] }

func (q *heldQueue) push(r request, release int64) {
	if q.head > 64 && q.head*2 > len(q.reqs) { // compact, reusing the arrays
		n := copy(q.reqs, q.reqs[q.head:])
		copy(q.steps, q.steps[q.head:])
		q.reqs, q.steps, q.head = q.reqs[:n], q.steps[:n], 0
	}
	q.reqs = append(q.reqs, r)
	q.steps = append(q.steps, release)
}

func (q *heldQueue) pop() request {
	r := q.reqs[q.head]
	q.head++
	return r
}
