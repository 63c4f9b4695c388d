package engine

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/internal/xmath"
)

func view(rs ...Replica) *View {
	v := &View{Replicas: rs}
	for i := range rs {
		rs[i].ID = i + 1
		rs[i].Outstanding = rs[i].Waiting + rs[i].InFlight
		v.TotalCompleted += rs[i].Completed
		if rs[i].Healthy {
			v.Eligible = append(v.Eligible, rs[i])
		}
	}
	return v
}

func healthy(waiting, inFlight int) Replica {
	return Replica{Waiting: waiting, InFlight: inFlight, Healthy: true, ServiceEWMA: 11, RewardEWMA: 0.89}
}

func newPolicy(t *testing.T, spec PolicySpec, n int) Policy {
	t.Helper()
	p, err := spec.New(PolicyEnv{Replicas: n, Rand: NewRand(1, streamPolicy)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func pick(t *testing.T, p Policy, v *View) int {
	t.Helper()
	id, err := p.Pick(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Round Robin: the cursor walks the ordered eligible list; when membership
// changes, positions map to different replicas.
func TestRoundRobinCursorOverEligibleList(t *testing.T) {
	p := newPolicy(t, RoundRobin(), 3)
	all := view(healthy(0, 0), healthy(0, 0), healthy(0, 0))
	var got []int
	for i := 0; i < 4; i++ {
		got = append(got, pick(t, p, all))
	}
	// Replica 2 leaves: the cursor (now 4) indexes the list [1, 3].
	two := view(healthy(0, 0), Replica{}, healthy(0, 0))
	got = append(got, pick(t, p, two), pick(t, p, two))
	want := []int{1, 2, 3, 1, 1, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("round robin picked %v, want %v", got, want)
		}
	}
}

// The cursor advances only on accepted assignments: a shed request (no
// eligible replica) never reaches the policy, so the cursor stays put.
func TestRoundRobinCursorStaysOnShed(t *testing.T) {
	scn := NewScenario("shed")
	scn.Speeds = []float64{8, 8}
	scn.QueueCap = 1
	scn.Rate = 2000
	// Check every decision made with both replicas eligible against a cursor
	// that advances on accepted assignments only.
	var cursor, shed, checked, mismatch int
	mustRun(t, RunSpec{Scenario: scn, Policy: RoundRobin(), Seed: 1, Protocol: Protocol{Warmup: 0, Measure: 200, SLO: 50},
		OnDecision: func(d Decision) {
			if d.Replica == 0 {
				shed++
				return
			}
			if d.Eligible == 2 {
				checked++
				if d.Replica != cursor%2+1 {
					mismatch++
				}
			}
			cursor++
		}})
	if shed == 0 || checked == 0 {
		t.Fatalf("shed %d, checked %d: the scenario does not exercise the rule", shed, checked)
	}
	if mismatch != 0 {
		t.Fatalf("%d of %d decisions disagree with a cursor that advances only on acceptance", mismatch, checked)
	}
}

func TestLeastQueueCountsWaitingPlusInFlight(t *testing.T) {
	p := newPolicy(t, LeastQueue(), 3)
	// Replica 1 waits on 1 with one in flight (2); replica 2 has 2 waiting, idle
	// slot impossible in the model but the count is what matters (2); replica 3
	// has 1 in flight and 0 waiting (1).
	if id := pick(t, p, view(healthy(1, 1), healthy(2, 0), healthy(0, 1))); id != 3 {
		t.Errorf("picked %d, want 3 (fewest waiting + in flight)", id)
	}
	// Waiting alone would pick replica 1 (0 waiting) but it has 1 in flight.
	if id := pick(t, p, view(healthy(0, 1), healthy(1, 0), healthy(0, 0))); id != 3 {
		t.Errorf("picked %d, want 3", id)
	}
	if id := pick(t, p, view(healthy(1, 1), healthy(0, 1), healthy(0, 1))); id != 2 {
		t.Errorf("tie picked %d, want the lowest id 2", id)
	}
}

func TestLatencyAwareCost(t *testing.T) {
	p := newPolicy(t, LatencyAware(DefaultAlpha), 3)
	la := p.(*latencyAware)
	la.est[0].v, la.est[1].v, la.est[2].v = 8, 11, 16
	// Costs: (2+1)·8 = 24, (1+1)·11 = 22, (0+1)·16 = 16.
	if id := pick(t, p, view(healthy(1, 1), healthy(0, 1), healthy(0, 0))); id != 3 {
		t.Errorf("picked %d, want 3 (cost 16)", id)
	}
	// Costs 24, 22, 32: replica 2.
	if id := pick(t, p, view(healthy(1, 1), healthy(0, 1), healthy(1, 0))); id != 2 {
		t.Errorf("picked %d, want 2 (cost 22)", id)
	}
	// The EWMA: one observation of 21 ms moves 11 by α·10.
	la.est[1].v = 11
	p.Observe(2, 21)
	if got := la.est[1].v; math.Abs(got-12.5) > 1e-12 {
		t.Errorf("EWMA after observing 21 ms = %v, want 12.5", got)
	}
	// Equal cost: lowest id.
	la.est[0].v, la.est[1].v = 10, 10
	if id := pick(t, p, view(healthy(0, 0), healthy(0, 0), healthy(5, 1))); id != 1 {
		t.Errorf("tie picked %d, want 1", id)
	}
}

func TestAdaptiveScore(t *testing.T) {
	p := newPolicy(t, Adaptive(DefaultAdaptiveParams()), 3).(*adaptive)
	obs := []struct {
		id int
		s  float64
	}{{1, 7}, {1, 9}, {2, 12}, {3, 30}, {1, 8}, {3, 18}}
	for _, o := range obs {
		p.Observe(o.id, o.s)
	}
	v := view(healthy(2, 1), healthy(0, 1), healthy(0, 0))
	lnT := math.Log(6)
	n := []float64{3, 1, 2}
	for i, r := range v.Eligible {
		want := p.r[i].v + 0.35*math.Sqrt(lnT/n[i]) - float64(r.Outstanding)*p.s[i].v/100
		if got := p.score(&r, xmath.Log(6)); math.Abs(got-want) > 1e-12 {
			t.Errorf("replica %d score %v, want %v", r.ID, got, want)
		}
	}
	// Before any observation T = 0: ln(max(T,1)) = 0, no exploration bonus,
	// so the score is 0.89 − o·11/100 and the emptiest replica wins.
	fresh := newPolicy(t, Adaptive(DefaultAdaptiveParams()), 3)
	if id := pick(t, fresh, view(healthy(1, 0), healthy(0, 1), healthy(0, 0))); id != 3 {
		t.Errorf("fresh adaptive picked %d, want 3", id)
	}
	if id := pick(t, fresh, view(healthy(0, 1), healthy(0, 0), healthy(0, 0))); id != 2 {
		t.Errorf("tie picked %d, want the lowest id 2", id)
	}
}

// Before any reward is clipped (every service time below L), the matched
// EWMAs keep r̄ = 1 − ŝ/L exactly (up to rounding), so without exploration
// the score is 1 − (o+1)·ŝ/L: a normalised Latency Aware.
func TestAdaptiveRewardIdentityBeforeClipping(t *testing.T) {
	p := newPolicy(t, Adaptive(DefaultAdaptiveParams()), 3).(*adaptive)
	r := NewRand(7, 7)
	for i := 0; i < 10000; i++ {
		id := 1 + r.Intn(3)
		p.Observe(id, 1+98*r.Float64()) // < L = 100 ms: never clipped
		for j := 0; j < 3; j++ {
			if d := p.r[j].v - (1 - p.s[j].v/100); math.Abs(d) > 1e-12 {
				t.Fatalf("after %d observations replica %d: r̄ − (1 − ŝ/L) = %g", i+1, j+1, d)
			}
		}
	}
	greedy := newPolicy(t, Adaptive(AdaptiveParams{C: 0, Alpha: DefaultAlpha, Ceiling: 100}), 3).(*adaptive)
	la := newPolicy(t, LatencyAware(DefaultAlpha), 3).(*latencyAware)
	for i := 0; i < 5000; i++ {
		id, s := 1+r.Intn(3), 1+98*r.Float64()
		greedy.Observe(id, s)
		la.Observe(id, s)
		v := view(healthy(r.Intn(4), r.Intn(2)), healthy(r.Intn(4), r.Intn(2)), healthy(r.Intn(4), r.Intn(2)))
		for _, rep := range v.Eligible {
			want := 1 - float64(rep.Outstanding+1)*la.est[rep.ID-1].v/100
			if got := greedy.score(&rep, 0); math.Abs(got-want) > 1e-9 {
				t.Fatalf("greedy score %v, want 1 − (o+1)ŝ/L = %v", got, want)
			}
		}
	}
	// Once a reward clips (s > L) the identity no longer holds.
	p.Observe(1, 250)
	if d := p.r[0].v - (1 - p.s[0].v/100); math.Abs(d) < 1e-6 {
		t.Errorf("identity still holds after a clipped reward (difference %g)", d)
	}
}

// Randomised policies draw from their own stream: the workload (and its
// fingerprint) is the same as under a deterministic policy.
func TestRandomisedPoliciesLeaveWorkloadAlone(t *testing.T) {
	scn := mustScenario(t, "burst", 200, DefaultHeterogeneity)
	ref := mustRun(t, RunSpec{Scenario: scn, Policy: LeastQueue(), Seed: 5})
	for _, p := range []PolicySpec{Random(), PowerOfTwo()} {
		if r := mustRun(t, RunSpec{Scenario: scn, Policy: p, Seed: 5}); r.Fingerprint != ref.Fingerprint || r.Cohort != ref.Cohort {
			t.Errorf("%s changed the workload", p.Name)
		}
	}
}

func TestPowerOfTwoPicksLessLoadedOfTwo(t *testing.T) {
	p := newPolicy(t, PowerOfTwo(), 3)
	counts := map[int]int{}
	for i := 0; i < 30000; i++ {
		counts[pick(t, p, view(healthy(0, 0), healthy(3, 1), healthy(3, 1)))]++
	}
	// Replica 1 is in the sampled pair with probability 2/3 and always wins it.
	if share := float64(counts[1]) / 30000; math.Abs(share-2.0/3) > 0.02 {
		t.Errorf("replica 1 share %.3f, want ≈ 2/3", share)
	}
	// Between 2 and 3 (equal load) the lower id wins: replica 3 never picked.
	if counts[3] != 0 {
		t.Errorf("replica 3 picked %d times despite ties going to the lower id", counts[3])
	}
}

func TestPolicyPickingIneligibleReplicaIsAnError(t *testing.T) {
	bad := PolicySpec{Name: "always-two", New: func(PolicyEnv) (Policy, error) { return fixedPick(2), nil }}
	scn := mustScenario(t, "failure", 100, DefaultHeterogeneity)
	_, err := Run(t.Context(), RunSpec{Scenario: scn, Policy: bad, Seed: 1, Protocol: DefaultProtocol()})
	if err == nil || !contains(err.Error(), `policy "always-two" picked replica 2, which is not eligible (eligible: 1, 3)`) {
		t.Fatalf("error %v", err)
	}
}

type fixedPick int

func (f fixedPick) Pick(*View) (int, error) { return int(f), nil }
func (fixedPick) Observe(int, float64)      {}

type panicky struct{}

func (panicky) Pick(v *View) (int, error) {
	if v.Now > 100 {
		panic("scoring blew up")
	}
	return v.Eligible[0].ID, nil
}
func (panicky) Observe(int, float64) {}

func TestPolicyPanicBecomesError(t *testing.T) {
	spec := PolicySpec{Name: "panicky", New: func(PolicyEnv) (Policy, error) { return panicky{}, nil }}
	_, err := Run(t.Context(), RunSpec{Scenario: NewScenario("x"), Policy: spec, Seed: 1, Protocol: DefaultProtocol()})
	if err == nil || !contains(err.Error(), `policy "panicky" panicked: scoring blew up`) {
		t.Fatalf("error %v", err)
	}
}

// Every built-in says it is one, and a tuned built-in carries the values it
// runs with, in the order of its name.
func TestBuiltinSpecsSayWhatTheyAre(t *testing.T) {
	for _, n := range PolicyNames() {
		if p, _ := PolicyByName(n); p.Kind != BuiltinPolicy {
			t.Errorf("%s: kind %q", n, p.Kind)
		}
	}
	a := Adaptive(AdaptiveParams{C: 0.1, Alpha: 0.3, Ceiling: 80})
	want := []PolicyParam{
		{Name: "c", Value: 0.1, About: "exploration weight"},
		{Name: "α", Value: 0.3, About: "EWMA weight of the newest observation"},
		{Name: "L", Value: 80, Unit: "ms", About: "reward ceiling"},
	}
	if a.Name != "adaptive(c=0.1,α=0.3,L=80)" || !slices.Equal(a.Params, want) {
		t.Errorf("adaptive: %q %v", a.Name, a.Params)
	}
	if la := LatencyAware(0.5); la.Name != "latency-aware(α=0.5)" || len(la.Params) != 1 || la.Params[0].Value != 0.5 {
		t.Errorf("latency-aware: %q %v", la.Name, la.Params)
	}
	if err := (AdaptiveParams{C: 0.35, Alpha: 0, Ceiling: 100}).Validate(); err == nil || !strings.Contains(err.Error(), "alpha: 0 is not allowed") {
		t.Errorf("Validate: %v", err)
	}
}

// Join-idle-queue: the lowest idle id when any replica is idle (an
// unhealthy idle one is not eligible); otherwise every eligible replica is
// drawn, uniformly.
func TestJoinIdleQueue(t *testing.T) {
	p := newPolicy(t, JoinIdleQueue(), 4)
	if id := pick(t, p, view(healthy(2, 1), healthy(0, 0), healthy(1, 1), healthy(0, 0))); id != 2 {
		t.Errorf("picked %d, want the lowest idle replica, 2", id)
	}
	if id := pick(t, p, view(healthy(2, 1), Replica{}, healthy(0, 0))); id != 3 {
		t.Errorf("picked %d, want 3: replica 2 is idle but not eligible", id)
	}
	busy := view(healthy(5, 1), healthy(0, 1), healthy(9, 1))
	count := map[int]int{}
	for range 30000 {
		count[pick(t, p, busy)]++
	}
	for id := 1; id <= 3; id++ {
		if c := count[id]; c < 9500 || c > 10500 {
			t.Errorf("with no idle replica, replica %d drawn %d times of 30000, want about 10000", id, c)
		}
	}
}

// Shortest expected delay: the least (outstanding + 1) × mean service time,
// ties to the lowest id; with no service times it is the shortest queue; a
// wrong number of them is refused when the run starts.
func TestShortestExpectedDelay(t *testing.T) {
	p := newPolicy(t, ShortestExpectedDelay(8, 11, 16), 3)
	// costs 3·8 = 24, 2·11 = 22, 1·16 = 16
	if id := pick(t, p, view(healthy(2, 0), healthy(1, 0), healthy(0, 0))); id != 3 {
		t.Errorf("picked %d, want 3 (16 ms against 22 and 24)", id)
	}
	// costs 2·8 = 16, 2·11 = 22, 1·16 = 16: a tie, to the lowest id
	if id := pick(t, p, view(healthy(1, 0), healthy(0, 1), healthy(0, 0))); id != 1 {
		t.Errorf("picked %d, want 1 (a tie with 3)", id)
	}
	if id := pick(t, newPolicy(t, ShortestExpectedDelay(), 3), view(healthy(3, 1), healthy(2, 1), healthy(2, 1))); id != 2 {
		t.Errorf("equal service times: picked %d, want the shortest queue's lowest id, 2", id)
	}
	if _, err := ShortestExpectedDelay(8, 11).New(PolicyEnv{Replicas: 3}); err == nil || !strings.Contains(err.Error(), "one mean service time per replica (3)") {
		t.Errorf("two service times for three replicas: %v", err)
	}
	if _, err := ShortestExpectedDelay(8, -1, 3).New(PolicyEnv{Replicas: 3}); err == nil || !strings.Contains(err.Error(), "sed.mean_ms[1]") {
		t.Errorf("a negative service time: %v", err)
	}
	if n := ShortestExpectedDelay(8, 11, 16).Name; n != "sed(s1=8,s2=11,s3=16)" {
		t.Errorf("name %q", n)
	}
}

// Least KV: the lowest KV utilisation, then the fewest outstanding, then
// the lowest id.
func TestLeastKV(t *testing.T) {
	p := newPolicy(t, LeastKV(), 3)
	a, b, c := healthy(1, 4), healthy(0, 2), healthy(3, 5)
	a.KVUtil, b.KVUtil, c.KVUtil = 0.5, 0.7, 0.2
	if id := pick(t, p, view(a, b, c)); id != 3 {
		t.Errorf("picked %d, want 3 (KV 0.2)", id)
	}
	a.KVUtil, b.KVUtil, c.KVUtil = 0.5, 0.5, 0.5
	if id := pick(t, p, view(a, b, c)); id != 2 {
		t.Errorf("picked %d, want 2 (equal KV, fewest outstanding)", id)
	}
}

// Each registry name is its spec's name at default parameters: the name a
// comparison shows is the name the CLI, study files and lab.Builtin take.
func TestRegistryNamesAreSpecNames(t *testing.T) {
	for _, name := range PolicyNames() {
		spec, err := PolicyByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Name != name || spec.Kind != BuiltinPolicy || PolicyAbout(name) == "" {
			t.Errorf("registry entry %q gives a spec named %q of kind %q, about %q", name, spec.Name, spec.Kind, PolicyAbout(name))
		}
	}
}

// Weighted round robin: with service estimates 2, 10 and 10 ms (weights
// 5 : 1 : 1) it gives nginx's smooth sequence a a b a c a a, worked by hand
// from the credits (ties to the lowest id at the third pick); with the
// starting estimates it is plain round robin; a replica that is not
// eligible neither gains nor pays credit; α is checked.
func TestWeightedRoundRobin(t *testing.T) {
	p := newPolicy(t, WeightedRoundRobin(1), 3)
	all := view(healthy(0, 0), healthy(0, 0), healthy(0, 0))
	var got []int
	for range 6 {
		got = append(got, pick(t, p, all))
	}
	if !slices.Equal(got, []int{1, 2, 3, 1, 2, 3}) {
		t.Errorf("equal estimates picked %v, want plain round robin", got)
	}
	p = newPolicy(t, WeightedRoundRobin(1), 3)
	p.Observe(1, 2)
	p.Observe(2, 10)
	p.Observe(3, 10)
	got = got[:0]
	for range 14 {
		got = append(got, pick(t, p, all))
	}
	want := []int{1, 1, 2, 1, 3, 1, 1, 1, 1, 2, 1, 3, 1, 1}
	if !slices.Equal(got, want) {
		t.Errorf("weights 5:1:1 picked %v, want %v (twice nginx's a a b a c a a)", got, want)
	}
	p = newPolicy(t, WeightedRoundRobin(1), 3)
	noTwo := view(healthy(0, 0), Replica{}, healthy(0, 0))
	got = []int{pick(t, p, noTwo), pick(t, p, noTwo), pick(t, p, all), pick(t, p, all), pick(t, p, all)}
	// By hand, weights all 1/11 (call them 1): 1 and 3 gain 1 each, 1 wins
	// and pays 2; then 3 wins; with replica 2 back all three gain 1: the
	// credits are 1, 1, 1, so 1 wins the tie and pays 3; then 2 (2 against
	// -1 and 2, tie to the lower id), then 3.
	if !slices.Equal(got, []int{1, 3, 1, 2, 3}) {
		t.Errorf("replica 2 away, then back: %v, want [1 3 1 2 3]", got)
	}
	if _, err := WeightedRoundRobin(0).New(PolicyEnv{Replicas: 3}); err == nil || !strings.Contains(err.Error(), "0 is not allowed") {
		t.Errorf("α = 0 gave %v", err)
	}
	if name := WeightedRoundRobin(0.5).Name; name != "weighted-rr(α=0.5)" {
		t.Errorf("a tuned weighted round robin is named %q", name)
	}
}
