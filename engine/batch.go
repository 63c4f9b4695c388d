package engine

import (
	"math"

	"github.com/routelab/routelab/engine/internal/prefix"
	"github.com/routelab/routelab/internal/xmath"
)

// batchServer is a replica of the serving model: continuous batching over a
// KV cache, with a prefix cache (docs/serving.md).
//
// Up to B requests run at once. Each iteration, every running request that
// has finished its prefill decodes one token; prompts are prefilled whole
// (or in chunks within the token budget), the last prefill iteration
// producing the first token; waiting requests join at the start of an
// iteration if a slot, the budget and the KV blocks allow, in queue order.
// An iteration costs, at reference speed,
//
//	O·J̄ + Σ_i J_i·(base·[i starts] + prefill·[i's prefill tokens] + (decode − O)·[i makes a token])
//
// where O is the batch's shared overhead, J_i request i's jitter and J̄
// their mean, and base, prefill and decode the token model's coefficients:
// a request alone costs exactly its demand × jitter, as in the
// specification, and a batch shares O.
//
// Time inside the server is continuous. The server runs spans (span.go):
// stretches of iterations with the same requests, evaluated in closed form.
// A span ends at the first completion, when the KV cache would overflow, or
// — cut short — at the first iteration after a request arrives while a slot
// is free. When the batch empties, the server idles until the next
// boundary, so a request running alone starts and completes exactly as in
// the FIFO server, and B = 1 with no KV limit and no prefix cache is the
// specification's model. Decoding requests are followed through the
// iteration counter g and the sums of decodeSet, so a span's cost does not
// grow with the batch.
type batchServer struct {
	c       *ServingConfig
	tok     TokenModel // coefficients: what a request costs alone
	bs      int        // tokens per block
	budget  int        // tokens per iteration
	kvCap   int64      // blocks
	cache   *prefix.Cache
	queue   waitQueue
	paused  []memberState // progress of preempted requests, by index
	free    []int32       // free indexes of paused
	pausedG int           // tokens made by the paused requests
	pool    []member      // the batch's slots
	slots   []int32       // free slots
	run     []int32       // the batch, in admission order
	fill    []int32       // those still prefilling, in admission order
	planned []int32       // those starting or prefilling in the span's first iteration
	dec     decodeSet
	g       int64 // iterations run so far
	sumJ    float64
	log     spanLog
	sp      span
	busy    bool
	dueStep int64
	order   int64 // admissions so far
	out     []completion
	acc     counters
}

// memberState is what a request has done so far, kept across preemptions.
type memberState struct {
	generated   int // tokens made, as of its last stay in a batch
	starts      int // admissions
	prefilled   int // prompt tokens computed, over all admissions
	firstTok    float64
	lastTok     float64 // ms
	firstSeen   int64   // boundary at which the first token is seen
	gaps        gapTop
	service     float64 // ms spent in a batch
	cached      int     // prompt tokens the prefix cache served
	prefixed    int     // shared-prefix tokens asked of the cache
	preemptions int
}

// member is a running request.
type member struct {
	req         request
	st          memberState
	slot        int32
	order       int64   // admission order
	joined      instant // when this stay began
	prefillLeft int     // tokens to compute before its next token
	kv          int     // tokens in its KV while prefilling (cached and computed)
	fresh       bool    // its prefill has not started: the next iteration pays base
	// Its work in the span's first iteration (while prefilling).
	start1, pre1, tok1 int
	// Once decoding (see decodeSet): the count at its first token of this
	// stay, its tokens and KV tokens then, its completion count, its place
	// in the heap and the span of that first token.
	decoding bool
	gf, fin  int64
	tf, kvf  int
	heapIdx  int
	spanF    int64
}

// counters are a replica's cumulative serving figures.
type counters struct {
	preemptions int64
	cached      int64   // prompt tokens served from the prefix cache
	prefixed    int64   // shared-prefix tokens asked of it
	runningMs   float64 // ∫ running requests dt, ms
	kvBlockMs   float64 // ∫ KV blocks held dt, block·ms
}

