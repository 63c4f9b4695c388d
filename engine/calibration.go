package engine

import "math"

// DemandMoments draws the demands of the first n requests of seed's
// workload under d (the stream every run of that seed draws) and returns
// their mean in ms and their coefficient of variation: the calibration
// docs/model.md quotes for the default token model, and a way to size a
// custom model's rate against a cluster's capacity.
func DemandMoments(d DemandModel, seed uint64, n int) (mean, cv float64, err error) {
	if n < 1 {
		return 0, 0, fieldErr("n", n, "a number of requests >= 1")
	}
	if err := d.validate(); err != nil {
		return 0, 0, err
	}
	s := NewScenario("demand moments")
	s.Demand = d
	w := newWorkload(&s, seed, nil)
	var sum, sq float64
	for range n {
		x := w.pop().demand
		sum += x
		sq += x * x
	}
	mean = sum / float64(n)
	return mean, math.Sqrt(max(0, sq/float64(n)-mean*mean)) / mean, nil
}
