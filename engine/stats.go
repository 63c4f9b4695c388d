package engine

import (
	"math"
	"slices"
)

// LatencyStats summarises end-to-end latencies (ms) with nearest-rank
// percentiles. With no latencies every field but Count is NaN: there is no
// latency figure, which is different from a latency of zero.
type LatencyStats struct {
	Count int
	Mean  float64
	P50   float64
	P90   float64
	P95   float64
	P99   float64
	Max   float64
}

// NearestRank returns the p-th percentile (0 < p <= 100) of sorted values by
// the nearest-rank method: the value at rank ceil(p/100·n). NaN when empty.
func NearestRank(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	return sorted[min(max(rank, 1), n)-1]
}

// Summarize computes LatencyStats of sorted latencies.
func Summarize(sorted []float64) LatencyStats {
	st := LatencyStats{Count: len(sorted)}
	if len(sorted) == 0 {
		nan := math.NaN()
		st.Mean, st.P50, st.P90, st.P95, st.P99, st.Max = nan, nan, nan, nan, nan, nan
		return st
	}
	var sum float64
	for _, x := range sorted {
		sum += x
	}
	st.Mean = sum / float64(len(sorted))
	st.P50 = NearestRank(sorted, 50)
	st.P90 = NearestRank(sorted, 90)
	st.P95 = NearestRank(sorted, 95)
	st.P99 = NearestRank(sorted, 99)
	st.Max = sorted[len(sorted)-1]
	return st
}

// Median of the non-NaN values (the mean of the two middle ones for an even
// count); NaN when there are none.
func Median(xs []float64) float64 {
	vals := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			vals = append(vals, x)
		}
	}
	if len(vals) == 0 {
		return math.NaN()
	}
	slices.Sort(vals)
	n := len(vals)
	if n%2 == 1 {
		return vals[n/2]
	}
	return (vals[n/2-1] + vals[n/2]) / 2
}

// MinMax of the non-NaN values; NaNs when there are none.
func MinMax(xs []float64) (lo, hi float64) {
	lo, hi = math.NaN(), math.NaN()
	for _, x := range xs {
		if math.IsNaN(x) {
			continue
		}
		if math.IsNaN(lo) || x < lo {
			lo = x
		}
		if math.IsNaN(hi) || x > hi {
			hi = x
		}
	}
	return lo, hi
}

// Mean of the non-NaN values; NaN when there are none.
func Mean(xs []float64) float64 {
	var sum float64
	n := 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			sum += x
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// LiveWindowSize and ThroughputWindow bound the live readouts.
const (
	LiveWindowSize   = 250    // completions
	ThroughputWindow = 1000.0 // ms
)

// liveWindows keeps the readouts of a live view: the last 250 latencies and
// the completion steps of the trailing 1000 ms.
type liveWindows struct {
	lat   [LiveWindowSize]float64
	nLat  int // total latencies seen
	steps []int64
	head  int // steps[head:] are inside the window
}

func (w *liveWindows) add(latency float64, step int64) {
	w.lat[w.nLat%LiveWindowSize] = latency
	w.nLat++
	w.steps = append(w.steps, step)
	w.trim(step)
}

// trim drops completions older than the throughput window ending at step.
func (w *liveWindows) trim(step int64) {
	cut := step - int64(ThroughputWindow/StepMs)
	for w.head < len(w.steps) && w.steps[w.head] <= cut {
		w.head++
	}
	// Compact once the dead prefix dominates, so memory stays bounded
	// without reallocating on every completion.
	if w.head > 1024 && w.head*2 > len(w.steps) {
		n := copy(w.steps, w.steps[w.head:])
		w.steps = w.steps[:n]
		w.head = 0
	}
}

// throughput is completions per second over the trailing window.
func (w *liveWindows) throughput(step int64) float64 {
	w.trim(step)
	return float64(len(w.steps)-w.head) * 1000 / ThroughputWindow
}

// recent returns the summary of the last (up to) 250 latencies; buf is scratch.
func (w *liveWindows) recent(buf []float64) (LatencyStats, []float64) {
	n := min(w.nLat, LiveWindowSize)
	buf = append(buf[:0], w.lat[:n]...)
	slices.Sort(buf)
	return Summarize(buf), buf
}