func newBatchServer(s *Scenario) *batchServer {
	c := s.Serving
	b := &batchServer{
		c: c, tok: s.Demand.Tokens, bs: c.blockTokens(), budget: math.MaxInt, kvCap: math.MaxInt64,
		queue: newWaitQueue(s.QueueCap+c.MaxBatch, c.Queue == PriorityQueue),
		pool:  make([]member, c.MaxBatch), run: make([]int32, 0, c.MaxBatch),
		fill: make([]int32, 0, c.MaxBatch), planned: make([]int32, 0, c.MaxBatch),
		dec: newDecodeSet(c.blockTokens(), c.MaxBatch), dueStep: math.MaxInt64,
	}
	for i := c.MaxBatch - 1; i >= 0; i-- {
		b.slots = append(b.slots, int32(i))
	}
	if c.TokenBudget > 0 {
		b.budget = c.TokenBudget
	}
	if c.KVBlocks > 0 {
		b.kvCap = int64(c.KVBlocks)
	}
	if c.PrefixCacheBlocks > 0 {
		b.cache = prefix.New(c.PrefixCacheBlocks)
	}
	return b
}

func (b *batchServer) admit(req request, now int64, k float64) {
	b.queue.push(waiting{req: req, paused: -1})
	switch {
	case !b.busy:
		b.begin(instant{step: now}, k)
	case len(b.run) < b.c.MaxBatch:
		b.cut(now) // it may join at the next iteration
	}
}

func (b *batchServer) due() int64 { return b.dueStep }

// restart empties the prefix cache of a replica back from a failure, as a
// restarted server's; the router's approximate index does not know it.
func (b *batchServer) restart() {
	if b.cache != nil {
		b.cache = prefix.New(b.c.PrefixCacheBlocks)
	}
}

// step ends the spans due by now, reports their completions, and begins
// the next ones; a batch that empties waits for this boundary.
func (b *batchServer) step(now int64, k float64) []completion {
	b.out = b.out[:0]
	for b.busy && b.dueStep <= now {
		end := b.sp.endInstant()
		b.finishSpan()
		if len(b.run) == 0 {
			end = instant{step: now}
		}
		b.begin(end, k)
	}
	return b.out
}

func (b *batchServer) popWaiting() (request, bool) {
	if b.queue.len() == 0 {
		return request{}, false
	}
	w := b.queue.pop()
	if w.paused >= 0 { // it starts over where it is sent
		b.pausedG -= b.paused[w.paused].generated
		b.free = append(b.free, w.paused)
	}
	return w.req, true
}

func (b *batchServer) each(visit func(request)) {
	for _, s := range b.run {
		visit(b.pool[s].req)
	}
	b.queue.each(func(w *waiting) { visit(w.req) })
}

// made is the tokens m has made as of iteration count g.
func (m *member) made(g int64) int {
	if !m.decoding {
		return m.st.generated
	}
	return m.tf + int(g-m.gf)
}

// begin starts a span at instant at: it schedules the first iteration
// (preempting if the KV cache is short, then admitting), turns the requests
// whose prefill completes in it into decoding ones, and evaluates how long
// the span runs.
func (b *batchServer) begin(at instant, k float64) {
	fillBlocks := b.schedule(at)
	b.busy = len(b.run) > 0
	if !b.busy {
		b.dueStep = math.MaxInt64
		return
	}
	fillTokens := 0
	kept := b.fill[:0]
	for _, s := range b.fill {
		m := &b.pool[s]
		if m.tok1 == 0 {
			kept = append(kept, s)
			fillTokens += int(m.req.prompt) + m.st.generated
			continue
		}
		m.decoding, m.gf, m.tf, m.kvf = true, b.g+1, m.st.generated+1, m.kv+m.pre1+1
		m.fin, m.spanF = m.gf+int64(m.req.output)-int64(m.tf), b.log.next
		b.dec.add(m, b.pool)
		fillBlocks -= int64(ceilDiv(m.kvf, b.bs)) // the decoding set holds them now

	}
	b.fill = kept
	b.sp.start(b, at, k, fillBlocks, fillTokens)
	b.dueStep = b.sp.dueStep()
}

