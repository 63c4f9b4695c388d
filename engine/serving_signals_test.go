package engine

import (
	"context"
	"encoding/json"
	"math"
	"testing"
)

// viewRecorder is a least-queue policy that keeps a copy of every view.
type viewRecorder struct {
	leastQueue
	views *[]View
}

func (p viewRecorder) Pick(v *View) (int, error) {
	c := *v
	c.Replicas = append([]Replica(nil), v.Replicas...)
	c.Eligible = append([]Replica(nil), v.Eligible...)
	*p.views = append(*p.views, c)
	return p.leastQueue.Pick(v)
}

// servingSignals: the recorder is there to see every signal.
func (viewRecorder) servingSignals() servingSignals { return allSignals }

func recordViews(views *[]View) PolicySpec {
	return PolicySpec{Name: "recorder", New: func(PolicyEnv) (Policy, error) { return viewRecorder{views: views}, nil }}
}

// herdingScenario is four replicas of batches of eight at about 90 % of
// their capacity, the router's signals scraped every refresh ms.
func herdingScenario(refresh float64) Scenario {
	s := servingScenario(6)
	s.Speeds = []float64{11, 11, 11, 11}
	cfg := *s.Serving
	cfg.MaxBatch = 8
	cfg.Signals.RefreshMs = refresh
	s.Serving = &cfg
	return s
}

// Between scrapes the router sees the last scrape, as old as it says, while
// eligibility follows the replicas' true queues; with refresh 0 the signals
// are the replicas' state at the decision.
func TestStaleSignalsAreScrapes(t *testing.T) {
	proto := Protocol{Warmup: 0, Measure: 60000, SLO: 1e6}
	for _, refresh := range []float64{0, 250} {
		var views []View
		mustRun(t, RunSpec{Scenario: herdingScenario(refresh), Policy: recordViews(&views), Seed: 3, Protocol: proto})
		changed := 0
		for i, v := range views {
			for j, r := range v.Replicas {
				age := 0.0
				if refresh > 0 {
					age = v.Now - refresh*math.Floor(v.Now/refresh)
				}
				if r.SignalAgeMs != age || r.Outstanding != r.Waiting+r.InFlight || r.Probed {
					t.Fatalf("refresh %g, view at %g ms: replica %+v, want signals %g ms old", refresh, v.Now, r, age)
				}
				if i > 0 {
					p := views[i-1].Replicas[j]
					same := p.Waiting == r.Waiting && p.InFlight == r.InFlight && p.KVUtil == r.KVUtil && p.TokensInFlight == r.TokensInFlight
					if refresh > 0 && math.Floor(v.Now/refresh) == math.Floor(views[i-1].Now/refresh) && !same {
						t.Fatalf("signals changed between scrapes at %g ms: %+v then %+v", v.Now, p, r)
					}
					if !same {
						changed++
					}
				}
			}
		}
		if changed < len(views) {
			t.Fatalf("refresh %g: the signals changed %d times in %d views", refresh, changed, len(views))
		}
	}
}

// Probed replicas answer with fresh signals, drawn from the router's own
// stream: the requests are the same (same fingerprint), each waits the
// probe delay for its decision, and requests still waiting for answers at
// the cutoff are unfinished.
func TestProbes(t *testing.T) {
	proto := Protocol{Warmup: 1000, Measure: 30000, SLO: 1e6}
	plain := herdingScenario(500)
	probed := herdingScenario(500)
	cfg := *probed.Serving
	cfg.Signals.Probes, cfg.Signals.ProbeDelayMs = 2, 5
	probed.Serving = &cfg
	var views []View
	var decisions []Decision
	a := mustRun(t, RunSpec{Scenario: plain, Policy: LeastQueue(), Seed: 4, Protocol: proto})
	b := mustRun(t, RunSpec{Scenario: probed, Policy: recordViews(&views), Seed: 4, Protocol: proto, OnDecision: func(d Decision) { decisions = append(decisions, d) }})
	checkConservation(t, b)
	if a.Fingerprint != b.Fingerprint {
		t.Fatal("probing changed the requests")
	}
	for _, d := range decisions {
		if want := float64(ceilStep(d.Arrival))*StepMs + 5; d.At != want {
			t.Fatalf("request %d arrived at %g ms, decided at %g, want %g (its boundary + the 5 ms probe delay)", d.Seq, d.Arrival, d.At, want)
		}
	}
	for _, v := range views {
		n := 0
		for _, r := range v.Replicas {
			if r.Probed {
				n++
				if r.SignalAgeMs != 0 {
					t.Fatalf("probed replica %+v has old signals", r)
				}
			}
		}
		if n != min(2, len(v.Eligible)) {
			t.Fatalf("%d replicas probed for a decision with %d eligible", n, len(v.Eligible))
		}
	}
	if b.Unfinished == 0 {
		t.Fatal("no request was waiting for its probes or in service at the cutoff")
	}
}

