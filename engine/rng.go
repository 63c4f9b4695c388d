package engine

import "math/bits"

// Rand is xoshiro256** (Blackman and Vigna), seeded through SplitMix64. The
// project owns the algorithm, so a seed yields the same numbers on every Go
// version and platform; math/rand's generators carry no such promise.
type Rand struct {
	s [4]uint64
}

// Stream identifiers: each purpose draws from its own stream so that, for
// example, a randomised policy never perturbs the workload (common random
// numbers across policies).
const (
	streamWorkload  uint64 = 1
	streamPolicy    uint64 = 2
	StreamBootstrap uint64 = 3 // the experiment layer's resampler of paired intervals, never a run's
	streamServing   uint64 = 4 // serving attributes, drawn only with a serving section
	streamProbe     uint64 = 5 // the replicas a router probes
)

// NewRand returns the generator for (seed, stream).
func NewRand(seed, stream uint64) *Rand {
	r := &Rand{}
	r.Seed(seed, stream)
	return r
}

// Seed resets r to the start of stream for seed.
func (r *Rand) Seed(seed, stream uint64) {
	x := seed ^ (stream * 0xd1b54a32d192ed03)
	for i := range r.s {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		r.s[i] = z ^ (z >> 31)
	}
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	s := &r.s
	out := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return out
}

// Float64 returns a uniform number in [0, 1) with 53 random bits.
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) * 0x1p-53
}

// Open returns a uniform number in the open interval (0, 1), safe for
// inverse transforms that take a logarithm: the midpoints of 2^52 equal
// cells (with 53 bits the top midpoint would round to 1).
func (r *Rand) Open() float64 {
	return (float64(r.Uint64()>>12) + 0.5) * 0x1p-52
}

// Intn returns a uniform integer in [0, n) for n > 0 (Lemire's method with
// rejection, so the result is unbiased).
func (r *Rand) Intn(n int) int {
	bound := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound {
		thresh := -bound % bound
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), bound)
		}
	}
	return int(hi)
}
