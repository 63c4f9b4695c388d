package engine

import (
	"cmp"
	"math"
	"slices"
)

// The bookkeeping that keeps a batching server's spans cheap: what the
// decoding requests hold and make is computed from the server's iteration
// counter and a few sums, and their inter-token gaps from a log of spans,
// so a span costs nothing per decoding request.

// decodeSet aggregates the running requests that have made the first token
// of their stay in the batch and make one token per iteration until they
// leave. A request that made that token at iteration count gf, having made
// tf tokens by then (earlier stays included), has made tf + (g − gf) tokens
// at count g, holds kvf + (g − gf) tokens of KV, and completes at g = gf +
// output − tf.
type decodeSet struct {
	n       int
	sumJ    float64 // Σ jitter
	tokBase int64   // Σ (prompt + tf − gf): their prompt and made tokens at count g are tokBase + n·g
	// The KV blocks they hold after iteration count g are Σ ceil((kvf − gf +
	// g)/bs) = q + n·(g div bs) + ge[bs − g mod bs], with kvf − gf + bs − 1 =
	// q_i·bs + r_i (0 ≤ r_i < bs), q = Σ q_i and ge[x] the number of r_i ≥ x.
	bs    int
	q     int64
	cnt   []int32
	ge    []int32
	heap  []decodeKey // a min-heap by completion count, then admission order
	cycle []int64     // see cycleSums
	stale bool
}

func newDecodeSet(bs, capacity int) decodeSet {
	return decodeSet{bs: bs, cnt: make([]int32, bs), ge: make([]int32, bs+1), heap: make([]decodeKey, 0, capacity), cycle: make([]int64, bs+1)}
}

// floorDiv is a/b rounded down (b > 0), for counts that may be negative.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// residue splits m's KV term into q_i and r_i.
func (d *decodeSet) residue(m *member) (int64, int) {
	e := int64(m.kvf) - m.gf + int64(d.bs) - 1
	q := floorDiv(e, int64(d.bs))
	return q, int(e - q*int64(d.bs))
}

func (d *decodeSet) add(m *member, pool []member) {
	d.n++
	d.sumJ += m.req.jitter
	d.tokBase += int64(m.req.prompt) + int64(m.tf) - m.gf
	q, r := d.residue(m)
	d.q += q
	d.cnt[r]++
	for x := 0; x <= r; x++ {
		d.ge[x]++
	}
	d.stale = true
	m.heapIdx = len(d.heap)
	d.heap = append(d.heap, decodeKey{fin: m.fin, order: m.order, slot: m.slot})
	d.up(pool, m.heapIdx)
}

func (d *decodeSet) remove(m *member, pool []member) {
	d.n--
	d.sumJ -= m.req.jitter
	d.tokBase -= int64(m.req.prompt) + int64(m.tf) - m.gf
	q, r := d.residue(m)
	d.q -= q
	d.cnt[r]--
	for x := 0; x <= r; x++ {
		d.ge[x]--
	}
	d.stale = true
	i, last := m.heapIdx, len(d.heap)-1
	if i != last {
		d.heap[i] = d.heap[last]
		pool[d.heap[i].slot].heapIdx = i
	}
	d.heap = d.heap[:last]
	if i != last {
		d.down(pool, i)
		d.up(pool, i)
	}
	if d.n == 0 {
		d.sumJ = 0 // no drift from sums of many jitters
	}
}

// first is the request completing first, and the count at which it does.
func (d *decodeSet) first(pool []member) (*member, int64) {
	if len(d.heap) == 0 {
		return nil, math.MaxInt64
	}
	return &pool[d.heap[0].slot], d.heap[0].fin
}

// blocks is the KV blocks the set holds after iteration count g.
func (d *decodeSet) blocks(g int64) int64 {
	bs := int64(d.bs)
	return d.q + int64(d.n)*floorDiv(g, bs) + int64(d.ge[bs-(g-floorDiv(g, bs)*bs)])
}