// The router's approximate index knows a prefix as soon as it has sent it
// somewhere; the precise index only once the replica has computed it. Both
// report hits in whole blocks, and the request's attributes reach the view.
func TestPrefixIndexes(t *testing.T) {
	proto := Protocol{Warmup: 0, Measure: 120000, SLO: 1e6}
	for _, index := range []PrefixIndex{ApproximateIndex, PreciseIndex} {
		s := servingScenario(2)
		cfg := *s.Serving
		cfg.Workload = ServingWorkload{PrefixGroups: 3, SystemPromptTokens: 1000, CriticalShare: 0.5}
		cfg.Signals.PrefixIndex = index
		s.Serving = &cfg
		var views []View
		mustRun(t, RunSpec{Scenario: s, Policy: recordViews(&views), Seed: 1, Protocol: proto})
		firstHit := -1
		for i, v := range views {
			q := v.Request
			if q.PrefixGroup < 1 || q.PrefixGroup > 3 || q.PrefixTokens != 1000 || q.PromptTokens <= 1000 || q.Session != 0 {
				t.Fatalf("request %+v lacks its attributes", q)
			}
			if q.Priority != Critical && q.Priority != Standard {
				t.Fatalf("priority %q", q.Priority)
			}
			for _, r := range v.Replicas {
				if r.PrefixHitTokens != 0 && r.PrefixHitTokens != 992 { // 62 whole blocks of 16
					t.Fatalf("%s index: %d tokens hit, want 0 or 992", index, r.PrefixHitTokens)
				}
				if r.PrefixHitTokens > 0 && firstHit < 0 {
					firstHit = i
				}
			}
		}
		// The second request of a group is the first that can hit; the
		// approximate index reports it at once, the precise one once the
		// first's prefill has finished.
		second := -1
		seen := map[int]bool{}
		for i, v := range views {
			if seen[v.Request.PrefixGroup] {
				second = i
				break
			}
			seen[v.Request.PrefixGroup] = true
		}
		t.Logf("%s index: first hit at decision %d, first repeated group at %d", index, firstHit, second)
		if index == ApproximateIndex && firstHit != second {
			t.Errorf("the approximate index reported its first hit at decision %d, want %d (the first repeated group)", firstHit, second)
		}
		if firstHit < 0 {
			t.Errorf("%s index never reported a hit", index)
		}
	}
}

// observer admits no sheddable request and records what it hears of
// completions.
type observer struct {
	leastQueue
	seen *[]Completion
}

func (o observer) Admit(v *View) bool             { return v.Request.Priority != Sheddable }
func (o observer) ObserveCompletion(c Completion) { *o.seen = append(*o.seen, c) }

// A policy that admits and observes completions is asked before each pick
// and told each completion's token figures; refused requests are shed, as
// their decisions say.
func TestAdmitterAndCompletionObserver(t *testing.T) {
	s := servingScenario(8)
	cfg := *s.Serving
	cfg.Workload.SheddableShare = 0.3
	s.Serving = &cfg
	var seen []Completion
	rejected := 0
	spec := PolicySpec{Name: "observer", New: func(PolicyEnv) (Policy, error) { return observer{seen: &seen}, nil }}
	r := mustRun(t, RunSpec{Scenario: s, Policy: spec, Seed: 2, Protocol: Protocol{Warmup: 10000, Measure: 60000, SLO: 1e6},
		OnDecision: func(d Decision) {
			if d.Rejected {
				rejected++
				if d.Replica != 0 {
					t.Fatalf("a rejected request went to replica %d", d.Replica)
				}
			}
		}})
	checkConservation(t, r)
	if r.Shed < r.Cohort/5 || rejected < r.Shed {
		t.Fatalf("%d of %d cohort requests shed, %d rejected in all; want about 30 %% shed, all of them rejected", r.Shed, r.Cohort, rejected)
	}
	for _, c := range seen {
		if c.Request.Priority == Sheddable {
			t.Fatal("a refused request completed")
		}
		if !(c.TTFTMs > 0 && c.TTFTMs <= c.LatencyMs && c.ITLMs > 0 && c.ITLP99Ms >= c.ITLMs*0.5 && c.OutputTokens > 1 && c.ServiceMs <= c.LatencyMs) {
			t.Fatalf("completion %+v has inconsistent figures", c)
		}
	}
	// In the specification's model there are no tokens: the figures are NaN.
	seen = nil
	mustRun(t, RunSpec{Scenario: mustScenario(t, "steady", 100, DefaultHeterogeneity), Policy: spec, Seed: 1})
	if len(seen) == 0 || !math.IsNaN(seen[0].TTFTMs) || seen[0].LatencyMs <= 0 {
		t.Fatalf("specification model completions: %d, first %+v", len(seen), seen[0])
	}
}

// The run's context still stops a serving run.
func TestServingRunStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, RunSpec{Scenario: servingScenario(5), Policy: LeastQueue(), Seed: 1, Protocol: DefaultProtocol()}); err == nil {
		t.Fatal("a cancelled serving run returned a result")
	}
}

