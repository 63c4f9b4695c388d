package experiment

import (
	"math"
	"slices"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/xmath"
)

// Intervals of a mean difference over seeds: the paired t-interval, the
// bootstrap percentile interval, and Welch's interval of two independent
// samples, which shows what pairing gains.

// PairedLevel is the confidence level of every interval routelab reports.
const PairedLevel = 0.95

// BootstrapResamples is the number of resamples of a bootstrap interval.
const BootstrapResamples = 10000

// The bootstrap interval's percentiles, (1 ∓ PairedLevel)/2 written out:
// computed, 100·(1 − 0.95)/2 is 2.5000000000000022, whose nearest rank
// among 10,000 resamples is 251, not 250.
const bootstrapLowPct, bootstrapHighPct = 2.5, 97.5

// bootstrapSeed seeds the resampler. Every interval restarts the stream, so
// an interval does not depend on which others were computed before it, and
// intervals over the same number of seeds resample the same seeds.
const bootstrapSeed = 1

// meanVar returns the mean and the sample variance (divisor n − 1, NaN for
// fewer than two values) in two passes.
func meanVar(xs []float64) (mean, variance float64) {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	n := float64(len(xs))
	mean = sum / n
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range xs {
		d := x - mean
		ss += xmath.Mul(d, d)
	}
	return mean, ss / (n - 1)
}

// stdErr is the standard error of the mean of xs, s/√n; NaN for fewer than
// two values.
func stdErr(xs []float64) float64 {
	_, v := meanVar(xs)
	return math.Sqrt(v / float64(len(xs)))
}

// tHalfWidth is the half-width t·se of a two-sided interval at PairedLevel
// with ν degrees of freedom; zero when se is (every value the same).
func tHalfWidth(se, nu float64) float64 {
	if se == 0 {
		return 0
	}
	return xmath.Mul(tQuantile((1+PairedLevel)/2, nu), se)
}

// pairedT is the mean of the differences, its standard error s/√n and the
// paired t-interval mean ± t(n−1)·s/√n; the error and the interval are NaN
// for fewer than two differences.
func pairedT(d []float64) (mean, se, lo, hi float64) {
	mean, _ = meanVar(d)
	se = stdErr(d)
	half := tHalfWidth(se, float64(len(d)-1))
	return mean, se, mean - half, mean + half
}

// welch is Welch's interval of mean(y) − mean(x), the samples taken as
// independent: se² = s²x/n + s²y/m with the Welch–Satterthwaite degrees of
// freedom; NaN with fewer than two values on either side.
func welch(x, y []float64) (lo, hi float64) {
	mx, vx := meanVar(x)
	my, vy := meanVar(y)
	a, b := vx/float64(len(x)), vy/float64(len(y))
	se := math.Sqrt(a + b)
	nu := xmath.Mul(a+b, a+b) / (xmath.Mul(a, a)/float64(len(x)-1) + xmath.Mul(b, b)/float64(len(y)-1))
	if math.IsNaN(se) {
		return math.NaN(), math.NaN()
	}
	half := tHalfWidth(se, nu)
	return my - mx - half, my - mx + half
}

// bootstrap is the percentile interval of the mean of d: the 2.5th and
// 97.5th nearest-rank percentiles of the means of BootstrapResamples
// resamples of d with replacement, drawn from rng. NaN for fewer than two
// values, which have no spread to resample.
func bootstrap(d []float64, rng *engine.Rand) (lo, hi float64) {
	n := len(d)
	if n < 2 {
		return math.NaN(), math.NaN()
	}
	means := make([]float64, BootstrapResamples)
	for b := range means {
		var sum float64
		for range n {
			sum += d[rng.Intn(n)]
		}
		means[b] = sum / float64(n)
	}
	slices.Sort(means)
	return engine.NearestRank(means, bootstrapLowPct), engine.NearestRank(means, bootstrapHighPct)
}