// schedule plans the next iteration: running requests first (decodes, then
// unfinished prefills in admission order), preempting the lowest-priority,
// latest-admitted request while their KV blocks do not fit; then, if nothing
// was preempted (as vLLM's scheduler), waiting requests in queue order while
// a slot, the token budget and the KV cache allow. It returns the KV blocks
// the prefilling requests hold in the iteration.
func (b *batchServer) schedule(at instant) int64 {
	preempted := false
	for {
		budget, fillBlocks := b.assign()
		if b.dec.blocks(b.g+1)+fillBlocks <= b.kvCap {
			if !preempted {
				fillBlocks = b.admitWaiting(at, budget, fillBlocks)
			}
			return fillBlocks
		}
		b.preempt(b.victim(), at)
		preempted = true
	}
}

// assign plans the prefilling requests' work in the next iteration, after
// every decoding request's token, and returns the budget left and the KV
// blocks the prefilling requests then hold.
func (b *batchServer) assign() (int, int64) {
	budget := b.budget - b.dec.n
	var blocks int64
	b.planned = b.planned[:0]
	for _, s := range b.fill {
		m := &b.pool[s]
		budget -= b.plan(m, budget)
		blocks += int64(ceilDiv(m.kv+m.pre1+m.tok1, b.bs))
	}
	return budget, blocks
}

