package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"
)

// richServing is a serving scenario that exercises everything at once:
// shared prefixes and sessions, priorities and a priority queue, chunked
// prefill, KV pressure (preemptions), stale signals and probes, a failure
// and a straggler.
func richServing(rate float64) Scenario {
	s := servingScenario(rate)
	cfg := *s.Serving
	cfg.MaxBatch, cfg.KVBlocks, cfg.Queue = 16, 1200, PriorityQueue
	cfg.Workload = ServingWorkload{PrefixGroups: 8, ZipfS: 1, SystemPromptTokens: 800, Sessions: 20, MeanTurns: 3,
		MaxContextTokens: 12000, CriticalShare: 0.2, SheddableShare: 0.3}
	cfg.Signals = SignalConfig{RefreshMs: 100, Probes: 2, ProbeDelayMs: 1}
	s.Serving = &cfg
	s.Events = []Event{{At: 20000, Kind: EventFail, Replica: 2}, {At: 40000, Kind: EventRecover, Replica: 2},
		{At: 30000, Kind: EventSlow, Replica: 1, Value: 3}, {At: 50000, Kind: EventRestore, Replica: 1}}
	return s
}

// Advancing in any chunks, or visiting every boundary, gives the same
// serving run; snapshots change nothing.
func TestServingAdvanceChunkInvariance(t *testing.T) {
	proto := Protocol{Warmup: 5000, Measure: 55000, SLO: 1e5}
	scn := richServing(9)
	run := func(chunks []float64, everyStep, snap bool) string {
		s, err := NewSimulator(scn, PowerOfTwo(), SimOptions{Seed: 6, Measure: &proto, SampleEvery: 250})
		if err != nil {
			t.Fatal(err)
		}
		s.everyStep = everyStep
		for _, c := range chunks {
			if err := s.Advance(c); err != nil {
				t.Fatal(err)
			}
			if snap {
				s.Snapshot()
			}
		}
		r, err := s.Result()
		if err != nil {
			t.Fatal(err)
		}
		return state(s) + fmt.Sprintf("%+v %+v %+v", s.sampler.tl, *r.Serving, resultJSON(t, r))
	}
	ref := run([]float64{proto.Horizon()}, false, false)
	if got := run(randomChunks(proto.Horizon(), 3), false, true); got != ref {
		t.Error("random chunks with snapshots differ from one Advance")
	}
	if got := run(evenChunks(proto.Horizon(), 7), true, false); got != ref {
		t.Error("visiting every boundary differs from skipping idle ones")
	}
}

// In steady state a serving run allocates nothing.
func TestServingSteadyStateAllocatesNothing(t *testing.T) {
	for _, p := range []PolicySpec{LeastQueue(), PowerOfTwo(), LeastKV()} {
		scn := servingScenario(9)
		cfg := *scn.Serving
		cfg.Workload = ServingWorkload{PrefixGroups: 50, ZipfS: 1, SystemPromptTokens: 600, CriticalShare: 0.1}
		cfg.Signals.RefreshMs = 100
		scn.Serving = &cfg
		proto := Protocol{Warmup: 1000, Measure: 1e7, SLO: 1e5}
		s, err := NewSimulator(scn, p, SimOptions{Seed: 1, Measure: &proto})
		if err != nil {
			t.Fatal(err)
		}
		checkSteadyAllocs(t, s, p.Name, 600000, 10000, 1000, "10 s of simulated serving")
	}
}

// completionLog records every completion a policy hears of.
type completionLog struct {
	leastQueue
	seen map[int64]Completion
	dup  *int
}

func (l completionLog) ObserveCompletion(c Completion) {
	if _, ok := l.seen[c.Request.Seq]; ok {
		*l.dup++
	}
	l.seen[c.Request.Seq] = c
}

