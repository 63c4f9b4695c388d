package experiment

import (
	"math"
	"testing"

	"github.com/routelab/routelab/internal/xmath"
)

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

func TestLgammaMatchesMath(t *testing.T) {
	for _, x := range []float64{0.5, 0.75, 1, 1.5, 2, 2.5, 3.7, 5, 10, 17.25, 100, 1234.5, 1e5, 1e6} {
		want, _ := math.Lgamma(x)
		// Near its zeros at 1 and 2 ln Γ is small: compare absolutely there.
		if d := math.Abs(lgamma(x) - want); d > 1e-13*math.Max(1, math.Abs(want)) {
			t.Errorf("lgamma(%g) = %.17g, math.Lgamma %.17g", x, lgamma(x), want)
		}
	}
	if got, want := lgamma(0.5), 0.5*math.Log(math.Pi); relErr(got, want) > 1e-15 {
		t.Errorf("lgamma(½) = %.17g, want ln √π = %.17g", got, want)
	}
	for _, x := range []float64{0.49, 0, -1, math.NaN(), math.Inf(1)} {
		if !math.IsNaN(lgamma(x)) {
			t.Errorf("lgamma(%g) = %g, want NaN (outside x >= 0.5)", x, lgamma(x))
		}
	}
}

// The incomplete beta function against its closed forms:
// I_x(a, 1) = xᵃ, I_x(1, b) = 1 − (1−x)ᵇ, I_x(½, ½) = (2/π)·asin(√x).
func TestRegIncBetaClosedForms(t *testing.T) {
	for _, x := range []float64{1e-6, 0.01, 0.2, 0.5, 0.7, 0.93, 0.999999} {
		for _, a := range []float64{0.5, 1, 2.5, 7, 40} {
			if got, want := regIncBeta(a, 1, x, 1-x, lbeta(a, 1)), math.Pow(x, a); math.Abs(got-want) > 1e-13 {
				t.Errorf("I_%g(%g, 1) = %.17g, want %.17g", x, a, got, want)
			}
			if got, want := regIncBeta(1, a, x, 1-x, lbeta(1, a)), 1-math.Pow(1-x, a); math.Abs(got-want) > 1e-13 {
				t.Errorf("I_%g(1, %g) = %.17g, want %.17g", x, a, got, want)
			}
		}
		if got, want := regIncBeta(0.5, 0.5, x, 1-x, lbeta(0.5, 0.5)), 2/math.Pi*math.Asin(math.Sqrt(x)); math.Abs(got-want) > 1e-13 {
			t.Errorf("I_%g(½, ½) = %.17g, want %.17g", x, got, want)
		}
	}
	if regIncBeta(2, 3, 0, 1, lbeta(2, 3)) != 0 || regIncBeta(2, 3, 1, 0, lbeta(2, 3)) != 1 {
		t.Error("I_0 must be 0 and I_1 must be 1")
	}
}

// tUpper against the closed forms for one and two degrees of freedom and,
// for other ν (fractional too), against Simpson's rule on the density
// Γ((ν+1)/2) / (√(νπ) Γ(ν/2)) · (1 + t²/ν)^−(ν+1)/2 from t to a far point.
func TestTUpperTail(t *testing.T) {
	for _, x := range []float64{0, 0.3, 1, 2.5, 10, 300} {
		if got, want := tUpper(x, 1, lbeta(0.5, 0.5)), 0.5-math.Atan(x)/math.Pi; math.Abs(got-want) > 1e-14 {
			t.Errorf("P(T₁ > %g) = %.17g, want %.17g", x, got, want)
		}
		if got, want := tUpper(x, 2, lbeta(1, 0.5)), 0.5*(1-x/math.Sqrt(2+x*x)); math.Abs(got-want) > 1e-14 {
			t.Errorf("P(T₂ > %g) = %.17g, want %.17g", x, got, want)
		}
	}
	for _, nu := range []float64{3, 5.29, 9, 30} {
		lg1, _ := math.Lgamma((nu + 1) / 2)
		lg2, _ := math.Lgamma(nu / 2)
		c := math.Exp(lg1-lg2) / math.Sqrt(nu*math.Pi)
		density := func(x float64) float64 { return c * math.Pow(1+x*x/nu, -(nu+1)/2) }
		for _, x := range []float64{0.5, 1.7, 2.6} {
			want := simpson(density, x, 2000, 400000) + tUpper(2000, nu, lbeta(nu/2, 0.5))
			if got := tUpper(x, nu, lbeta(nu/2, 0.5)); math.Abs(got-want) > 1e-10 {
				t.Errorf("P(T_%g > %g) = %.15g, quadrature %.15g", nu, x, got, want)
			}
		}
	}
}

// simpson integrates f over [a, b] with n (even) intervals.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	sum := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(a+float64(i)*h)
	}
	return sum * h / 3
}

