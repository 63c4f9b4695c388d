package engine

import (
	"math"
	"strings"
	"testing"
)

// The synthetic token model is calibrated: mean demand 11 ± 0.5 ms and a
// coefficient of variation between 0.3 and 0.6 (docs/model.md gives the
// numbers).
func TestDemandCalibration(t *testing.T) {
	const n = 1000000
	mean, cv, err := DemandMoments(DefaultDemand(), 1, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("token demand: mean %.3f ms, CV %.3f over %d requests", mean, cv, n)
	if math.Abs(mean-ReferenceDemand) > 0.5 {
		t.Errorf("mean demand %.3f ms, want 11 ± 0.5", mean)
	}
	if cv < 0.3 || cv > 0.6 {
		t.Errorf("demand CV %.3f, want 0.3–0.6", cv)
	}
}

// DemandMoments agrees with the distributions it samples: a fixed demand
// has no spread, an exponential one a CV of 1, and bad input is refused.
func TestDemandMoments(t *testing.T) {
	mean, cv, err := DemandMoments(DemandModel{Kind: FixedDemand, Mean: 7}, 3, 1000)
	if err != nil || mean != 7 || cv != 0 {
		t.Errorf("deterministic 7 ms: mean %v, CV %v, %v", mean, cv, err)
	}
	mean, cv, err = DemandMoments(DemandModel{Kind: ExponentialDemand, Mean: 10}, 3, 200000)
	if err != nil || math.Abs(mean-10) > 0.1 || math.Abs(cv-1) > 0.02 {
		t.Errorf("exponential 10 ms: mean %v, CV %v, %v", mean, cv, err)
	}
	if _, _, err := DemandMoments(DefaultDemand(), 1, 0); err == nil || !strings.Contains(err.Error(), "n: 0 is not allowed") {
		t.Errorf("n = 0 gave %v", err)
	}
	if _, _, err := DemandMoments(DemandModel{Kind: "uniform"}, 1, 10); err == nil {
		t.Error("an unknown demand kind was accepted")
	}
}

func TestTokenCountsStayInBounds(t *testing.T) {
	m := DefaultTokenModel()
	r := NewRand(5, 5)
	for i := 0; i < 200000; i++ {
		p, o := m.Prompt.draw(r.Open()), m.Output.draw(r.Open())
		if p < m.Prompt.Min || p > m.Prompt.Max || o < m.Output.Min || o > m.Output.Max {
			t.Fatalf("token counts %d/%d outside bounds", p, o)
		}
	}
	for _, u := range []float64{openValue(0), openValue(openGrid - 1)} {
		if p := m.Prompt.draw(u); p != m.Prompt.Min && p != m.Prompt.Max {
			t.Errorf("extreme uniform %v gave %d prompt tokens, want a bound", u, p)
		}
	}
}

// Every request takes exactly four draws from the workload stream, whatever
// the demand model, so the stream position after n requests is fixed.
func TestFourDrawsPerRequest(t *testing.T) {
	for _, d := range []DemandModel{DefaultDemand(),
		{Kind: ExponentialDemand, Mean: 11}, {Kind: FixedDemand, Mean: 11}, {Kind: LogNormalDemand, Mean: 11, CV: 1}} {
		s := NewScenario("draws")
		s.Demand = d
		w := newWorkload(&s, 42, nil)
		for i := 0; i < 999; i++ {
			w.pop()
		}
		// newWorkload generated one request ahead: 1000 requests drawn.
		ref := NewRand(42, streamWorkload)
		for i := 0; i < 4000; i++ {
			ref.Uint64()
		}
		if ref.s != w.rng.s {
			t.Errorf("%s demand: stream position differs from 4 draws per request", d.Kind)
		}
	}
}

func TestJitterRange(t *testing.T) {
	s := NewScenario("jitter")
	w := newWorkload(&s, 3, nil)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := 0; i < 100000; i++ {
		j := w.pop().jitter
		lo, hi = math.Min(lo, j), math.Max(hi, j)
	}
	if lo < 0.9 || hi >= 1.1 || lo > 0.901 || hi < 1.099 {
		t.Errorf("jitter range [%v, %v], want U(0.9, 1.1)", lo, hi)
	}
	s.Jitter = 0
	w = newWorkload(&s, 3, nil)
	if j := w.pop().jitter; j != 1 {
		t.Errorf("jitter off gives %v", j)
	}
}

// The workload of a seed is pinned: any change to the generator, the draw
// order or the elementary functions changes these exact values on every
// platform, which would silently change every published figure.
func TestWorkloadGolden(t *testing.T) {
	s := NewScenario("golden")
	w := newWorkload(&s, 1, nil)
	var got [3]request
	for i := range got {
		got[i] = w.pop()
	}
	want := goldenWorkload()
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("request %d = %+v\nwant          %+v", i+1, got[i], want[i])
		}
	}
}

