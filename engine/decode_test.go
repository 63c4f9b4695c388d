package engine

import (
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
