// Package xmath holds exactly specified elementary functions for the
// workload and the statistics. Go's math.Log and
// math.Exp may use assembly on some platforms and the compiler may fuse a*b+c
// into one FMA instruction on others; either can change the last bit of a
// result. The workload must be identical everywhere, so these follow the
// classic fdlibm algorithms in plain Go, with every product wrapped in an
// explicit float64 conversion, which the Go specification says forbids fusion.
package xmath

import "math"

// Mul is a*b, never fused with an addition.
func Mul(a, b float64) float64 { return float64(a * b) }

// polyN evaluates c0 + x*(c1 + x*(c2 + ...)) by Horner's rule without
// fusion. Fixed arities let the compiler inline them into straight-line code.
func poly3(x, c0, c1, c2 float64) float64 { return Mul(Mul(c2, x)+c1, x) + c0 }

func poly4(x, c0, c1, c2, c3 float64) float64 { return Mul(poly3(x, c1, c2, c3), x) + c0 }

func poly5(x, c0, c1, c2, c3, c4 float64) float64 { return Mul(poly4(x, c1, c2, c3, c4), x) + c0 }

func poly8(x, c0, c1, c2, c3, c4, c5, c6, c7 float64) float64 {
	return Mul(Mul(Mul(poly5(x, c3, c4, c5, c6, c7), x)+c2, x)+c1, x) + c0
}

const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// Log is the natural logarithm of x > 0 (fdlibm's e_log algorithm).
func Log(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	f := m - 1
	k := float64(e)
	s := f / (2 + f)
	s2 := Mul(s, s)
	s4 := Mul(s2, s2)
	t1 := Mul(s2, poly4(s4, 6.666666666666735130e-01, 2.857142874366239149e-01,
		1.818357216161805012e-01, 1.479819860511658591e-01))
	t2 := Mul(s4, poly3(s4, 3.999999999940941908e-01, 2.222219843214978396e-01,
		1.531383769920937332e-01))
	hfsq := Mul(Mul(0.5, f), f)
	return Mul(k, ln2Hi) - ((hfsq - (Mul(s, hfsq+t1+t2) + Mul(k, ln2Lo))) - f)
}

// Exp is e**x (fdlibm's e_exp algorithm).
func Exp(x float64) float64 {
	const (
		log2e    = 1.44269504088896338700e+00
		overflow = 7.09782712893383973096e+02
		under    = -7.45133219101941108420e+02
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case math.IsInf(x, -1):
		return 0
	case x > overflow:
		return math.Inf(1)
	case x < under:
		return 0
	}
	var k int
	switch {
	case x < 0:
		k = int(Mul(log2e, x) - 0.5)
	case x > 0:
		k = int(Mul(log2e, x) + 0.5)
	}
	hi := x - Mul(float64(k), ln2Hi)
	lo := Mul(float64(k), ln2Lo)
	r := hi - lo
	t := Mul(r, r)
	c := r - Mul(t, poly5(t, 1.66666666666666657415e-01, -2.77777777770155933842e-03,
		6.61375632143793436117e-05, -1.65339022054652515390e-06, 4.13813679705723846039e-08))
	y := 1 - ((lo - Mul(r, c)/(2-c)) - hi)
	if k > -1021 && k < 1023 {
		// Multiplying by a power of two is exact while the result is normal.
		return y * math.Float64frombits(uint64(k+1023)<<52)
	}
	return math.Ldexp(y, k)
}

// NormQuantile is the standard normal quantile function for p in (0, 1)
// (Wichura's algorithm AS 241, relative accuracy about 1e-16).
func NormQuantile(p float64) float64 {
	q := p - 0.5
	if math.Abs(q) <= 0.425 {
		r := 0.180625 - Mul(q, q)
		return Mul(q, poly8(r, 3.3871328727963666080e0, 1.3314166789178437745e+2,
			1.9715909503065514427e+3, 1.3731693765509461125e+4, 4.5921953931549871457e+4,
			6.7265770927008700853e+4, 3.3430575583588128105e+4, 2.5090809287301226727e+3)) /
			poly8(r, 1, 4.2313330701600911252e+1, 6.8718700749205790830e+2,
				5.3941960214247511077e+3, 2.1213794301586595867e+4, 3.9307895800092710610e+4,
				2.8729085735721942674e+4, 5.2264952788528545610e+3)
	}
	r := p
	if q > 0 {
		r = 1 - p
	}
	r = math.Sqrt(-Log(r))
	var v float64
	if r <= 5 {
		r -= 1.6
		v = poly8(r, 1.42343711074968357734e0, 4.63033784615654529590e0,
			5.76949722146069140550e0, 3.64784832476320460504e0, 1.27045825245236838258e0,
			2.41780725177450611770e-1, 2.27238449892691845833e-2, 7.74545014278341407640e-4) /
			poly8(r, 1, 2.05319162663775882187e0, 1.67638483018380384940e0,
				6.89767334985100004550e-1, 1.48103976427480074590e-1, 1.51986665636164571966e-2,
				5.47593808499534494600e-4, 1.05075007164441684324e-9)
	} else {
		r -= 5
		v = poly8(r, 6.65790464350110377720e0, 5.46378491116411436990e0,
			1.78482653991729133580e0, 2.96560571828504891230e-1, 2.65321895265761230930e-2,
			1.24266094738807843860e-3, 2.71155556874348757815e-5, 2.01033439929228813265e-7) /
			poly8(r, 1, 5.99832206555887937690e-1, 1.36929880922735805310e-1,
				1.48753612908506148525e-2, 7.86869131145613259100e-4, 1.84631831751005468180e-5,
				1.42151175831644588870e-7, 2.04426310338993978564e-15)
	}
	if q < 0 {
		return -v
	}
	return v
}
