package experiment

import (
	"bytes"
	"context"
	"testing"

	"github.com/routelab/routelab/engine"
)

// The model's test helpers that the experiment's tests use too (engine's
// internal tests cannot import a package that imports engine).

// allPolicies are the built-ins, each freshly constructed.
func allPolicies() []engine.PolicySpec {
	var out []engine.PolicySpec
	for _, n := range engine.PolicyNames() {
		p, _ := engine.PolicyByName(n)
		out = append(out, p)
	}
	return out
}

// goldenPolicies are the built-ins the golden comparisons were made with:
// the registry has grown since (jiq, sed, least-kv and the serving routers), and a golden file
// pins what it pinned.
func goldenPolicies() []engine.PolicySpec {
	return []engine.PolicySpec{engine.RoundRobin(), engine.LeastQueue(), engine.LatencyAware(engine.DefaultAlpha), engine.Adaptive(engine.DefaultAdaptiveParams()), engine.Random(), engine.PowerOfTwo(), engine.WeightedRoundRobin(engine.DefaultAlpha)}
}

func mustScenario(t testing.TB, name string, rate float64, h engine.Heterogeneity) engine.Scenario {
	t.Helper()
	s, err := engine.BuiltinScenario(name, rate, h)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustRun(t testing.TB, spec engine.RunSpec) *engine.RunResult {
	t.Helper()
	if spec.Protocol == (engine.Protocol{}) {
		spec.Protocol = engine.DefaultProtocol()
	}
	r, err := engine.Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkConservation asserts cohort arrivals = completed + shed + unfinished,
// where unfinished was counted directly from the queues at the cutoff.
func checkConservation(t testing.TB, r *engine.RunResult) {
	t.Helper()
	checkCohort(t, &r.RunSummary)
	assigned := 0
	for _, p := range r.PerReplica {
		assigned += p.Assigned
	}
	if r.OnTime > r.Completed || assigned < r.Completed+r.Unfinished {
		t.Fatalf("%s seed %d: on time %d, completed %d, assigned %d, unfinished %d are inconsistent",
			r.Policy, r.Seed, r.OnTime, r.Completed, assigned, r.Unfinished)
	}
}

// checkCohort asserts cohort arrivals = completed + shed + unfinished.
func checkCohort(t testing.TB, r *engine.RunSummary) {
	t.Helper()
	if r.Cohort != r.Completed+r.Shed+r.Unfinished {
		t.Fatalf("%s seed %d on %s: cohort %d != completed %d + shed %d + unfinished %d",
			r.Policy, r.Seed, r.Scenario, r.Cohort, r.Completed, r.Shed, r.Unfinished)
	}
}

// servingScenario is three reference-speed replicas with the serving token
// model and engine.DefaultServing.
func servingScenario(rate float64) engine.Scenario {
	s := engine.NewScenario("serving")
	s.Rate = rate
	s.Speeds = []float64{11, 11, 11}
	s.Demand.Tokens = engine.ServingTokenModel()
	c := engine.DefaultServing()
	s.Serving = &c
	return s
}

// richServing is a serving scenario that exercises everything at once:
// shared prefixes and sessions, priorities and a priority queue, chunked
// prefill, KV pressure (preemptions), stale signals and probes, a failure
// and a straggler.
func richServing(rate float64) engine.Scenario {
	s := servingScenario(rate)
	cfg := *s.Serving
	cfg.MaxBatch, cfg.KVBlocks, cfg.Queue = 16, 1200, engine.PriorityQueue
	cfg.Workload = engine.ServingWorkload{PrefixGroups: 8, ZipfS: 1, SystemPromptTokens: 800, Sessions: 20, MeanTurns: 3,
		MaxContextTokens: 12000, CriticalShare: 0.2, SheddableShare: 0.3}
	cfg.Signals = engine.SignalConfig{RefreshMs: 100, Probes: 2, ProbeDelayMs: 1}
	s.Serving = &cfg
	s.Events = []engine.Event{{At: 20000, Kind: engine.EventFail, Replica: 2}, {At: 40000, Kind: engine.EventRecover, Replica: 2},
		{At: 30000, Kind: engine.EventSlow, Replica: 1, Value: 3}, {At: 50000, Kind: engine.EventRestore, Replica: 1}}
	return s
}

// herdingScenario is four replicas of batches of eight at about 90 % of
// their capacity, the router's signals scraped every refresh ms.
func herdingScenario(refresh float64) engine.Scenario {
	s := servingScenario(6)
	s.Speeds = []float64{11, 11, 11, 11}
	cfg := *s.Serving
	cfg.MaxBatch = 8
	cfg.Signals.RefreshMs = refresh
	s.Serving = &cfg
	return s
}

type fixedPick int

func (f fixedPick) Pick(*engine.View) (int, error) { return int(f), nil }
func (fixedPick) Observe(int, float64)             {}

func compareJSON(t testing.TB, e Experiment) []byte {
	t.Helper()
	c, err := Compare(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
