package engine

import (
	_ "embed"
	"encoding/binary"
	"math"
)

// tokenTable draws a TokenCount from one uniform with a table lookup instead
// of a normal quantile, an exponential and a rounding (about 80 ns a request
// otherwise). thresh[j] is the smallest uniform, on the grid Rand.Open draws
// from, at which TokenCount.draw reaches min+j+1, found by search on
// TokenCount.draw itself; so lookup(u) == draw(u) for every u, and the table
// accelerates the documented formula without redefining it.
type tokenTable struct {
	min    int
	thresh []float64
	guide  []int32 // guide[b] = number of thresholds below b/len(guide)
}

// openGrid is the number of distinct values Rand.Open returns.
const openGrid = uint64(1) << 52

func openValue(m uint64) float64 { return (float64(m) + 0.5) * 0x1p-52 }

func newTokenTable(c TokenCount) *tokenTable {
	t := &tokenTable{min: c.Min, thresh: make([]float64, 0, c.Max-c.Min)}
	lo := uint64(0)
	// Counts above the largest uniform's are never drawn: asked once here,
	// not for every count (a draw in three of the search), as every
	// routelab process, each shard, builds its tables.
	top := c.draw(openValue(openGrid - 1))
	for k := c.Min + 1; k <= min(c.Max, top); k++ {
		reaches := func(m uint64) bool { return c.draw(openValue(m)) >= k }
		m := firstTrue(reaches, lo, guessThreshold(c, k))
		t.thresh = append(t.thresh, openValue(m))
		lo = m
	}
	t.fillGuide()
	return t
}

// fillGuide indexes the thresholds for draw.
func (t *tokenTable) fillGuide() {
	t.guide = make([]int32, 4096)
	j := 0
	for b := range t.guide {
		edge := float64(b) / float64(len(t.guide))
		for j < len(t.thresh) && t.thresh[j] < edge {
			j++
		}
		t.guide[b] = int32(j)
	}
}

func (t *tokenTable) draw(u float64) int {
	j := int(t.guide[int(u*float64(len(t.guide)))])
	for j < len(t.thresh) && t.thresh[j] <= u {
		j++
	}
	return t.min + j
}

// guessThreshold estimates where count k starts, from the continuous
// distribution; it only speeds up the exact search.
func guessThreshold(c TokenCount, k int) uint64 {
	if c.Sigma == 0 {
		return 0
	}
	z := (math.Log(float64(k)-0.5) - math.Log(c.Median)) / c.Sigma
	p := 0.5 * math.Erfc(-z/math.Sqrt2)
	return uint64(math.Min(math.Max(p*float64(openGrid), 0), float64(openGrid-1)))
}

// firstTrue finds the smallest m in [lo, openGrid) with pred(m), for a pred
// that is false then true, and true at openGrid-1; it gallops out from
// hint, then bisects.
func firstTrue(pred func(uint64) bool, lo, hint uint64) uint64 {
	hint = min(max(hint, lo), openGrid-1)
	var bad, good uint64 // pred(bad) false (or bad == lo-1), pred(good) true
	if pred(hint) {
		good = hint
		step := uint64(1)
		for {
			if good-lo < step {
				if pred(lo) {
					return lo
				}
				bad = lo
				break
			}
			if !pred(good - step) {
				bad = good - step
				break
			}
			good -= step
			step *= 2
		}
	} else {
		bad = hint
		step := uint64(1)
		for {
			if openGrid-1-bad < step {
				good = openGrid - 1
				break
			}
			if pred(bad + step) {
				good = bad + step
				break
			}
			bad += step
			step *= 2
		}
	}
	for good-bad > 1 {
		mid := bad + (good-bad)/2
		if pred(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good
}

// tokenTables are the prepared samplers of one TokenModel; read-only, so
// concurrent runs share them.
type tokenTables struct {
	model          TokenModel
	prompt, output *tokenTable
}

func prepareTokens(m TokenModel) *tokenTables {
	if t := defaultTokenTables(m); t != nil {
		return t
	}
	return &tokenTables{model: m, prompt: newTokenTable(m.Prompt), output: newTokenTable(m.Output)}
}

// defaultTokens holds the tables of DefaultTokenModel, as
// encodeTokenThresholds writes them: searching for them costs about 1.3 ms,
// paid by every process that runs the specification's model, each shard of
// a sharded experiment included; decoding costs about 20 µs.
// TestDefaultTokenTablesAreCurrent checks them against newTokenTable (go
// test ./engine -run TestDefaultTokenTables -update rewrites them).
//
//go:embed default_tokens.bin
var defaultTokens []byte

// defaultTokenTables is the prepared tables of m when m is
// DefaultTokenModel, nil otherwise.
func defaultTokenTables(m TokenModel) *tokenTables {
	d := DefaultTokenModel()
	if m.Prompt != d.Prompt || m.Output != d.Output {
		return nil
	}
	prompt, rest := decodeTokenThresholds(d.Prompt, defaultTokens)
	output, rest := decodeTokenThresholds(d.Output, rest)
	if prompt == nil || output == nil || len(rest) != 0 {
		return nil // damaged: search as for any other model
	}
	return &tokenTables{model: m, prompt: prompt, output: output}
}

// encodeTokenThresholds appends t's thresholds to b: their number, then each
// one's grid index (openValue's argument) as the difference from the one
// before, all as uvarints.
func encodeTokenThresholds(b []byte, t *tokenTable) []byte {
	b = binary.AppendUvarint(b, uint64(len(t.thresh)))
	prev := uint64(0)
	for _, th := range t.thresh {
		m := uint64(th*0x1p52 - 0.5)
		b = binary.AppendUvarint(b, m-prev)
		prev = m
	}
	return b
}

// decodeTokenThresholds reads one table of count c from b, returning it and
// the rest of b; nil when b does not hold one.
func decodeTokenThresholds(c TokenCount, b []byte) (*tokenTable, []byte) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(max(c.Max-c.Min, 0)) {
		return nil, nil
	}
	b = b[k:]
	t := &tokenTable{min: c.Min, thresh: make([]float64, n)}
	m := uint64(0)
	for i := range t.thresh {
		d, k := binary.Uvarint(b)
		if k <= 0 || d >= openGrid-m {
			return nil, nil
		}
		b, m = b[k:], m+d
		t.thresh[i] = openValue(m)
	}
	t.fillGuide()
	return t, b
}