// Under KV pressure requests are preempted and come back; each completes
// once, with all its tokens, and requests are conserved.
func TestPreemptedRequestsCompleteOnce(t *testing.T) {
	s := richServing(9)
	s.Events = nil
	seen, dup := map[int64]Completion{}, 0
	spec := PolicySpec{Name: "log", New: func(PolicyEnv) (Policy, error) { return completionLog{seen: seen, dup: &dup}, nil }}
	r := mustRun(t, RunSpec{Scenario: s, Policy: spec, Seed: 2, Protocol: Protocol{Warmup: 10000, Measure: 120000, SLO: 1e5}})
	checkConservation(t, r)
	preempted := 0
	for _, c := range seen {
		if c.Preemptions > 0 {
			preempted++
		}
	}
	if dup != 0 || r.Serving.Preemptions == 0 || preempted == 0 {
		t.Fatalf("%d duplicate completions, %d cohort preemptions, %d preempted requests completed", dup, r.Serving.Preemptions, preempted)
	}
	var window int64
	for _, p := range r.PerReplica {
		window += p.Serving.Preemptions
	}
	t.Logf("%d preemptions in the window; %d cohort requests preempted (%d times), completed once each; KV utilisation %.2f",
		window, r.Serving.Preempted, r.Serving.Preemptions, r.Serving.MeanKVUtil)
}

// fuzzServing builds a serving scenario from fuzz bytes: every field valid
// but with a small chance of a bad value (any bit pattern for a float), so
// that both refusals and runs of every feature are explored.
func fuzzServing(data []byte) (Scenario, Protocol, uint64, int) {
	next := func() uint64 {
		if len(data) < 8 {
			data = append(data, make([]byte, 8)...)
		}
		v := binary.LittleEndian.Uint64(data)
		data = data[8:]
		return v
	}
	bad := func() bool { return next()%24 == 0 }
	f := func(lo, hi float64) float64 {
		v := next()
		if v%24 == 0 {
			return math.Float64frombits(v)
		}
		return lo + (hi-lo)*float64(v>>11)/(1<<53)
	}
	i := func(lo, hi int) int { return lo + int(next()%uint64(hi-lo+1)) }
	either := func(x int) int { // x or 0, half the time each
		if next()%2 == 0 {
			return 0
		}
		return x
	}
	s := servingScenario(f(0.5, 30))
	s.Speeds = s.Speeds[:i(1, 3)]
	s.QueueCap = i(1, 60) - either(i(0, 1)*i(0, 1)*100)
	s.Jitter = f(0, 0.3)
	s.Demand.Tokens.Prompt = TokenCount{Median: f(1, 3000), Sigma: f(0, 1.5), Min: i(1, 64), Max: i(64, 9000)}
	s.Demand.Tokens.Output = TokenCount{Median: f(1, 400), Sigma: f(0, 1.5), Min: i(0, 8) + either(1), Max: i(8, 1200)}
	w := ServingWorkload{CriticalShare: f(0, 0.5), SheddableShare: f(0, 0.5)}
	if g := either(i(1, 40)); g > 0 {
		w.PrefixGroups, w.ZipfS, w.SystemPromptTokens = g, f(0, 2), i(1, 2000)
	}
	if n := either(i(1, 30)); n > 0 {
		w.Sessions, w.MeanTurns, w.MaxContextTokens = n, f(1, 6), w.SystemPromptTokens+9000+i(0, 8000)
	}
	if next()%3 == 0 {
		share := f(0, 1)
		w.Mix = []RequestClass{PromptHeavy(share), DecodeHeavy(1 - share)}
	}
	c := ServingConfig{
		MaxBatch: i(1, 40), ChunkedPrefill: next()%2 == 0, OverheadMs: f(0, 16.25),
		Queue: []QueueOrder{"", FIFOQueue, PriorityQueue}[next()%3], BlockTokens: either(i(1, 64)),
		PrefixCacheBlocks: either(i(1, 3000)), Workload: w,
		Signals: SignalConfig{RefreshMs: float64(either(i(1, 400))) / 2, Probes: either(i(1, len(s.Speeds))),
			PrefixIndex: []PrefixIndex{"", ApproximateIndex, PreciseIndex}[next()%3]},
		SLO: ServingSLO{TTFTMs: f(0, 2000), ITLMs: f(0, 100)},
	}
	if c.Signals.Probes > 0 {
		c.Signals.ProbeDelayMs = float64(i(0, 10)) / 2
	}
	if c.ChunkedPrefill || next()%2 == 0 {
		c.TokenBudget = either(c.MaxBatch + i(1, 4000))
	}
	if kv := either(1); kv > 0 {
		c.KVBlocks = (20000+i(0, 20000))/max(c.BlockTokens, DefaultBlocks) + i(0, 2000)
	}
	for _, spoil := range []func(){ // at most a few fields made bad
		func() { c.MaxBatch = i(-2, 0) }, func() { c.KVBlocks = i(1, 300) }, func() { c.Signals.RefreshMs = f(-10, 10) },
		func() { c.Signals.Probes = len(s.Speeds) + i(1, 3) }, func() { c.Workload.SystemPromptTokens = i(-5, 0) },
		func() { c.OverheadMs = f(16.3, 100) }, func() { c.TokenBudget = i(1, max(1, c.MaxBatch)) }, func() { c.Queue = "bogus" },
		func() { c.Signals.ProbeDelayMs = 0.25 }, func() { s.Demand.Tokens.Output.Min = 0 },
	} {
		if bad() {
			spoil()
		}
	}
	s.Serving = &c
	kinds := []EventKind{EventSlow, EventRestore, EventFail, EventRecover, EventScaleRate}
	for range i(0, 4) {
		s.Events = append(s.Events, Event{At: f(0, 40000), Kind: kinds[next()%5], Replica: i(1, len(s.Speeds)), Value: f(0.5, 4)})
	}
	p := Protocol{Warmup: float64(i(0, 20000)), Measure: float64(i(1, 60000)), SLO: 1e5}
	return s, p, next()%5 + 1, i(0, 8)
}

