package engine

import (
	"math"
	"math/big"
	"math/bits"
)

// remainder is the time Advance has been given beyond the last boundary it
// reached, kept exactly. Callers pass float64 chunks that are rarely whole
// nanoseconds (1/3 ms is not even a finite binary fraction), so rounding
// each chunk would drift: 3,000 chunks of 1/3 ms once reached 999.5 ms.
// Instead the chunks are summed exactly and only the total is rounded, to
// the nearest nanosecond, when deciding which boundary time has reached.
// Whole steps leave the remainder exactly, so the boundary reached depends
// only on the exact sum of the chunks, not on how it was split.
//
// Every float64 is an integer times a power of two, so the remainder is
// n / 2^k ms: exact, and a word or two for the chunks callers use.
type remainder struct {
	n    big.Int // may be just below zero after rounding up to a boundary
	k    uint    // >= 1 once used, so that half a millisecond is 2^(k-1)
	t, u big.Int // scratch
}

// stepNs is the timestep in nanoseconds.
const stepNs = int64(StepMs * 1e6)

// add adds dt (finite, >= 0) ms and takes out and returns the whole steps
// the remainder now reaches.
func (r *remainder) add(dt float64) int64 {
	r.k = max(r.k, 1)
	if dt > 0 {
		r.addExact(dt)
	}
	// ns = floor(n·1e6/2^k + 1/2): rounded half up, the same for every split.
	r.t.Mul(&r.n, big.NewInt(1e6))
	r.t.Add(&r.t, r.u.Lsh(big.NewInt(1), r.k-1))
	r.t.Rsh(&r.t, r.k) // floor, and t >= 0
	steps := r.t.Quo(&r.t, big.NewInt(stepNs))
	r.n.Sub(&r.n, r.u.Lsh(steps, r.k-1))
	r.normalise()
	return steps.Int64()
}

// addExact adds dt = mant·2^exp to n/2^k, refining k when dt has finer bits.
func (r *remainder) addExact(dt float64) {
	frac, exp := math.Frexp(dt)
	mant := uint64(frac * (1 << 53)) // exact: frac has at most 53 significant bits
	exp -= 53
	tz := bits.TrailingZeros64(mant)
	mant >>= tz
	exp += tz
	if exp < -int(r.k) {
		r.n.Lsh(&r.n, uint(-exp)-r.k)
		r.k = uint(-exp)
	}
	r.n.Add(&r.n, r.u.Lsh(r.u.SetUint64(mant), uint(exp+int(r.k))))
}

// normalise drops trailing zero bits of n, keeping k >= 1, so a fine chunk
// long past does not keep the numbers long.
func (r *remainder) normalise() {
	if r.n.Sign() == 0 {
		r.k = 1
		return
	}
	if drop := min(r.n.TrailingZeroBits(), r.k-1); drop > 0 {
		r.n.Rsh(&r.n, drop)
		r.k -= drop
	}
}
