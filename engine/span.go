package engine

import (
	"math"

	"github.com/routelab/routelab/internal/xmath"
)

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
// By the iteration formula of batchServer, its first iteration takes
//
//	T(1) = k·(O·J̄ + (decode − O)·Σ_{i makes a token} J_i + Σ_i J_i·(base·[i starts] + prefill·[i's prefill tokens]))
//
// and each later one τ = k·(O·J̄ + (decode − O)·Σ_i J_i), so T(j) = T(1) +
// (j − 1)·τ. A request alone is evaluated as the specification evaluates its
// service time,
//
//	T(j) = serviceMs(D(j) − D(0), k, J) − O·k·(J·tokens(j) − j·J),
//
// D the demand of its work so far (base per start, prefill per computed
// prompt token, decode per token made): the same value, to the last bit of
// its service time when it runs alone from start to end, which makes B = 1
// the FIFO server.
type span struct {
	at    instant
	k     float64 // the replica's speed at the span's start
	iters int     // J, its iterations
	t1    float64 // T(1)
	tau   float64 // a decode iteration (J > 1)
	end   float64 // T(J)
	jbar  float64 // the requests' mean jitter
	n     int
	lone  *member // the request, when there is one
	// The prefilling requests' KV blocks and prompt and made tokens, in a
	// span of one iteration.
	fillBlocks int64
	fillTokens int
}

// work is the demand (ms at reference speed) of starts admissions, prefilled
// prompt tokens and tokens made: for a whole request alone, its demand as the
// token model computes it, to the last bit.
func (b *batchServer) work(starts, prefilled, tokens int) float64 {
	return xmath.Mul(b.tok.BaseMs, float64(starts)) + xmath.Mul(b.tok.PrefillMs, float64(prefilled)) + xmath.Mul(b.tok.DecodeMs, float64(tokens))
}

// plan1 is m's work in the span's first iteration: its plan while
// prefilling or when its prefill completes in it, a token otherwise.
func (m *member) plan1(g int64) (start1, pre1, tok1 int) {
	if m.decoding && m.gf <= g {
		return 0, 0, 1
	}
	return m.start1, m.pre1, m.tok1
}

// start evaluates the span b's scheduled batch begins at instant at.
func (sp *span) start(b *batchServer, at instant, k float64, fillBlocks int64, fillTokens int) {
	*sp = span{at: at, k: k, n: len(b.run), fillBlocks: fillBlocks, fillTokens: fillTokens}
	sp.jbar = b.sumJ / float64(sp.n)
	iters := 1
	if len(b.fill) == 0 {
		_, fin := b.dec.first(b.pool)
		iters = int(fin - b.g)
	}
	if b.kvCap != math.MaxInt64 && iters > 1 {
		iters = sp.kvLimit(b, iters)
	}
	if sp.n == 1 {
		sp.lone = &b.pool[b.run[0]]
		sp.t1 = sp.loneElapsed(b, 1)
	} else {
		o := b.c.OverheadMs
		shared := xmath.Mul(o, sp.jbar) + xmath.Mul(b.tok.DecodeMs-o, b.dec.sumJ)
		var prefill float64
		for _, s := range b.planned {
			m := &b.pool[s]
			prefill += xmath.Mul(m.req.jitter, xmath.Mul(b.tok.BaseMs, float64(m.start1))+xmath.Mul(b.tok.PrefillMs, float64(m.pre1)))
		}
		sp.t1 = xmath.Mul(k, shared+prefill)
		if iters > 1 {
			sp.tau = xmath.Mul(k, shared)
		}
	}
	sp.shorten(b, iters)
}

// loneElapsed is T(j) for a request alone.
func (sp *span) loneElapsed(b *batchServer, j int) float64 {
	m := sp.lone
	start1, pre1, tok1 := m.plan1(b.g)
	gen := m.made(b.g)
	made := tok1 + j - 1
	d := b.work(m.st.starts+start1, m.st.prefilled+pre1, gen+made) - b.work(m.st.starts, m.st.prefilled, gen)
	tok := xmath.Mul(m.req.jitter, float64(made)) - xmath.Mul(float64(j), sp.jbar)
	return serviceMs(d, sp.k, m.req.jitter) - xmath.Mul(xmath.Mul(b.c.OverheadMs, sp.k), tok)
}

// elapsed is T(j), the time of the span's first j iterations (ms).
func (sp *span) elapsed(b *batchServer, j int) float64 {
	if sp.lone != nil {
		return sp.loneElapsed(b, j)
	}
	return sp.t1 + xmath.Mul(float64(j-1), sp.tau)
}

// shorten makes the span j iterations long.
func (sp *span) shorten(b *batchServer, j int) {
	sp.iters, sp.end = j, sp.t1
	if j > 1 {
		sp.end = sp.elapsed(b, j)
		sp.tau = (sp.end - sp.t1) / float64(j-1)
	}
}

// blocks is the KV blocks the batch holds during the span's iteration j.
func (sp *span) blocks(b *batchServer, j int) int64 {
	n := b.dec.blocks(b.g + int64(j))
	if j == 1 {
		n += sp.fillBlocks
	}
	return n
}

// kvLimit is the most iterations, up to iters, during which the batch's KV
// blocks fit in the cache (the first one fits: the scheduler made sure).
func (sp *span) kvLimit(b *batchServer, iters int) int {
	lo, hi := 1, iters
	for lo < hi {
		mid := hi - (hi-lo)/2
		if sp.blocks(b, mid) <= b.kvCap {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// blockMs is the integral of the KV blocks held over the span's first x ms.
func (sp *span) blockMs(b *batchServer, x float64) float64 {
	if x <= 0 {
		return 0
	}
	r1 := float64(sp.blocks(b, 1))
	if x <= sp.t1 || sp.iters == 1 {
		return r1 * min(x, sp.t1)
	}
	j := sp.iterationsIn(x) // complete iterations, at least one
	done := r1*sp.t1 + sp.tau*float64(b.dec.blocksSum(b.g+2, b.g+int64(j)))
	if j < sp.iters {
		done += float64(sp.blocks(b, j+1)) * (x - sp.t1 - float64(j-1)*sp.tau)
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

// iterationEndingBy is the first iteration that ends at or after boundary
// now (T(j) ≥ now), found from the decode iteration time and checked.
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

// endRaw is where the span ends, counted from its start's boundary (so that
// a request alone spends exactly T in the batch).
func (sp *span) endRaw() instant { return instant{step: sp.at.step, off: sp.at.off + sp.end} }

// endInstant is where the span ends, as an instant with off < StepMs.
func (sp *span) endInstant() instant {
	off := sp.at.off + sp.end
	whole := math.Floor(off / StepMs)
	return instant{step: sp.at.step + int64(whole), off: off - whole*StepMs}
}

// abs is the absolute time (ms) x ms into the span.
func (sp *span) abs(x float64) float64 { return sp.at.ms() + x }
