package engine

import (
	"math"
	"testing"

	"github.com/routelab/routelab/internal/xmath"
)

func ulps(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x > y {
		return x - y
	}
	return y - x
}

func TestXlogMatchesMath(t *testing.T) {
	r := NewRand(7, 99)
	for i := 0; i < 200000; i++ {
		x := r.Open()
		switch i % 3 {
		case 1:
			x *= 1e6
		case 2:
			x = math.Ldexp(x, -900)
		}
		if d := ulps(xmath.Log(x), math.Log(x)); d > 1 {
			t.Fatalf("xlog(%v) = %v, math.Log = %v (%d ulps)", x, xmath.Log(x), math.Log(x), d)
		}
	}
	for _, x := range []float64{1, 2, math.E, 0.5, math.MaxFloat64, 1e-300} {
		if d := ulps(xmath.Log(x), math.Log(x)); d > 1 {
			t.Errorf("xlog(%v) = %v, want %v", x, xmath.Log(x), math.Log(x))
		}
	}
	if !math.IsInf(xmath.Log(0), -1) || !math.IsNaN(xmath.Log(-1)) {
		t.Error("xlog special cases")
	}
}

func TestXexpMatchesMath(t *testing.T) {
	r := NewRand(8, 99)
	for i := 0; i < 200000; i++ {
		x := (r.Float64() - 0.5) * 1400
		if i%2 == 0 {
			x /= 100
		}
		// Both implementations are within one ulp of the true value, so they
		// may differ from each other by two.
		if d := ulps(xmath.Exp(x), math.Exp(x)); d > 2 {
			t.Fatalf("xexp(%v) = %v, math.Exp = %v (%d ulps)", x, xmath.Exp(x), math.Exp(x), d)
		}
	}
	if got := xmath.Log(0x1p-1074); math.Abs(got+744.4400719213812) > 1e-12 {
		t.Errorf("xlog of the smallest subnormal = %v", got)
	}
	if xmath.Exp(0) != 1 || xmath.Exp(math.Inf(-1)) != 0 || !math.IsInf(xmath.Exp(1000), 1) {
		t.Error("xexp special cases")
	}
}

// The quantile must invert the normal CDF to near machine precision; a wrong
// coefficient shows up here immediately.
func TestNormQuantileInvertsCDF(t *testing.T) {
	cdf := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
	r := NewRand(9, 99)
	for i := 0; i < 100000; i++ {
		p := r.Open()
		if i%4 == 0 {
			p = math.Ldexp(p, -40)
		}
		z := xmath.NormQuantile(p)
		if rel := math.Abs(cdf(z)-p) / p; rel > 1e-12 {
			t.Fatalf("Φ(normQuantile(%g)) = %g, relative error %g", p, cdf(z), rel)
		}
	}
	if xmath.NormQuantile(0.5) != 0 {
		t.Errorf("median %v", xmath.NormQuantile(0.5))
	}
}

// Reference vectors: xoshiro256** from the state {1, 2, 3, 4} and SplitMix64
// from zero, as published with the algorithms.
func TestRandReferenceVectors(t *testing.T) {
	r := Rand{s: [4]uint64{1, 2, 3, 4}}
	for i, want := range []uint64{11520, 0, 1509978240, 1215971899390074240} {
		if got := r.Uint64(); got != want {
			t.Fatalf("xoshiro256** output %d = %d, want %d", i, got, want)
		}
	}
	var z Rand
	z.Seed(0, 0)
	if z.s[0] != 0xe220a8397b1dcdaf {
		t.Fatalf("SplitMix64 first output %#x", z.s[0])
	}
}

// Golden first outputs pin the generator: any change to the algorithm or its
// seeding would silently change every workload, so it must fail here.
func TestRandGolden(t *testing.T) {
	r := NewRand(1, streamWorkload)
	got := []uint64{r.Uint64(), r.Uint64(), r.Uint64()}
	want := []uint64{0xbaa24e21d05c2935, 0x19ac350577648864, 0x7ef054b7f95a306a}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("NewRand(1, workload) output %d = %#x, want %#x", i, got[i], want[i])
		}
	}
}

func TestIntnUniform(t *testing.T) {
	r := NewRand(3, 5)
	var counts [3]int
	const n = 300000
	for i := 0; i < n; i++ {
		counts[r.Intn(3)]++
	}
	for i, c := range counts {
		if math.Abs(float64(c)/n-1.0/3) > 0.005 {
			t.Errorf("Intn(3) bucket %d has share %.4f", i, float64(c)/n)
		}
	}
}

// Open must stay strictly inside (0, 1) even for the extreme bit patterns.
func TestOpenNeverZeroOrOne(t *testing.T) {
	var zero Rand // the all-zero state yields zeros
	if u := zero.Open(); u <= 0 || u >= 1 {
		t.Fatalf("Open() of zero bits = %v", u)
	}
	if u := openValue(openGrid - 1); u >= 1 {
		t.Fatalf("largest Open() value = %v", u)
	}
	if u := (float64(^uint64(0)>>12) + 0.5) * 0x1p-52; u >= 1 {
		t.Fatalf("Open() of all-one bits = %v", u)
	}
}
