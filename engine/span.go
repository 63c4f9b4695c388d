package engine

import "math"

// instant is a time inside a server: off ms after boundary step.
type instant struct {
	step int64
	off  float64
}

func (t instant) ms() float64 { return float64(t.step)*StepMs + t.off }

// span is a stretch of a batching server's iterations with the same
// requests, evaluated in closed form. Its first iteration may start
// prefills and make first tokens; when every request makes a token in it,
// the others are plain decodes, each the same, so the span runs until the
// first request completes (or the KV cache would overflow, or an arrival
// cuts it short). Otherwise it is that one iteration.
//
// The time of its first j iterations is
//
//	T(j) = Σ_i serviceMs(D_i(j) − D_i(0), k, J_i) − O·k·(Σ_i J_i·tokens_i(j) − j·J̄)
//
// with D_i the demand of request i's work so far (base per start, prefill per
// computed prompt token, decode per token made) and tokens_i(j) the tokens
// it made in them: the iteration formula of batchServer summed, and written
// so that for one request alone the overhead term is exactly zero and the
// first term is exactly its specification service time.
type span struct {
	at    instant
	k     float64 // the replica's speed at the span's start
	iters int     // J, its iterations
	t1    float64 // T(1)
	tau   float64 // a decode iteration: (T(J) − T(1))/(J − 1)
	end   float64 // T(J)
	jbar  float64 // the requests' mean jitter
	n     int
	// The KV blocks held during iteration j are R(j) = q + n·(j div bs) +
	// ge[bs − j mod bs]: request i holds ceil((a_i + j)/bs) blocks, a_i + j
	// its tokens after iteration j, and (a_i + bs − 1) = q_i·bs + r_i.
	q  int
	ge []int32 // ge[x] = number of requests with r_i >= x
	bs int
	// tokens0 are the batch's prompt and generated tokens at the start;
	// tok1 the tokens its first iteration makes.
	tokens0, tok1 int
}

// work is the demand (ms at reference speed) of starts admissions, prefilled
// prompt tokens and tokens made: for a whole request alone, its demand as the
// token model computes it, to the last bit.
func (b *batchServer) work(starts, prefilled, tokens int) float64 {
	return mul(b.tok.BaseMs, float64(starts)) + mul(b.tok.PrefillMs, float64(prefilled)) + mul(b.tok.DecodeMs, float64(tokens))
}

// start evaluates the span that b's scheduled batch begins at at.
func (sp *span) start(b *batchServer, at instant, k float64) {
	sp.at, sp.k, sp.n, sp.bs = at, k, len(b.members), b.bs
	sp.tokens0, sp.tok1 = 0, 0
	sum, iters := 0.0, math.MaxInt
	for i := range b.members {
		m := &b.members[i]
		m.d0 = b.work(m.st.starts, m.st.prefilled, m.st.generated)
		sum += m.req.jitter
		sp.tokens0 += int(m.req.prompt) + m.st.generated
		sp.tok1 += m.tok1
		if m.tok1 == 0 {
			iters = 1
		} else {
			iters = min(iters, int(m.req.output)-m.st.generated)
		}
	}
	sp.jbar = sum / float64(sp.n)
	sp.residues(b)
	if b.kvCap != math.MaxInt {
		iters = sp.kvLimit(iters, b.kvCap)
	}
	sp.iters = iters
	sp.t1 = sp.elapsed(b, 1)
	sp.shorten(b, iters)
}

// elapsed is T(j), the time of the span's first j iterations (ms).
func (sp *span) elapsed(b *batchServer, j int) float64 {
	var work, tok float64
	for i := range b.members {
		m := &b.members[i]
		made := m.tok1 + j - 1
		d := b.work(m.st.starts+m.start1, m.st.prefilled+m.pre1, m.st.generated+made) - m.d0
		work += serviceMs(d, sp.k, m.req.jitter)
		tok += mul(m.req.jitter, float64(made))
	}
	return work - mul(mul(b.c.OverheadMs, sp.k), tok-mul(float64(j), sp.jbar))
}

// shorten makes the span j iterations long.
func (sp *span) shorten(b *batchServer, j int) {
	sp.iters, sp.end, sp.tau = j, sp.t1, 0
	if j > 1 {
		sp.end = sp.elapsed(b, j)
		sp.tau = (sp.end - sp.t1) / float64(j-1)
	}
}

// residues prepares R(j).
func (sp *span) residues(b *batchServer) {
	clear(sp.ge)
	sp.q = 0
	for i := range b.members {
		m := &b.members[i]
		a := m.kv + m.pre1 + m.tok1 - 1 + b.bs - 1
		sp.q += a / b.bs
		sp.ge[a%b.bs]++
	}
	for x := b.bs - 1; x >= 0; x-- {
		sp.ge[x] += sp.ge[x+1]
	}
}

