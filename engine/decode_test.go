package engine

import (
	"math"
	"slices"
	"testing"
)

// A request's p99 inter-token gap from the few largest gaps kept equals
// the nearest-rank p99 of all its gaps, for every length up to 1,200
// tokens (gaps with repeats, as spans give them: a first iteration, then
// runs of equal decode iterations).
func TestGapTopIsExact(t *testing.T) {
	var rng Rand
	rng.Seed(7, streamPolicy)
	for output := 2; output <= 1200; output += 1 + output/40 {
		for trial := range 4 {
			g := gapTop{k: gapsKept(output)}
			var all []float64
			for len(all) < output-1 {
				v := float64(int(rng.Open()*40)) / 2 // coarse values: ties happen
				count := 1
				if trial%2 == 1 {
					count = min(1+int(rng.Open()*8), output-1-len(all))
				}
				g.add(v, count)
				for range count {
					all = append(all, v)
				}
			}
			slices.Sort(all)
			want := NearestRank(all, 99)
			if got := g.p99(len(all)); got != want {
				t.Fatalf("output %d, trial %d: p99 %g from the %d largest entries, %g from all %d gaps", output, trial, got, g.k, want, len(all))
			}
		}
	}
}

// The span log's suffix maxima give the largest gap of every suffix of the
// spans it keeps, as a walk over them would, while the ring grows, wraps
// and drops the spans no request needs: with random gaps (ties included)
// and with gaps that only shrink, where no peak ever hides another and the
// dead ones must be compacted away.
func TestSpanLogLargestFromIsTheSuffixMaximum(t *testing.T) {
	var rng Rand
	rng.Seed(11, streamPolicy)
	random := func(int) float64 { return float64(int(rng.Open() * 30)) }
	shrinking := func(n int) float64 { return float64(10000 - n) }
	for _, gap := range []func(n int) float64{random, shrinking} {
		var l spanLog
		var oldest int64 // the oldest span a running request needs, moving forward
		walk := func(a int64) float64 {
			top := math.Inf(-1)
			for s := a; s < l.next; s++ {
				top = max(top, l.at(s).largest())
			}
			return top
		}
		for n := range 5000 {
			r := spanRecord{t1: gap(n), tau: gap(n), iters: int(rng.Open() * 3)}
			if n%7 == 0 {
				oldest = max(oldest, l.next-int64(rng.Open()*200))
			}
			l.append(r, func() int64 { return oldest })
			if live, kept := len(l.peaks)-l.low, int(l.next-l.base); live > kept || len(l.peaks) > 2*kept+65 {
				t.Fatalf("after %d spans: %d peaks, %d of them live, for %d spans kept", n+1, len(l.peaks), live, kept)
			}
			for a := max(l.base, oldest); a <= l.next; a++ {
				if got, want := l.largestFrom(a), walk(a); got != want {
					t.Fatalf("after %d spans: largest gap from span %d is %g by the peaks, %g by a walk", n+1, a, got, want)
				}
			}
		}
		if l.base == 0 {
			t.Fatal("the ring never dropped a span: the test did not reach the pruning")
		}
	}
}
