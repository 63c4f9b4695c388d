package engine

import (
	"bytes"
	"os"
	"slices"
	"testing"
)

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

// Preparing the default model's tables (decoded from the embedded copy)
// against searching for them, as for any other model.
func BenchmarkPrepareTokens(b *testing.B) {
	b.Run("default", func(b *testing.B) {
		for range b.N {
			prepareTokens(DefaultTokenModel())
		}
	})
	b.Run("search", func(b *testing.B) {
		m := DefaultTokenModel()
		for range b.N {
			newTokenTable(m.Prompt)
			newTokenTable(m.Output)
		}
	})
}

// The embedded tables of the default model are the ones the search finds;
// -update rewrites them. A damaged copy is not used.
func TestDefaultTokenTablesAreCurrent(t *testing.T) {
	d := DefaultTokenModel()
	prompt, output := newTokenTable(d.Prompt), newTokenTable(d.Output)
	want := encodeTokenThresholds(encodeTokenThresholds(nil, prompt), output)
	if *update {
		if err := os.WriteFile("default_tokens.bin", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return // the binary embeds the file as it was when compiled
	}
	got := defaultTokenTables(d)
	if got == nil || !bytes.Equal(defaultTokens, want) {
		t.Fatal("default_tokens.bin is not the default model's tables: go test ./engine -run TestDefaultTokenTables -update")
	}
	for _, c := range []struct{ got, want *tokenTable }{{got.prompt, prompt}, {got.output, output}} {
		if c.got.min != c.want.min || !slices.Equal(c.got.thresh, c.want.thresh) || !slices.Equal(c.got.guide, c.want.guide) {
			t.Fatal("the decoded tables differ from the searched ones")
		}
	}
	other := d
	other.Output.Max++
	if defaultTokenTables(other) != nil {
		t.Fatal("another model got the default tables")
	}
	if tabs := prepareTokens(other); len(tabs.output.thresh) != len(output.thresh)+1 {
		t.Fatalf("another model's output table has %d thresholds, want %d", len(tabs.output.thresh), len(output.thresh)+1)
	}
	for _, damaged := range [][]byte{nil, defaultTokens[:len(defaultTokens)/2], append(slices.Clip(defaultTokens), 0), {0xff, 0xff, 0xff}} {
		p, rest := decodeTokenThresholds(d.Prompt, damaged)
		if p != nil {
			if o, rest := decodeTokenThresholds(d.Output, rest); o != nil && len(rest) == 0 {
				t.Fatalf("a damaged copy of %d bytes decodes", len(damaged))
			}
		}
	}
}
