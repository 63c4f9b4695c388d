package experiment

import (
	"math"
	"testing"

	"github.com/routelab/routelab/engine"
)

// dispersion is the time-average, over the timeline after from ms, of the
// standard deviation of the replicas' outstanding requests.
func dispersion(tl *engine.Timeline, from float64) float64 {
	var sum float64
	n := 0
	for _, p := range tl.Points {
		if p.At <= from {
			continue
		}
		var m, m2 float64
		for i := range p.Waiting {
			o := float64(p.Waiting[i] + p.InFlight[i])
			m += o
			m2 += o * o
		}
		k := float64(len(p.Waiting))
		m /= k
		sum += math.Sqrt(max(0, m2/k-m*m))
		n++
	}
	return sum / float64(n)
}

// Stale signals make least-queue routing herd: between scrapes every
// request goes to the replica that looked least loaded at the last one, so
// the replicas' queues spread apart. Paired over ten seeds (the same
// requests with fresh and with 200 ms-old signals), the dispersion of the
// outstanding requests grows: the engine's paired t-interval of the
// difference (docs/statistics.md) lies above zero, the stale side worse.
func TestStaleSignalsHerd(t *testing.T) {
	proto := engine.Protocol{Warmup: 60000, Measure: 300000, SLO: 1e6}
	const seeds = 10
	spread := engine.Metric{Key: "queue_dispersion", Name: "queue dispersion", Unit: "req", Better: engine.LowerIsBetter,
		About: "time-average standard deviation of the replicas' outstanding requests"}
	pairs := make([]SeedPair, seeds)
	for i := range pairs {
		var d [2]float64
		for j, refresh := range []float64{0, 200} {
			r := mustRun(t, engine.RunSpec{Scenario: herdingScenario(refresh), Policy: engine.LeastQueue(), Seed: uint64(i + 1), Protocol: proto, SampleEvery: 10})
			checkConservation(t, r)
			d[j] = dispersion(r.Timeline, proto.Warmup)
		}
		pairs[i] = newSeedPair(spread, uint64(i+1), d[0], d[1])
	}
	st := pairedStat(spread, PairedT, "refresh 0 ms", "refresh 200 ms", pairs)
	t.Logf("std dev of outstanding requests across replicas: fresh %.3f, 200 ms old %.3f; paired difference %+.3f, 95 %% interval [%+.3f, %+.3f] (÷ unpaired %.2f), stale worse on %d of %d seeds: %s",
		st.BaselineMean, st.PolicyMean, st.DiffMean, st.CILow, st.CIHigh, st.WidthRatio, st.Losses, st.Seeds, st.Verdict())
	if st.CILow <= 0 || st.Verdict() != VerdictWorse {
		t.Errorf("no herding measured: paired difference %+.3f, interval [%+.3f, %+.3f]", st.DiffMean, st.CILow, st.CIHigh)
	}
}
