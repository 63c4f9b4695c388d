package engine

import "testing"

// The table is an accelerator: it must give exactly TokenCount.draw for every
// uniform, including on both sides of every threshold.
func TestTokenTableMatchesDirectDraw(t *testing.T) {
	m := DefaultTokenModel()
	for _, c := range []TokenCount{m.Prompt, m.Output, {Median: 3, Sigma: 2, Min: 0, Max: 50}, {Median: 10, Sigma: 0, Min: 1, Max: 20}} {
		tab := newTokenTable(c)
		r := NewRand(11, 3)
		for i := 0; i < 300000; i++ {
			u := r.Open()
			if got, want := tab.draw(u), c.draw(u); got != want {
				t.Fatalf("%+v: table(%v) = %d, direct = %d", c, u, got, want)
			}
		}
		for j, th := range tab.thresh {
			m := uint64(th*0x1p52 - 0.5)
			for _, mm := range []uint64{m - 1, m, m + 1} {
				if mm >= openGrid {
					continue
				}
				u := openValue(mm)
				if got, want := tab.draw(u), c.draw(u); got != want {
					t.Fatalf("%+v threshold %d: table(%v) = %d, direct = %d", c, j, u, got, want)
				}
			}
		}
		for _, u := range []float64{openValue(0), openValue(openGrid - 1)} {
			if got, want := tab.draw(u), c.draw(u); got != want {
				t.Fatalf("%+v: table(%v) = %d, direct = %d", c, u, got, want)
			}
		}
	}
}

func BenchmarkPrepareTokens(b *testing.B) {
	for i := 0; i < b.N; i++ {
		prepareTokens(DefaultTokenModel())
	}
}