// blocksSum is blocks(a) + … + blocks(b): count·q, n times the sum of
// floor(g/bs), and the sum of ge[bs − g mod bs], which repeats every bs
// counts (cycle holds its prefix sums).
func (d *decodeSet) blocksSum(a, b int64) int64 {
	if b < a {
		return 0
	}
	bs := int64(d.bs)
	count := b - a + 1
	base := floorDiv(a, bs)
	t0 := a - base*bs
	f := func(y int64) int64 { // Σ_{z=0..y} floor(z/bs), for 0 <= y < t0 + count
		if y < 0 {
			return 0
		}
		q, r := y/bs, y%bs
		return bs*q*(q-1)/2 + q*(r+1)
	}
	floors := count*base + f(t0+count-1) - f(t0-1)
	h := d.cycleSums()
	cycles := count/bs*h[bs] + h[min(t0+count%bs, bs)] - h[t0]
	if over := t0 + count%bs - bs; over > 0 {
		cycles += h[over]
	}
	return count*d.q + int64(d.n)*floors + cycles
}

// cycleSums are the prefix sums of ge[bs − t] over t in 0..bs−1:
// cycle[t] = Σ_{u<t} ge[bs − u], brought up to date after a change.
func (d *decodeSet) cycleSums() []int64 {
	if d.stale {
		d.cycle[0] = 0
		for t := range d.bs {
			d.cycle[t+1] = d.cycle[t] + int64(d.ge[d.bs-t])
		}
		d.stale = false
	}
	return d.cycle
}

// decodeKey is a decoding request's place in the heap: its ordering keys
// are kept beside its slot, so sifting reads no member (members are large).
type decodeKey struct {
	fin, order int64
	slot       int32
}

func (d *decodeSet) less(i, j int) bool {
	a, b := &d.heap[i], &d.heap[j]
	return a.fin < b.fin || (a.fin == b.fin && a.order < b.order)
}

func (d *decodeSet) swap(pool []member, i, j int) {
	d.heap[i], d.heap[j] = d.heap[j], d.heap[i]
	pool[d.heap[i].slot].heapIdx, pool[d.heap[j].slot].heapIdx = i, j
}

func (d *decodeSet) up(pool []member, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !d.less(i, p) {
			return
		}
		d.swap(pool, i, p)
		i = p
	}
}

func (d *decodeSet) down(pool []member, i int) {
	for {
		l, small := 2*i+1, i
		if l < len(d.heap) && d.less(l, small) {
			small = l
		}
		if r := l + 1; r < len(d.heap) && d.less(r, small) {
			small = r
		}
		if small == i {
			return
		}
		d.swap(pool, i, small)
		i = small
	}
}

// spanLog keeps, for every span since the oldest a running request needs,
// its first iteration's time and its later iterations' time and number: a
// decoding request's inter-token gaps are read from it when it leaves.
type spanLog struct {
	buf  []spanRecord // a ring, its length a power of two
	base int64        // the oldest span kept
	next int64        // spans so far
	// peaks are the suffix maxima of the spans' largest gaps (see
	// spanRecord.largest), oldest first and strictly decreasing: the largest
	// gap of the spans from any a to the last is the first peak at or after
	// a. A request of fewer than 100 gaps needs only its largest gap, so its
	// p99 costs a binary search instead of a walk over every span it lived
	// through. peaks[:low] are older than base.
	peaks []spanPeak
	low   int
}

type spanPeak struct {
	at      int64
	largest float64
}

type spanRecord struct {
	t1, tau float64
	iters   int
}

func (l *spanLog) at(i int64) *spanRecord { return &l.buf[i&int64(len(l.buf)-1)] }

// largest is the largest gap between successive tokens a request sees in
// the span after its first one: the gap into the span's first iteration,
// or the span's later iterations' time if it has any.
func (r *spanRecord) largest() float64 {
	if r.iters > 1 {
		return max(r.t1, r.tau)
	}
	return r.t1
}

// largestFrom is the largest gap of the spans from a to the last
// (math.Inf(-1) when there are none).
func (l *spanLog) largestFrom(a int64) float64 {
	p := l.peaks[l.low:]
	i, _ := slices.BinarySearchFunc(p, a, func(k spanPeak, a int64) int { return cmp.Compare(k.at, a) })
	if i == len(p) {
		return math.Inf(-1)
	}
	return p[i].largest
}