// Periodic arrivals make the rescaling rule visible exactly: at a rate change
// the remaining gap is multiplied by λ_old/λ_new, with no new draw.
func TestRateChangeRescalesRemainingGap(t *testing.T) {
	s := NewScenario("rescale")
	s.Arrivals = Periodic
	s.Rate = 100 // a request every 10 ms
	s.Events = []Event{{At: 25, Kind: EventSetRate, Value: 400}}
	w := newWorkload(&s, 1, nil)
	var times []float64
	for i := 0; i < 5; i++ {
		times = append(times, w.pop().arrival)
	}
	// 10, 20, then the 30 ms arrival has 5 ms left at t=25: 25 + 5·100/400 = 26.25,
	// then every 2.5 ms.
	want := []float64{10, 20, 26.25, 28.75, 31.25}
	for i := range want {
		if math.Abs(times[i]-want[i]) > 1e-9 {
			t.Fatalf("arrival times %v, want %v", times, want)
		}
	}
}

// The Poisson process keeps its rate across a change: counts per window match
// each rate.
func TestPoissonRateChange(t *testing.T) {
	s := NewScenario("rate")
	s.Rate = 100
	s.Events = []Event{{At: 100000, Kind: EventScaleRate, Value: 3}}
	w := newWorkload(&s, 9, nil)
	var before, after int
	for {
		a := w.pop().arrival
		if a > 200000 {
			break
		}
		if a <= 100000 {
			before++
		} else {
			after++
		}
	}
	if math.Abs(float64(before)-10000) > 400 || math.Abs(float64(after)-30000) > 700 {
		t.Errorf("arrivals %d before (want ≈10000), %d after (want ≈30000)", before, after)
	}
}

func TestLiveRateChangeRescalesPendingArrival(t *testing.T) {
	s := NewScenario("live")
	s.Arrivals = Periodic
	s.Rate = 100
	sim, err := NewSimulator(s, LeastQueue(), SimOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Advance(12); err != nil { // arrivals at 10; next pending at 20
		t.Fatal(err)
	}
	if err := sim.Apply(Event{Kind: EventSetRate, Value: 200}); err != nil {
		t.Fatal(err)
	}
	// The change takes effect at the next boundary, 12.5 ms, when 7.5 ms
	// of the gap remained; at twice the rate 3.75 ms remain.
	if got := sim.wl.next.arrival; got != 16.25 {
		t.Errorf("pending arrival at %v, want 16.25", got)
	}
}

func TestTraceReplay(t *testing.T) {
	s := NewScenario("trace")
	s.Arrivals = Replay
	s.Trace = []TraceRecord{{At: 1, Prompt: 100, Output: 10}, {At: 1, Prompt: 0, Output: 0}, {At: 7.25, Prompt: 4000, Output: 900}}
	s.Jitter = 0
	w := newWorkload(&s, 1, nil)
	m := s.Demand.Tokens
	for i, rec := range s.Trace {
		r := w.pop()
		if r.arrival != rec.At || r.demand != m.Demand(rec.Prompt, rec.Output) {
			t.Errorf("request %d = %+v, want trace %+v", i, r, rec)
		}
	}
	if w.has {
		t.Error("workload continues past the end of the trace")
	}
}

// goldenWorkload is the first three requests of seed 1 under the default
// scenario, bit for bit (arrival 3.160279395443595 ms, demand 8.271 ms =
// 2.34 + 0.004·144 + 0.045·119, ...).
func goldenWorkload() [3]request {
	b := math.Float64frombits
	return [3]request{
		{seq: 1, arrival: b(0x40094840904d391f), demand: b(0x40208ac083126e97), jitter: b(0x3fed875b62c6399c), prompt: 144, output: 119},
		{seq: 2, arrival: b(0x401961ae9ee8460c), demand: b(0x401d4dd2f1a9fbe7), jitter: b(0x3fee55c939b3b00a), prompt: 234, output: 90},
		{seq: 3, arrival: b(0x4022ee932796c947), demand: b(0x401b6f9db22d0e56), jitter: b(0x3fee952fa34f4520), prompt: 556, output: 51},
	}
}