// A serving run's timeline gives each replica's batch, KV use, preemptions
// and prefix-cache tokens over time, agreeing at the cutoff with the
// run's per-replica figures; a run of the specification's model has none.
func TestServingTimeline(t *testing.T) {
	scn, proto := richServing(9), Protocol{Warmup: 10000, Measure: 60000, SLO: 1e5}
	r := mustRun(t, RunSpec{Scenario: scn, Policy: LeastQueue(), Seed: 2, Protocol: proto, SampleEvery: 100})
	pts := r.Timeline.Points
	last := pts[len(pts)-1]
	var kvSeen bool
	for _, p := range pts {
		for i := range p.KVUtil {
			if p.KVUtil[i] < 0 || p.KVUtil[i] > 1 || p.InFlight[i] > scn.Serving.MaxBatch {
				t.Fatalf("at %g ms replica %d: KV %g, batch %d", p.At, i+1, p.KVUtil[i], p.InFlight[i])
			}
			kvSeen = kvSeen || p.KVUtil[i] > 0.5
		}
	}
	var mark TimelinePoint
	for _, p := range pts {
		if p.At <= proto.Warmup {
			mark = p
		}
	}
	if mark.At != proto.Warmup || last.At != proto.Horizon() {
		t.Fatalf("points at %g and %g ms, want the warm-up's end and the cutoff", mark.At, last.At)
	}
	for i, rep := range r.PerReplica {
		if got := last.Preemptions[i] - mark.Preemptions[i]; got != rep.Serving.Preemptions {
			t.Errorf("replica %d: %d preemptions in the window by the timeline, %d by the run", i+1, got, rep.Serving.Preemptions)
		}
	}
	t.Logf("preemptions per replica at the cutoff %v; KV above half full at some point: %v", last.Preemptions, kvSeen)
	spec := mustRun(t, RunSpec{Scenario: mustScenario(t, "steady", 100, DefaultHeterogeneity), Policy: LeastQueue(), Seed: 1, SampleEvery: 100})
	if p := spec.Timeline.Points[5]; p.KVUtil != nil || p.Preemptions != nil {
		t.Errorf("a run of the specification's model has serving series: %+v", p)
	}
}

// A replica back from a failure restarts with an empty prefix cache (the
// router's approximate index still remembers what it sent there).
func TestRecoveredReplicaStartsCold(t *testing.T) {
	scn := mustScenario(t, "prefix-failure", ScenarioRate("prefix-failure"), DefaultHeterogeneity)
	b := newBatchServer(&scn)
	r := request{group: 3, system: 1000, prompt: 1300}
	b.cache.Touch(chainOf(&r, int(r.prompt), b.bs))
	if got := b.cache.Match(chainOf(&r, int(r.system), b.bs)); got != 1000/b.bs {
		t.Fatalf("before: %d blocks cached, want %d", got, 1000/b.bs)
	}
	b.restart()
	if got := b.cache.Match(chainOf(&r, int(r.system), b.bs)); got != 0 {
		t.Fatalf("after the restart %d blocks are still cached", got)
	}
}

// everySignal hides a policy's signalReader, so its views carry every
// serving signal.
type everySignal struct{ Policy }

// Each policy that reads only some of the costly serving signals decides
// exactly as it does with every signal in its views, on every built-in
// serving scenario (KV limits, prefix caches, stale scrapes, probes,
// failures): the same decisions, in the same order, and the same results.
func TestSignalReadersDecideAsWithEverySignal(t *testing.T) {
	readers := map[string]bool{}
	for _, p := range allPolicies() {
		isReader := false
		declared := PolicySpec{Name: p.Name, Kind: p.Kind, Params: p.Params, New: func(env PolicyEnv) (Policy, error) {
			q, err := p.New(env)
			_, isReader = q.(signalReader)
			return q, err
		}}
		all := PolicySpec{Name: p.Name, Kind: p.Kind, Params: p.Params, New: func(env PolicyEnv) (Policy, error) {
			q, err := p.New(env)
			return everySignal{q}, err
		}}
		for _, name := range ScenarioNames() {
			scn := mustScenario(t, name, ScenarioRate(name), DefaultHeterogeneity)
			if scn.Serving == nil {
				continue
			}
			run := func(spec PolicySpec) (string, uint64) {
				h := uint64(fnvOffset)
				res, err := Run(context.Background(), RunSpec{Scenario: scn, Policy: spec, Seed: 3, Protocol: DefaultProtocol(),
					OnDecision: func(d Decision) { h = (h ^ uint64(d.Seq<<8|int64(d.Replica))) * fnvPrime }})
				if err != nil {
					t.Fatal(err)
				}
				out, err := json.Marshal(res)
				if err != nil {
					t.Fatal(err)
				}
				return string(out), h
			}
			got, gotH := run(declared)
			if !isReader {
				break
			}
			readers[p.Name] = true
			want, wantH := run(all)
			if gotH != wantH || got != want {
				t.Errorf("%s on %s decides differently with every signal:\n%s\n%s", p.Name, name, got, want)
			}
		}
	}
	if len(readers) < 10 {
		t.Errorf("only %d policies read some signals (%v); the engine's own ten should", len(readers), readers)
	}
}