// FuzzServing: no serving configuration panics the engine; an invalid one
// is refused with a FieldError before any run; a valid one conserves
// requests, and a request preempted and then finished completes once.
// Seeds are kept under testdata/fuzz/FuzzServing.
func FuzzServing(f *testing.F) {
	f.Add([]byte("serving"))
	f.Add(bytes.Repeat([]byte{7, 1, 0, 0, 0, 0, 0, 200}, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		scn, proto, seed, pi := fuzzServing(data)
		policies := append(allPolicies(), PolicySpec{Name: "log"})
		seen, dup := map[int64]Completion{}, 0
		policy := policies[pi%len(policies)]
		if policy.Name == "log" {
			policy.New = func(PolicyEnv) (Policy, error) { return completionLog{seen: seen, dup: &dup}, nil }
		}
		r, err := Run(t.Context(), RunSpec{Scenario: scn, Policy: policy, Seed: seed, Protocol: proto})
		if err != nil {
			var fe *FieldError
			if r != nil || !errors.As(err, &fe) {
				t.Fatalf("error %v (result %v): want a FieldError and no result", err, r != nil)
			}
			return
		}
		checkConservation(t, r)
		if dup != 0 {
			t.Fatalf("%d requests completed twice", dup)
		}
		if r.Serving.OnTime > r.Completed || r.Serving.TTFT.Count != r.Completed {
			t.Fatalf("serving figures %+v inconsistent with %d completed", *r.Serving, r.Completed)
		}
	})
}

// A run's record says serving goodput is its serving on-time requests per
// second of the measurement window, the window end-to-end goodput divides
// by, whatever the window's length.
func TestServingGoodputIsOnTimePerSecondOfTheWindow(t *testing.T) {
	chat, err := BuiltinScenario("chat", ScenarioRate("chat"), DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	for _, measure := range []float64{20000, 35000} {
		proto := DefaultProtocol()
		proto.Measure = measure
		r, err := Run(t.Context(), RunSpec{Scenario: chat, Policy: LeastQueue(), Seed: 3, Protocol: proto})
		if err != nil {
			t.Fatal(err)
		}
		b, err := AppendRunJSON(nil, &r.RunSummary)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		num := func(key string) float64 {
			x, ok := rec[key].(float64)
			if !ok {
				t.Fatalf("measure %g ms: record field %s is %v, want a number", measure, key, rec[key])
			}
			return x
		}
		secs := measure / 1000
		onTime := num("serving_on_time")
		if onTime == 0 {
			t.Fatalf("measure %g ms: no request met the serving SLO; the check would say nothing", measure)
		}
		if got, want := num("serving_goodput_rps"), onTime/secs; got != want {
			t.Errorf("measure %g ms: serving_goodput_rps %v, want serving_on_time %v / %g s = %v", measure, got, onTime, secs, want)
		}
		if got, want := num("goodput_rps"), num("on_time")/secs; got != want {
			t.Errorf("measure %g ms: goodput_rps %v, want on_time / %g s = %v: not the same window", measure, got, secs, want)
		}
	}
}