// pushPeak records span i's largest gap among the suffix maxima, and drops
// the peaks older than the oldest span kept.
func (l *spanLog) pushPeak(i int64, largest float64) {
	n := len(l.peaks)
	for n > l.low && l.peaks[n-1].largest <= largest {
		n--
	}
	l.peaks = append(l.peaks[:n], spanPeak{i, largest})
	for l.low < len(l.peaks) && l.peaks[l.low].at < l.base {
		l.low++
	}
	if l.low > 64 && 2*l.low > len(l.peaks) {
		l.peaks = l.peaks[:copy(l.peaks, l.peaks[l.low:])]
		l.low = 0
	}
}

// append logs the span that just ended; oldest is the oldest span a running
// request still needs (called only when the ring is full).
func (l *spanLog) append(r spanRecord, oldest func() int64) {
	if l.next-l.base == int64(len(l.buf)) {
		l.base = max(l.base, oldest())
		if l.next-l.base == int64(len(l.buf)) {
			buf := make([]spanRecord, 2*max(len(l.buf), 32))
			for i := l.base; i < l.next; i++ {
				buf[i&int64(len(buf)-1)] = *l.at(i)
			}
			l.buf = buf
		}
	}
	*l.at(l.next) = r
	l.pushPeak(l.next, r.largest())
	l.next++
}

// gapK is how many of a request's largest inter-token gaps are kept (as
// values with counts): its nearest-rank p99 is exact while they cover the
// top 1 % of its gaps, which they do for any request of up to 1,200 tokens,
// and for longer ones unless more than 12 distinct gaps lie above the
// percentile; otherwise the p99 reported is the smallest gap kept, an upper
// bound.
const gapK = 12

// gapTop keeps the largest gaps, a min-heap on value of at most k entries
// (values with counts): k is the rank of a request's p99 among its gaps
// (1 for fewer than 100 gaps), at most gapK, so most additions cost one
// comparison with the smallest kept.
type gapTop struct {
	v    [gapK]float64
	c    [gapK]int32
	n, k int
}

// gapsKept is the k of a request of output tokens: the rank, from the
// top, of the nearest-rank p99 of its output − 1 gaps (capped at gapK).
func gapsKept(output int) int {
	total := output - 1
	if total <= 0 {
		return 1
	}
	return min(gapK, total-int(math.Ceil(0.99*float64(total)))+1)
}

// add counts count gaps of v ms.
func (g *gapTop) add(v float64, count int) {
	if count > 0 && (g.n < g.k || v > g.v[0]) { // small enough to inline: most gaps stop here
		g.insert(v, count)
	}
}

func (g *gapTop) insert(v float64, count int) {
	switch {
	case g.n < g.k:
		i := g.n
		g.v[i], g.c[i] = v, int32(count)
		g.n++
		for i > 0 && g.v[(i-1)/2] > g.v[i] {
			p := (i - 1) / 2
			g.v[i], g.v[p], g.c[i], g.c[p] = g.v[p], g.v[i], g.c[p], g.c[i]
			i = p
		}
	case v > g.v[0]:
		g.v[0], g.c[0] = v, int32(count)
		for i := 0; ; {
			small, l := i, 2*i+1
			if l < g.n && g.v[l] < g.v[small] {
				small = l
			}
			if l+1 < g.n && g.v[l+1] < g.v[small] {
				small = l + 1
			}
			if small == i {
				return
			}
			g.v[i], g.v[small], g.c[i], g.c[small] = g.v[small], g.v[i], g.c[small], g.c[i]
			i = small
		}
	}
}

// p99 is the nearest-rank 99th percentile of total gaps (NaN for none): the
// k-th largest, k = total − ceil(0.99·total) + 1, found by taking the
// largest kept until their counts reach k.
func (g *gapTop) p99(total int) float64 {
	if total <= 0 || g.n == 0 {
		return math.NaN()
	}
	v := g.v
	k := total - int(math.Ceil(0.99*float64(total))) + 1
	seen, last := 0, 0
	for range g.n {
		last = 0
		for i := 1; i < g.n; i++ {
			if v[i] > v[last] {
				last = i
			}
		}
		if seen += int(g.c[last]); seen >= k {
			break
		}
		v[last] = math.Inf(-1)
	}
	return g.v[last]
}
