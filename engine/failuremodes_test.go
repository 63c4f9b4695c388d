package engine_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// These tests exercise the failure modes of the specification's section 05.
// They assert what the model guarantees and log what it measures; the
// figures are collected in docs/validation.md.

// The built-in straggler: replica 1 (8 ms) runs ×5 slower from 5 s to 10 s.
const (
	slowFrom, slowTo = 5000.0, 10000.0
	failSeeds        = 10
)

// stragglerRun is what one seeded straggler run shows about replica 1 during
// the slowdown.
type stragglerRun struct {
	assigned, to1          int     // accepted assignments in the slowdown, and those to replica 1
	firstRun, firstRunTo1  int     // the first stretch with all 3 eligible: decisions, to replica 1
	maxWaiting, endWaiting int     // replica 1's waiting queue, sampled every 10 ms
	capAt                  float64 // first sample at the cap, ms; NaN if never
}

func (r stragglerRun) share() float64 { return float64(r.to1) / float64(r.assigned) }

func runStraggler(t *testing.T, rate float64, pol engine.PolicySpec, seed uint64) stragglerRun {
	t.Helper()
	scn, err := engine.BuiltinScenario("straggler", rate, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	out := stragglerRun{capAt: math.NaN()}
	inFirst := true
	res, err := engine.Run(context.Background(), engine.RunSpec{
		Scenario: scn, Policy: pol, Seed: seed, Protocol: engine.DefaultProtocol(), SampleEvery: 10,
		OnDecision: func(d engine.Decision) {
			if d.At < slowFrom || d.At >= slowTo {
				return
			}
			inFirst = inFirst && d.Eligible == scn.Replicas()
			if inFirst {
				out.firstRun++
				if d.Replica == 1 {
					out.firstRunTo1++
				}
			}
			if d.Replica != 0 {
				out.assigned++
				if d.Replica == 1 {
					out.to1++
				}
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Timeline.Points {
		if p.At < slowFrom || p.At >= slowTo {
			continue
		}
		w := p.Waiting[0]
		out.maxWaiting, out.endWaiting = max(out.maxWaiting, w), w
		if w >= scn.QueueCap && math.IsNaN(out.capAt) {
			out.capAt = p.At
		}
	}
	return out
}

// slowCapacity is the straggler's service rate in req/s: its mean service
// time is 8 ms × 5 for the reference demand of 11 ms, which the token model's
// mean demand matches (11.005 ms, docs/model.md).
const slowCapacity = 1000 / (8 * 5.0)

// Round Robin keeps feeding the straggler: while all three replicas are
// eligible its cursor gives replica 1 exactly every third request, more than
// the slowed replica can serve, so its queue grows toward the cap; at
// 175 req/s it reaches the cap and is then skipped until space opens.
func TestStragglerRoundRobin(t *testing.T) {
	t.Parallel()
	for _, rate := range []float64{100, 175} {
		fill := engine.DefaultQueueCap / (rate/3 - slowCapacity) * 1000 // ms to fill at the fluid rate
		var ends, shares, capAts []float64
		var capSeeds, stretches []string
		reached := 0
		for seed := uint64(1); seed <= failSeeds; seed++ {
			r := runStraggler(t, rate, engine.RoundRobin(), seed)
			shares = append(shares, r.share())
			if len(stretches) < 2 {
				stretches = append(stretches, fmt.Sprintf("%d/%d", r.firstRunTo1, r.firstRun))
			}
			if !math.IsNaN(r.capAt) {
				capSeeds, capAts = append(capSeeds, fmt.Sprint(seed)), append(capAts, r.capAt/1000)
			}
			t.Logf("%g req/s seed %2d: share of replica 1 in the slowdown %.3f (%d/%d); first all-eligible stretch %d/%d; waiting max %d, at 10 s %d, cap reached at %s",
				rate, seed, r.share(), r.to1, r.assigned, r.firstRunTo1, r.firstRun, r.maxWaiting, r.endWaiting, msOrNever(r.capAt))
			if d := float64(r.firstRunTo1) - float64(r.firstRun)/3; math.Abs(d) > 1 {
				t.Errorf("%g req/s seed %d: Round Robin gave replica 1 %d of %d decisions while all were eligible, not every third", rate, seed, r.firstRunTo1, r.firstRun)
			}
			if r.firstRun == 0 {
				t.Errorf("%g req/s seed %d: no decision in the slowdown saw all replicas eligible", rate, seed)
			}
			ends = append(ends, float64(r.endWaiting))
			if !math.IsNaN(r.capAt) {
				reached++
			}
		}
		fluid := math.Min(float64(engine.DefaultQueueCap), (rate/3-slowCapacity)*(slowTo-slowFrom)/1000)
		mean := estimateOf(ends)
		t.Logf("%g req/s: replica 1's queue at 10 s %v (fluid (λ/3 − μ_slow)·5 s, capped: %.1f); cap reached in %d of %d seeds (fluid fill time %.0f ms of the 5000 ms slowdown)",
			rate, mean, fluid, reached, failSeeds, fill)
		at := fmt.Sprintf("r%g", rate)
		figure("straggler.rr-share-"+at, "%s", rangeOf3(shares))
		figure("straggler.stretch-"+at, "%s", strings.Join(stretches, ", "))
		figure("straggler.queue-"+at, "%.1f ± %.2g; %.1f", mean.mean, mean.se, fluid)
		figure("straggler.cap-"+at, "%s", capText(reached, capSeeds, capAts, fill))
		if mean.mean < fluid/2 {
			t.Errorf("%g req/s: replica 1's queue averaged %.1f at the end of the slowdown, under half the fluid %.1f: Round Robin did not feed the straggler", rate, mean.mean, fluid)
		}
		if fill < (slowTo-slowFrom)/2 && reached < failSeeds {
			t.Errorf("%g req/s: the queue fills in %.0f ms at the fluid rate, yet reached the cap in only %d of %d seeds", rate, fill, reached, failSeeds)
		}
	}
}

// capText says in how many seeds replica 1's queue reached the cap, in
// which and when (s), and when the fluid model fills it if within the
// slowdown.
func capText(reached int, seeds []string, ats []float64, fill float64) string {
	out := fmt.Sprintf("%d of %d seeds", reached, failSeeds)
	switch {
	case reached == failSeeds:
		lo, hi := engine.MinMax(ats)
		out += fmt.Sprintf(", at %.2f–%.2f s", lo, hi)
	case reached > 0:
		times := make([]string, len(ats))
		for i, a := range ats {
			times[i] = fmt.Sprintf("%.1f", a)
		}
		out += fmt.Sprintf(" (seeds %s, at %s s)", strings.Join(seeds, ", "), strings.Join(times, ", "))
	}
	if fill < slowTo-slowFrom {
		out += fmt.Sprintf(" (fluid %.2g s)", (slowFrom+fill)/1000)
	}
	return out
}

// rangeOf3 is the min–max of xs to three decimals, or one figure when they
// agree.
func rangeOf3(xs []float64) string {
	lo, hi := engine.MinMax(xs)
	if fmt.Sprintf("%.3f", lo) == fmt.Sprintf("%.3f", hi) {
		return fmt.Sprintf("%.3f", lo)
	}
	return fmt.Sprintf("%.3f–%.3f", lo, hi)
}

// rangeOf1 is the min–max of xs to one decimal.
func rangeOf1(xs []float64) string {
	lo, hi := engine.MinMax(xs)
	return fmt.Sprintf("%.1f–%.1f", lo, hi)
}

func msOrNever(ms float64) string {
	if math.IsNaN(ms) {
		return "never"
	}
	return fmt.Sprintf("%.0f ms", ms)
}

// Latency Aware and Adaptive shift load away from the straggler: at the
// specification's 100 req/s they send it a much smaller share of the
// slowdown's traffic than Round Robin, and less than it can serve. At
// 175 req/s the others cannot take it all; their shares are measured.
func TestStragglerShares(t *testing.T) {
	t.Parallel()
	adaptive := []engine.PolicySpec{engine.LatencyAware(engine.DefaultAlpha), engine.Adaptive(engine.DefaultAdaptiveParams())}
	for _, rate := range []float64{100, 175} {
		shares := map[string][]float64{}
		queues := map[string][]float64{}
		for seed := uint64(1); seed <= failSeeds; seed++ {
			rr := runStraggler(t, rate, engine.RoundRobin(), seed)
			line := fmt.Sprintf("%g req/s seed %2d: round-robin %.3f (queue max %d)", rate, seed, rr.share(), rr.maxWaiting)
			for _, p := range adaptive {
				r := runStraggler(t, rate, p, seed)
				shares[p.Name] = append(shares[p.Name], r.share())
				queues[p.Name] = append(queues[p.Name], float64(r.maxWaiting))
				line += fmt.Sprintf(", %s %.3f (queue max %d)", p.Name, r.share(), r.maxWaiting)
				if rate > 100 {
					continue
				}
				if r.share() > rr.share()/2 {
					t.Errorf("seed %d: %s sent the straggler %.3f of the slowdown's traffic, not much less than Round Robin's %.3f", seed, p.Name, r.share(), rr.share())
				}
				if r.share() >= slowCapacity/rate {
					t.Errorf("seed %d: %s sent the straggler %.3f of the traffic, at least its capacity share %.2f", seed, p.Name, r.share(), slowCapacity/rate)
				}
			}
			t.Log(line + fmt.Sprintf("; the straggler's capacity share is %.2f", slowCapacity/rate))
		}
		for _, p := range adaptive {
			lo, hi := engine.MinMax(queues[p.Name])
			figure(fmt.Sprintf("straggler.%s-r%g", p.Name, rate), "%s / %g–%g", rangeOf3(shares[p.Name]), lo, hi)
		}
	}
}

// recoveryShare is the share of the accepted assignments after `from` that
// went to replica 1.
func recoveryShare(t *testing.T, scn engine.Scenario, pol engine.PolicySpec, seed uint64, from float64, proto engine.Protocol) (share float64, to1, all int) {
	t.Helper()
	_, err := engine.Run(context.Background(), engine.RunSpec{
		Scenario: scn, Policy: pol, Seed: seed, Protocol: proto,
		OnDecision: func(d engine.Decision) {
			if d.At >= from && d.Replica != 0 {
				all++
				if d.Replica == 1 {
					to1++
				}
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return float64(to1) / float64(all), to1, all
}

// Greedy Adaptive (c = 0) can miss a recovery that c = 0.35 notices. Replica
// 1 (the fastest) runs ×5 slower from 1 s to 6 s; at 30 req/s the others are
// rarely congested, so a greedy router that learned replica 1 is slow has no
// reason to try it again, while the exploration bonus of a replica whose
// count stays fixed grows with ln T. Shares are of the 10 s after recovery.
func TestGreedyMissesRecovery(t *testing.T) {
	t.Parallel()
	const (
		onset, recovery = 1000.0, 6000.0
		starved, used   = 0.02, 0.2 // "almost nothing" and "a real share"
	)
	proto := engine.Protocol{Warmup: 0, Measure: 16000, SLO: engine.DefaultSLO}
	greedy := engine.Adaptive(engine.AdaptiveParams{C: 0, Alpha: 0.15, Ceiling: 100})
	explore := engine.Adaptive(engine.AdaptiveParams{C: 0.35, Alpha: 0.15, Ceiling: 100})
	for _, rate := range []float64{30, 100} {
		scn := engine.NewScenario("slow-then-recover")
		scn.Rate = rate
		scn.Events = []engine.Event{{At: onset, Kind: engine.EventSlow, Replica: 1, Value: 5}, {At: recovery, Kind: engine.EventRestore, Replica: 1}}
		var missed []uint64
		var missedText []string
		for seed := uint64(1); seed <= failSeeds; seed++ {
			g, gTo1, gAll := recoveryShare(t, scn, greedy, seed, recovery, proto)
			e, eTo1, eAll := recoveryShare(t, scn, explore, seed, recovery, proto)
			t.Logf("%g req/s seed %2d: replica 1's share after recovery: c=0 %.3f (%d/%d), c=0.35 %.3f (%d/%d)", rate, seed, g, gTo1, gAll, e, eTo1, eAll)
			gText := fmt.Sprintf("%.3f", g)
			if g < 0.05 {
				gText += fmt.Sprintf(" (%d/%d)", gTo1, gAll)
			}
			if g < starved && e >= used {
				missed = append(missed, seed)
				missedText = append(missedText, fmt.Sprint(seed))
				gText = "**" + gText + "**"
			}
			figure(fmt.Sprintf("greedy.r%g-c0.s%d", rate, seed), "%s", gText)
			figure(fmt.Sprintf("greedy.r%g-c035.s%d", rate, seed), "%.3f", e)
		}
		if len(missedText) == 0 {
			missedText = []string{"none"}
		}
		figure(fmt.Sprintf("greedy.missed-r%g", rate), "%s", strings.Join(missedText, ", "))
		t.Logf("%g req/s: greedy sent the recovered replica under %.0f %% while c = 0.35 sent it at least %.0f %% in seeds %v", rate, 100*starved, 100*used, missed)
		if rate == 30 && len(missed) == 0 {
			t.Errorf("%g req/s: no seed where greedy Adaptive starved the recovered replica while c = 0.35 used it", rate)
		}
	}
}

// onsetTrace follows replica 1 boundary by boundary from a slowdown onset.
type onsetTrace struct {
	preShare float64           // share of decisions to replica 1 in the 3 s before the onset
	est0     float64           // the router's ŝ of replica 1 just before the onset
	inFlight int               // replica 1's requests in flight then (they run at the old speed)
	decs     []engine.Decision // decisions from the onset on
	slowed   []slowedCompletion
}

// slowedCompletion is one completion of a request that started after the onset.
type slowedCompletion struct {
	at  float64
	est float64 // ŝ right after it
}

// followOnset steps a simulator to `until`, recording every decision and
// every slowed completion of replica 1, and checks that the router's
// estimates of replica 1 change only when it completes a request.
func followOnset(t *testing.T, scn engine.Scenario, pol engine.PolicySpec, seed uint64, onset, until float64) onsetTrace {
	t.Helper()
	var decs []engine.Decision
	sim, err := engine.NewSimulator(scn, pol, engine.SimOptions{Seed: seed, OnDecision: func(d engine.Decision) { decs = append(decs, d) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Advance(onset - grid); err != nil {
		t.Fatal(err)
	}
	before := sim.Snapshot().Replicas[0]
	tr := onsetTrace{est0: before.ServiceEWMA, inFlight: before.InFlight, preShare: shareTo1(decs, onset-3000, onset)}
	decs = decs[:0]
	unslowed := before.InFlight // in flight before the onset: runs at the old speed
	fin, est, rew := before.Finished, before.ServiceEWMA, before.RewardEWMA
	for sim.Now() < until {
		if err := sim.Advance(grid); err != nil {
			t.Fatal(err)
		}
		r := sim.Snapshot().Replicas[0]
		if r.Finished == fin {
			if r.ServiceEWMA != est || r.RewardEWMA != rew {
				t.Fatalf("seed %d at %g ms: replica 1's estimates changed (ŝ %g → %g, r̄ %g → %g) without a completion", seed, sim.Now(), est, r.ServiceEWMA, rew, r.RewardEWMA)
			}
			continue
		}
		fin, est, rew = r.Finished, r.ServiceEWMA, r.RewardEWMA
		if unslowed > 0 {
			unslowed--
			continue
		}
		tr.slowed = append(tr.slowed, slowedCompletion{at: sim.Now(), est: est})
	}
	tr.decs = decs
	return tr
}

func shareTo1(decs []engine.Decision, from, to float64) float64 {
	n, to1 := 0, 0
	for _, d := range decs {
		if d.At >= from && d.At < to && d.Replica != 0 {
			n++
			if d.Replica == 1 {
				to1++
			}
		}
	}
	return float64(to1) / float64(n)
}

// Both EWMAs update only at completions, with fixed weight α = 0.15 per
// observation: with deterministic service the estimate after k slowed
// completions is s_new − (s_new − s_old)·0.85^k exactly, so the last 7
// observations carry 68 % of the weight and the last 19 carry 95 %. Periodic
// arrivals (every 10 ms, replica 1 taking every third under Round Robin,
// starting at 10, 40, 70 ms, …) put a request in flight on replica 1 at the
// onset (2025 ms, inside its request of 2020–2031 ms): it must finish at the
// old speed, since a slowdown applies from service start.
func TestStaleEstimateEWMALaw(t *testing.T) {
	t.Parallel()
	const onset, s0, factor = 2025.0, 11.0, 5.0
	scn := homogeneous("stale-deterministic", 3, engine.DemandModel{Kind: engine.FixedDemand, Mean: s0}, 100.0/3, engine.DefaultQueueCap)
	scn.Arrivals = engine.Periodic
	scn.Events = []engine.Event{{At: onset, Kind: engine.EventSlow, Replica: 1, Value: factor}}
	tr := followOnset(t, scn, engine.RoundRobin(), 1, onset, onset+3000)
	if tr.est0 != s0 || tr.inFlight != 1 {
		t.Fatalf("before the onset: ŝ %g (want %g, every observation was %g), %d in flight (want 1)", tr.est0, s0, s0, tr.inFlight)
	}
	if len(tr.slowed) < 19 {
		t.Fatalf("only %d slowed completions in 3 s", len(tr.slowed))
	}
	sNew := s0 * factor
	for k, c := range tr.slowed[:19] {
		want := sNew - (sNew-s0)*math.Pow(1-engine.DefaultAlpha, float64(k+1))
		if math.Abs(c.est-want) > 1e-9 {
			t.Errorf("after %d slowed completions ŝ = %.12g, want %.12g", k+1, c.est, want)
		}
	}
	weight := func(k int) float64 { return (tr.slowed[k-1].est - s0) / (sNew - s0) }
	t.Logf("weight of the new level in ŝ after 1, 7, 19 slowed observations: %.3f, %.3f, %.3f (1 − 0.85^k: %.3f, %.3f, %.3f)",
		weight(1), weight(7), weight(19), 1-math.Pow(0.85, 1), 1-math.Pow(0.85, 7), 1-math.Pow(0.85, 19))
	figure("stale.weights", "%.3f, %.3f, %.3f", weight(1), weight(7), weight(19))
}

// The share of replica 1 after the onset is taken over windows of curveMs,
// and from steadyMs after the onset to the end of the slowdown (its steady
// slowed share).
const (
	curveMs, curveWindows = 100.0, 10
	steadyMs              = 1000.0
)

// shareCurve accumulates assignments over seeds, window by window.
type shareCurve struct {
	to1, all             [curveWindows]int
	steadyTo1, steadyAll int
}

func (c *shareCurve) add(decs []engine.Decision) {
	for _, d := range decs {
		if d.Replica == 0 || d.At >= slowTo {
			continue
		}
		since := d.At - slowFrom
		hit := 0
		if d.Replica == 1 {
			hit = 1
		}
		if w := int(since / curveMs); w < curveWindows {
			c.to1[w] += hit
			c.all[w]++
		}
		if since >= steadyMs {
			c.steadyTo1 += hit
			c.steadyAll++
		}
	}
}

func (c *shareCurve) share(w int) float64 { return float64(c.to1[w]) / float64(c.all[w]) }
func (c *shareCurve) steady() float64     { return float64(c.steadyTo1) / float64(c.steadyAll) }

// dropMs is the start of the first window whose share is at most twice the
// steady share; NaN if none is.
func (c *shareCurve) dropMs() float64 {
	for w := range curveWindows {
		if c.share(w) <= 2*c.steady() {
			return float64(w) * curveMs
		}
	}
	return math.NaN()
}

// assignedBefore counts the assignments to replica 1 and the slowed
// completions from the onset until ms after it.
func assignedBefore(tr onsetTrace, ms float64) (to1, slowed int) {
	for _, d := range tr.decs {
		if d.Replica == 1 && d.At < slowFrom+ms {
			to1++
		}
	}
	for _, c := range tr.slowed {
		if c.at < slowFrom+ms {
			slowed++
		}
	}
	return to1, slowed
}

// Stale estimates: after the straggler's onset Latency Aware (and Adaptive)
// keep routing to replica 1 on its old estimate until completions register.
// Measured per seed: assignments made blind (before any slowed completion),
// assignments by the k-th slowed completion with ŝ then; over all seeds: the
// share window by window until it falls to twice its steady slowed level.
func TestStaleEstimates(t *testing.T) {
	t.Parallel()
	scn, err := engine.BuiltinScenario("straggler", 100, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range []engine.PolicySpec{engine.LatencyAware(engine.DefaultAlpha), engine.Adaptive(engine.DefaultAdaptiveParams())} {
		var curve shareCurve
		var traces []onsetTrace
		var pre, blinds []float64
		byK := map[int][]float64{}
		estK := map[int][]float64{}
		for seed := uint64(1); seed <= failSeeds; seed++ {
			tr := followOnset(t, scn, pol, seed, slowFrom, slowTo)
			if len(tr.slowed) == 0 {
				t.Fatalf("%s seed %d: replica 1 completed no slowed request in the slowdown", pol.Name, seed)
			}
			traces = append(traces, tr)
			curve.add(tr.decs)
			t.Logf("%s seed %2d: share before %.2f, ŝ %.1f ms; %s", pol.Name, seed, tr.preShare, tr.est0, describeOnset(tr))
			blind, _ := assignedBefore(tr, tr.slowed[0].at-slowFrom)
			pre, blinds = append(pre, tr.preShare), append(blinds, float64(blind))
			if len(tr.slowed) < 7 {
				t.Fatalf("%s seed %d: only %d slowed completions in the slowdown", pol.Name, seed, len(tr.slowed))
			}
			for _, k := range []int{1, 3, 5, 7} {
				c := tr.slowed[k-1]
				a, _ := assignedBefore(tr, c.at-slowFrom+grid/2)
				byK[k], estK[k] = append(byK[k], float64(a)), append(estK[k], c.est)
			}
			if total, _ := assignedBefore(tr, slowTo-slowFrom); total == blind {
				t.Errorf("%s seed %d: no assignment to replica 1 after its first slowed completion; one observation moves ŝ by only α of the gap", pol.Name, seed)
			}
		}
		line := ""
		for w := range curveWindows {
			line += fmt.Sprintf(" %.3f", curve.share(w))
		}
		drop := curve.dropMs()
		t.Logf("%s: share of replica 1 in successive %g ms windows after the onset:%s; steady (1–5 s after) %.3f; within twice the steady share from %g ms",
			pol.Name, curveMs, line, curve.steady(), drop)
		if math.IsNaN(drop) {
			t.Fatalf("%s: the share of replica 1 stayed above twice its steady %.3f for %g ms", pol.Name, curve.steady(), curveMs*curveWindows)
		}
		if curve.share(0) <= 2*curve.steady() {
			t.Errorf("%s: share %.3f in the first %g ms after the onset is already within twice the steady %.3f: no stale window", pol.Name, curve.share(0), curveMs, curve.steady())
		}
		var to1s, slows []float64
		for _, tr := range traces {
			a, k := assignedBefore(tr, drop)
			to1s, slows = append(to1s, float64(a)), append(slows, float64(k))
		}
		t.Logf("%s: before %g ms, replica 1 took a median of %g assignments and completed %g slowed requests (range %v, %v)",
			pol.Name, drop, engine.Median(to1s), engine.Median(slows), rangeOf(to1s), rangeOf(slows))
		name := "stale." + pol.Name
		figure(name+".pre", "%s", rangeOf3(pre))
		figure(name+".blind", "%g (%s)", engine.Median(blinds), rangeOf(blinds))
		var assigned, estimates []string
		for _, k := range []int{1, 3, 5, 7} {
			assigned, estimates = append(assigned, rangeOf(byK[k])), append(estimates, rangeOf1(estK[k]))
		}
		figure(name+".by-k", "%s", strings.Join(assigned, " / "))
		figure(name+".est-k", "%s", strings.Join(estimates, " / "))
		figure(name+".windows", "%s", strings.TrimSpace(line))
		figure(name+".steady", "%.3f", curve.steady())
		figure(name+".drop", "%g ms", drop)
		figure(name+".before-drop", "%g (%s) / %g (%s)", engine.Median(to1s), rangeOf(to1s), engine.Median(slows), rangeOf(slows))
	}
}

// describeOnset lists the assignments to replica 1 made blind and by its
// 1st, 3rd, 5th, 7th slowed completions, with ŝ after each.
func describeOnset(tr onsetTrace) string {
	blind, _ := assignedBefore(tr, tr.slowed[0].at-slowFrom)
	out := fmt.Sprintf("%d blind assignments", blind)
	for _, k := range []int{1, 3, 5, 7} {
		if k > len(tr.slowed) {
			break
		}
		c := tr.slowed[k-1]
		a, _ := assignedBefore(tr, c.at-slowFrom+grid/2)
		out += fmt.Sprintf("; by slowed completion %d (%.0f ms): %d assigned, ŝ %.1f", k, c.at-slowFrom, a, c.est)
	}
	return out
}

func rangeOf(xs []float64) string {
	lo, hi := engine.MinMax(xs)
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%g–%g", lo, hi)
}
