package experiment

import (
	"math"

	"github.com/routelab/routelab/internal/xmath"
)

// Student's t distribution for confidence intervals, computed in Go from the
// regularized incomplete beta function. It uses the engine's exactly
// specified logarithm and exponential (xmath.go) and unfused products, like
// the workload, so an interval has the same bits on every platform.

// lnSqrt2Pi is ln √(2π).
const lnSqrt2Pi = 0.91893853320467274178

// lanczos are the coefficients of Lanczos' approximation of Γ with g = 7
// and nine terms (Godfrey's), relative error below 1e-15 for x >= 0.5.
func lanczos() [9]float64 {
	return [9]float64{0.99999999999980993, 676.5203681218851, -1259.1392167224028,
		771.32342877765313, -176.61502916214059, 12.507343278686905,
		-0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7}
}

// lgamma is ln Γ(x) for x >= 0.5, the only arguments a t distribution with
// at least one degree of freedom needs (ν/2 and ½); NaN below.
func lgamma(x float64) float64 {
	if !(x >= 0.5) || math.IsInf(x, 1) {
		return math.NaN()
	}
	c := lanczos()
	z := x - 1
	sum := c[0]
	for i := 1; i < len(c); i++ {
		sum += c[i] / (z + float64(i))
	}
	t := z + 7.5
	return lnSqrt2Pi + xmath.Mul(z+0.5, xmath.Log(t)) - t + xmath.Log(sum)
}

// lbeta is ln B(a, b) for a, b >= 0.5.
func lbeta(a, b float64) float64 { return lgamma(a) + lgamma(b) - lgamma(a+b) }

// regIncBeta is the regularized incomplete beta function I_x(a, b). The
// caller gives y = 1 − x, computed without cancellation (near x = 1,
// 1 − x rounded loses most of y's digits), and lnB = ln B(a, b), so that a
// search calls lgamma once. The continued fraction converges fast for
// x < (a+1)/(a+b+2); above, the symmetry I_x(a, b) = 1 − I_y(b, a) moves x
// there.
func regIncBeta(a, b, x, y, lnB float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	front := xmath.Exp(xmath.Mul(a, xmath.Log(x)) + xmath.Mul(b, xmath.Log(y)) - lnB)
	if x < (a+1)/(a+b+2) {
		return xmath.Mul(front, betaCF(a, b, x)) / a
	}
	return 1 - xmath.Mul(front, betaCF(b, a, y))/b
}

// betaCF evaluates the continued fraction of the incomplete beta function
// by the modified Lentz method (Numerical Recipes' betacf). It needs about
// √max(a, b) terms; the bound only guards against a bug.
func betaCF(a, b, x float64) float64 {
	const tiny, eps, maxTerms = 1e-300, 1e-16, 1 << 20
	guard := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1/guard(1-xmath.Mul(qab, x)/qap)
	h := d
	for m := 1; m <= maxTerms; m++ {
		fm := float64(m)
		m2 := 2 * fm
		// The even step, then the odd step, of the fraction.
		aa := xmath.Mul(xmath.Mul(fm, b-fm), x) / xmath.Mul(qam+m2, a+m2)
		d = 1 / guard(1+xmath.Mul(aa, d))
		c = guard(1 + aa/c)
		h = xmath.Mul(h, xmath.Mul(d, c))
		aa = -xmath.Mul(xmath.Mul(a+fm, qab+fm), x) / xmath.Mul(a+m2, qap+m2)
		d = 1 / guard(1+xmath.Mul(aa, d))
		c = guard(1 + aa/c)
		del := xmath.Mul(d, c)
		h = xmath.Mul(h, del)
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// tUpper is P(T > t) for t >= 0 under Student's t with ν degrees of
// freedom: ½ I_{ν/(ν+t²)}(ν/2, ½); lnB = lbeta(ν/2, ½).
func tUpper(t, nu, lnB float64) float64 {
	t2 := xmath.Mul(t, t)
	return regIncBeta(nu/2, 0.5, nu/(nu+t2), t2/(nu+t2), lnB) / 2
}

// tQuantile is the p-quantile of Student's t distribution with ν >= 1
// degrees of freedom (ν need not be an integer: Welch's interval has
// fractional ν); NaN outside 0 < p < 1 or for ν below 1 or infinite. It bisects on t
// until the bracket cannot shrink, so the result is as exact as the tail
// probability, and the same on every platform.
func tQuantile(p, nu float64) float64 {
	switch {
	case !(p > 0 && p < 1) || !(nu >= 1) || math.IsInf(nu, 1):
		return math.NaN()
	case p == 0.5:
		return 0
	case p < 0.5:
		return -tQuantile(1-p, nu)
	}
	lnB := lbeta(nu/2, 0.5)
	tail := 1 - p
	lo, hi := 0.0, 1.0
	for tUpper(hi, nu, lnB) > tail {
		lo, hi = hi, 2*hi
	}
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return mid
		}
		if tUpper(mid, nu, lnB) > tail {
			lo = mid
		} else {
			hi = mid
		}
	}
}