// blocks is R(j), the KV blocks held during iteration j.
func (sp *span) blocks(j int) int {
	return sp.q + sp.n*(j/sp.bs) + int(sp.ge[sp.bs-j%sp.bs])
}

// blocksSum is R(1) + … + R(j): the closed form Σ_i Σ_m floor((r_i + m)/bs)
// grouped by residue.
func (sp *span) blocksSum(j int) int {
	f := func(x int) int { // Σ_{y=1..x} floor(y/bs)
		q, r := x/sp.bs, x%sp.bs
		return sp.bs*q*(q-1)/2 + q*(r+1)
	}
	sum := j * sp.q
	for r := range sp.bs {
		if c := int(sp.ge[r] - sp.ge[r+1]); c > 0 {
			sum += c * (f(r+j) - f(r))
		}
	}
	return sum
}

// kvLimit is the most iterations, up to iters, during which the batch's KV
// blocks fit in capacity (R(1) fits: the scheduler made sure).
func (sp *span) kvLimit(iters, capacity int) int {
	lo, hi := 1, iters
	for lo < hi {
		mid := hi - (hi-lo)/2
		if sp.blocks(mid) <= capacity {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// blockMs is the integral of the KV blocks held over the span's first x ms.
func (sp *span) blockMs(x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x <= sp.t1 || sp.iters == 1 {
		return float64(sp.blocks(1)) * min(x, sp.t1)
	}
	j := sp.iterationsIn(x) // complete iterations
	done := float64(sp.blocks(1))*sp.t1 + sp.tau*float64(sp.blocksSum(j)-sp.blocks(1))
	if j < sp.iters {
		done += float64(sp.blocks(j+1)) * (x - sp.t1 - float64(j-1)*sp.tau)
	}
	return done
}

// iterationsIn is the number of iterations complete x ms into the span
// (from the decode iteration time: for signals and integrals, never for the
// model's timing).
func (sp *span) iterationsIn(x float64) int {
	if x < sp.t1 {
		return 0
	}
	if sp.iters == 1 || sp.tau <= 0 {
		return sp.iters
	}
	return min(sp.iters, 1+int((x-sp.t1)/sp.tau))
}

// iterationsBy is the number of iterations complete at boundary now.
func (sp *span) iterationsBy(now int64) int {
	return sp.iterationsIn(float64(now-sp.at.step)*StepMs - sp.at.off)
}

// tokensAfter is the batch's prompt and generated tokens after j iterations.
func (sp *span) tokensAfter(j int) int {
	if j == 0 {
		return sp.tokens0
	}
	return sp.tokens0 + sp.tok1 + sp.n*(j-1)
}

// iterationEndingBy is the first iteration that ends at or after boundary
// now (T(j) ≥ now), found from the decode iteration time and checked exactly.
func (sp *span) iterationEndingBy(b *batchServer, now int64) int {
	x := float64(now-sp.at.step)*StepMs - sp.at.off
	if x <= sp.t1 || sp.iters == 1 {
		return 1
	}
	if sp.tau <= 0 { // decodes that take no time: they all end at T(1) < x
		return sp.iters
	}
	j := min(sp.iters, 1+int(math.Ceil((x-sp.t1)/sp.tau)))
	for j > 1 && sp.elapsed(b, j-1) >= x {
		j--
	}
	for j < sp.iters && sp.elapsed(b, j) < x {
		j++
	}
	return j
}

// dueStep is the boundary at which the span's end is seen.
func (sp *span) dueStep() int64 { return sp.at.step + serviceSteps(sp.at.off+sp.end) }

// endInstant is where the span ends, as an instant with off < StepMs.
func (sp *span) endInstant() instant {
	off := sp.at.off + sp.end
	whole := math.Floor(off / StepMs)
	return instant{step: sp.at.step + int64(whole), off: off - whole*StepMs}
}

// abs is the absolute time (ms) x ms into the span.
func (sp *span) abs(x float64) float64 { return sp.at.ms() + x }

// apply records what the span did for member m: its tokens and their
// times, its prefill, its KV and its time in the batch.
func (sp *span) apply(m *member, b *batchServer) {
	made := 0
	if m.tok1 == 1 {
		made = sp.iters
		first := sp.abs(sp.t1)
		if m.st.generated == 0 {
			m.st.firstTok, m.st.firstSeen = first, sp.at.step+serviceSteps(sp.at.off+sp.t1)
		} else {
			m.st.gaps.add(first-m.st.lastTok, 1)
			m.st.nGaps++
		}
		m.st.gaps.add(sp.tau, sp.iters-1)
		m.st.nGaps += sp.iters - 1
		m.st.lastTok = sp.abs(sp.end)
	}
	m.st.generated += made
	m.st.starts += m.start1
	m.st.prefilled += m.pre1
	m.prefillLeft -= m.pre1
	m.kv += m.pre1 + made
	m.st.service += sp.end
	if m.start1 == 1 {
		m.fresh = false
	}
}