// plan schedules m's prefill within budget and returns the tokens it takes:
// its whole remaining prefill, or with chunked prefill as much as fits.
func (b *batchServer) plan(m *member, budget int) int {
	chunk := min(m.prefillLeft, max(budget, 0))
	if chunk < m.prefillLeft && !b.c.ChunkedPrefill {
		chunk = 0
	}
	m.start1, m.pre1, m.tok1 = 0, chunk, 0
	if chunk > 0 && m.fresh {
		m.start1 = 1
	}
	if chunk == m.prefillLeft {
		m.tok1 = 1
	}
	if chunk > 0 {
		b.planned = append(b.planned, m.slot)
	}
	return chunk
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// victim is the running request to preempt: the lowest class, and within
// it the latest admitted.
func (b *batchServer) victim() *member {
	v := &b.pool[b.run[len(b.run)-1]]
	for i := len(b.run) - 2; i >= 0; i-- {
		if m := &b.pool[b.run[i]]; m.req.priority < v.req.priority {
			v = m
		}
	}
	return v
}

// preempt sends m back to the front of the queue at instant at, dropping
// its KV (vLLM's recompute preemption): it keeps the tokens it made, and
// redoes their prefill when readmitted.
func (b *batchServer) preempt(m *member, at instant) {
	b.leave(m, at)
	m.st.preemptions++
	b.acc.preemptions++
	idx := b.pause(m.st)
	b.queue.pushFront(waiting{req: m.req, paused: idx})
	b.release(m)
}

// leave closes m's stay in the batch at instant at: the tokens it made,
// their gaps (from the span log), its time in the batch.
func (b *batchServer) leave(m *member, at instant) {
	if m.decoding {
		m.st.generated = m.made(b.g)
		if m.st.gaps.k == 1 { // the p99 is the largest gap
			top := math.Inf(-1)
			if m.spanF < b.log.next {
				if r := b.log.at(m.spanF); r.iters > 1 { // its first span: only the later iterations' gaps
					top = r.tau
				}
				top = max(top, b.log.largestFrom(m.spanF+1))
			}
			if top > math.Inf(-1) {
				m.st.gaps.add(top, 1)
			}
		} else {
			for s := m.spanF; s < b.log.next; s++ {
				r := b.log.at(s)
				if s > m.spanF {
					m.st.gaps.add(r.t1, 1)
				}
				m.st.gaps.add(r.tau, r.iters-1)
			}
		}
		m.st.lastTok = at.ms()
		b.dec.remove(m, b.pool)
	}
	m.st.service += float64(at.step-m.joined.step)*StepMs + (at.off - m.joined.off)
}

// release takes m out of the batch and frees its slot.
func (b *batchServer) release(m *member) {
	remove := func(list []int32) []int32 {
		for i, s := range list {
			if s == m.slot {
				return append(list[:i], list[i+1:]...)
			}
		}
		return list
	}
	b.run = remove(b.run)
	if !m.decoding {
		b.fill = remove(b.fill)
	}
	b.sumJ -= m.req.jitter
	if len(b.run) == 0 {
		b.sumJ = 0
	}
	b.slots = append(b.slots, m.slot)
}

func (b *batchServer) pause(st memberState) int32 {
	b.pausedG += st.generated
	if n := len(b.free); n > 0 {
		idx := b.free[n-1]
		b.free = b.free[:n-1]
		b.paused[idx] = st
		return idx
	}
	b.paused = append(b.paused, st)
	return int32(len(b.paused) - 1)
}

// admitWaiting admits requests from the head of the queue at instant at
// while they fit, and returns the prefilling requests' KV blocks.
func (b *batchServer) admitWaiting(at instant, budget int, fillBlocks int64) int64 {
	kv := b.dec.blocks(b.g+1) + fillBlocks
	for len(b.run) < b.c.MaxBatch && b.queue.len() > 0 && budget > 0 {
		w := b.queue.head()
		slot := b.slots[len(b.slots)-1]
		m := &b.pool[slot]
		*m = member{req: w.req, slot: slot, fresh: true, joined: at}
		if w.paused >= 0 {
			m.st = b.paused[w.paused]
		} else {
			m.st.gaps.k = gapsKept(int(m.req.output))
		}
		hit := b.lookup(m)
		m.prefillLeft = int(m.req.prompt) + m.st.generated - hit
		m.kv = hit
		mark := len(b.planned)
		take := b.plan(m, budget)
		need := int64(ceilDiv(m.kv+m.pre1+m.tok1, b.bs))
		if take == 0 || kv+need > b.kvCap {
			b.planned = b.planned[:mark]
			return fillBlocks
		}
		b.queue.pop()
		if w.paused >= 0 {
			b.pausedG -= m.st.generated
			b.free = append(b.free, w.paused)
		}
		b.slots = b.slots[:len(b.slots)-1]
		m.order = b.order
		b.order++
		m.st.cached += hit
		m.st.prefixed += int(m.req.system + m.req.carried)
		b.acc.cached += int64(hit)
		b.acc.prefixed += int64(m.req.system + m.req.carried)
		b.run = append(b.run, slot)
		b.fill = append(b.fill, slot)
		b.sumJ += m.req.jitter
		budget -= take
		kv += need
		fillBlocks += need
	}
	return fillBlocks
}

// lookup is how many of m's prompt tokens the prefix cache holds (at least
// one token is always computed, to produce the next one).
func (b *batchServer) lookup(m *member) int {
	if b.cache == nil || m.req.system+m.req.carried == 0 {
		return 0
	}
	hit := b.cache.Match(chainOf(&m.req, int(m.req.system+m.req.carried), b.bs)) * b.bs
	return min(hit, int(m.req.prompt)+m.st.generated-1)
}

// chainOf is the prefix chain of r's first upto tokens: its group's system
// prompt, then its session's blocks (full blocks only).
func chainOf(r *request, upto, bs int) prefix.Chain {
	var ch prefix.Chain
	gb := 0
	if r.group != 0 {
		gb = int(r.system) / bs
		ch[0] = prefix.Segment{Key: segmentKey(1, r.group), Blocks: gb}
	}
	if r.session != 0 {
		ch[1] = prefix.Segment{Key: segmentKey(2, r.session), Blocks: max(0, upto/bs-gb)}
	}
	return ch
}

// segmentKey names a group's (kind 1) or a session's (kind 2) blocks.
func segmentKey(kind uint64, id int32) uint64 {
	x := kind<<40 | uint64(uint32(id))
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return (x ^ (x >> 31)) | 1
}

// finishSpan applies the span that ends now: the first iteration's prefills
// and first tokens, the iteration count and the span log, the integrals,
// and the requests it completed.
func (b *batchServer) finishSpan() {
	sp := &b.sp
	b.acc.runningMs += float64(len(b.run)) * sp.end
	b.acc.kvBlockMs += sp.blockMs(b, sp.end)
	for _, s := range b.planned {
		m := &b.pool[s]
		m.st.starts += m.start1
		m.st.prefilled += m.pre1
		m.fresh = false
		if !m.decoding {
			m.prefillLeft -= m.pre1
			m.kv += m.pre1
			continue
		}
		first := sp.abs(sp.t1) // its first token of this stay
		if m.tf == 1 {
			m.st.firstTok, m.st.firstSeen = first, sp.at.step+serviceSteps(sp.at.off+sp.t1)
		} else {
			m.st.gaps.add(first-m.st.lastTok, 1)
		}
		if b.cache != nil {
			b.cache.Touch(chainOf(&m.req, int(m.req.prompt), b.bs))
		}
	}
	b.planned = b.planned[:0]
	b.g += int64(sp.iters)
	b.log.append(spanRecord{t1: sp.t1, tau: sp.tau, iters: sp.iters}, b.oldestSpan)
	end := sp.endRaw()
	for {
		m, fin := b.dec.first(b.pool)
		if fin != b.g {
			break
		}
		b.complete(m, end)
	}
}

// oldestSpan is the oldest span a decoding request still needs.
func (b *batchServer) oldestSpan() int64 {
	oldest := b.log.next
	for _, s := range b.run {
		if m := &b.pool[s]; m.decoding {
			oldest = min(oldest, m.spanF)
		}
	}
	return oldest
}

// complete reports m, which made its last token at instant at.
func (b *batchServer) complete(m *member, at instant) {
	b.leave(m, at)
	st := &m.st
	c := completion{req: m.req, service: st.service, serving: servedStats{
		firstToken: st.firstSeen, itlMean: math.NaN(), itlP99: math.NaN(),
		cached: st.cached, prefixed: st.prefixed, preemptions: st.preemptions,
	}}
	if st.generated > 1 {
		c.serving.itlMean = (st.lastTok - st.firstTok) / float64(st.generated-1)
		c.serving.itlP99 = st.gaps.p99(st.generated - 1)
	}
	if b.cache != nil && m.req.session != 0 {
		b.cache.Touch(chainOf(&m.req, int(m.req.prompt+m.req.output), b.bs))
	}
	b.out = append(b.out, c)
	b.release(m)
}

// cut ends the span at the first iteration that ends at or after boundary
// now, where a request has just arrived, so it can join the next one.
func (b *batchServer) cut(now int64) {
	if j := b.sp.iterationEndingBy(b, now); j < b.sp.iters {
		b.sp.shorten(b, j)
		b.dueStep = b.sp.dueStep()
	}
}

// load is the replica's state at boundary now: the iteration in progress.
func (b *batchServer) load(now int64) load {
	l := load{waiting: b.queue.len(), running: len(b.run), tokens: b.queue.prompts + b.pausedG}
	if !b.busy {
		return l
	}
	j := b.sp.iterationsBy(now)
	l.tokens += int(b.dec.tokBase+int64(b.dec.n)*(b.g+int64(j))) + b.sp.fillTokens
	if b.kvCap != math.MaxInt64 {
		l.kvUtil = float64(b.sp.blocks(b, min(j+1, b.sp.iters))) / float64(b.kvCap)
	}
	return l
}

func (b *batchServer) counts() (waiting, running int) { return b.queue.len(), len(b.run) }

// counters are the replica's cumulative figures at boundary now, the span
// in progress included.
func (b *batchServer) counters(now int64) counters {
	c := b.acc
	if b.busy {
		x := min(float64(now)*StepMs-b.sp.at.ms(), b.sp.end)
		c.runningMs += float64(len(b.run)) * x
		c.kvBlockMs += b.sp.blockMs(b, x)
	}
	return c
}

// inspect lists the running requests, then the waiting ones, with
// completions predicted at the current iteration time: a rough guide for
// live views (batches change), never used by the model.
func (b *batchServer) inspect(now int64, k float64) []RequestSnapshot {
	out := make([]RequestSnapshot, 0, len(b.run)+b.queue.len())
	t := float64(now) * StepMs
	tau := b.sp.tau
	if !b.busy || tau <= 0 {
		tau = xmath.Mul(b.tok.DecodeMs, k)
	}
	for _, s := range b.run {
		m := &b.pool[s]
		left := float64(int(m.req.output) - m.made(b.g))
		out = append(out, RequestSnapshot{Seq: m.req.seq, Arrival: m.req.arrival, ServiceMs: m.st.service, Done: t + left*tau})
	}
	b.queue.each(func(w *waiting) {
		service := xmath.Mul(float64(w.req.output+1), tau)
		out = append(out, RequestSnapshot{Seq: w.req.seq, Arrival: w.req.arrival, ServiceMs: service, Done: t + service})
	})
	return out
}