// Closed forms of the quantile: ν = 1, t = tan(π(p − ½)); ν = 2,
// t = (2p − 1)/√(2p(1 − p)); ν = 4, with α = 4p(1 − p) and
// q = cos(⅓·acos(√α))/√α, t = sign(p − ½)·2√(q − 1).
func TestTQuantileClosedForms(t *testing.T) {
	for _, p := range []float64{0.0005, 0.025, 0.1, 0.3, 0.6, 0.9, 0.95, 0.975, 0.995, 0.9999} {
		one := math.Tan(math.Pi * (p - 0.5))
		two := (2*p - 1) / math.Sqrt(2*p*(1-p))
		alpha := 4 * p * (1 - p)
		q := math.Cos(math.Acos(math.Sqrt(alpha))/3) / math.Sqrt(alpha)
		four := math.Copysign(2*math.Sqrt(q-1), p-0.5)
		for _, c := range []struct{ nu, want float64 }{{1, one}, {2, two}, {4, four}} {
			if got := tQuantile(p, c.nu); relErr(got, c.want) > 1e-11 {
				t.Errorf("t(%g; ν=%g) = %.17g, closed form %.17g", p, c.nu, got, c.want)
			}
		}
	}
}

// The NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.2
// (upper critical values of Student's t), to its three decimals.
func TestTQuantileMatchesPublishedTable(t *testing.T) {
	ps := []float64{0.90, 0.95, 0.975, 0.99, 0.995}
	table := map[float64][5]float64{
		1:   {3.078, 6.314, 12.706, 31.821, 63.657},
		2:   {1.886, 2.920, 4.303, 6.965, 9.925},
		3:   {1.638, 2.353, 3.182, 4.541, 5.841},
		4:   {1.533, 2.132, 2.776, 3.747, 4.604},
		5:   {1.476, 2.015, 2.571, 3.365, 4.032},
		6:   {1.440, 1.943, 2.447, 3.143, 3.707},
		7:   {1.415, 1.895, 2.365, 2.998, 3.499},
		8:   {1.397, 1.860, 2.306, 2.896, 3.355},
		9:   {1.383, 1.833, 2.262, 2.821, 3.250},
		10:  {1.372, 1.812, 2.228, 2.764, 3.169},
		15:  {1.341, 1.753, 2.131, 2.602, 2.947},
		20:  {1.325, 1.725, 2.086, 2.528, 2.845},
		30:  {1.310, 1.697, 2.042, 2.457, 2.750},
		60:  {1.296, 1.671, 2.000, 2.390, 2.660},
		100: {1.290, 1.660, 1.984, 2.364, 2.626},
	}
	for nu, row := range table {
		for i, p := range ps {
			if got := tQuantile(p, nu); math.Abs(got-row[i]) > 0.0005 {
				t.Errorf("t(%g; ν=%g) = %.6f, table %.3f", p, nu, got, row[i])
			}
			if got := tQuantile(1-p, nu); math.Abs(got+row[i]) > 0.0005 {
				t.Errorf("t(%g; ν=%g) = %.6f, want −%.3f (symmetry)", 1-p, nu, got, row[i])
			}
		}
	}
}

// For large ν the quantile approaches the normal one as
// t ≈ z + (z³ + z)/(4ν) (Abramowitz and Stegun 26.7.5); the next term is
// below 3e-8 at ν = 10⁴.
func TestTQuantileLargeNu(t *testing.T) {
	for _, p := range []float64{0.9, 0.975, 0.995} {
		z := xmath.NormQuantile(p)
		for _, nu := range []float64{1e4, 1e6} {
			want := z + (z*z*z+z)/(4*nu)
			if got := tQuantile(p, nu); math.Abs(got-want) > 1e-7 {
				t.Errorf("t(%g; ν=%g) = %.12f, expansion %.12f", p, nu, got, want)
			}
		}
	}
}

func TestTQuantileRoundTripAndRefusals(t *testing.T) {
	for _, nu := range []float64{1, 1.5, 5.29, 13.7, 250.25} {
		for _, p := range []float64{0.51, 0.8, 0.975, 0.999} {
			q := tQuantile(p, nu)
			if got := tUpper(q, nu, lbeta(nu/2, 0.5)); math.Abs(got-(1-p)) > 1e-14 {
				t.Errorf("P(T_%g > t(%g)) = %.17g, want %.17g", nu, p, got, 1-p)
			}
		}
	}
	for _, c := range []struct{ p, nu float64 }{{0, 5}, {1, 5}, {-0.1, 5}, {math.NaN(), 5}, {0.9, 0.5}, {0.9, math.Inf(1)}, {0.9, math.NaN()}} {
		if got := tQuantile(c.p, c.nu); !math.IsNaN(got) {
			t.Errorf("tQuantile(%g, %g) = %g, want NaN", c.p, c.nu, got)
		}
	}
	if tQuantile(0.5, 7) != 0 {
		t.Error("the median of t is 0")
	}
}
