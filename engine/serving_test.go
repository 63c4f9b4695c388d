package engine

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

// seedPart is what the specification's model measures of a run, the
// serving model's own figures left out.
func seedPart(t *testing.T, r *RunResult) string {
	t.Helper()
	sum := r.RunSummary
	sum.Serving = nil
	reps := make([]ReplicaResult, len(r.PerReplica))
	for i, p := range r.PerReplica {
		p.Serving = nil
		reps[i] = p
	}
	b, err := json.Marshal(struct {
		Summary   RunSummary
		Latency   LatencyStats
		Replicas  []ReplicaResult
		Latencies []float64
		Events    []Event
	}{sum, r.Latency, reps, r.Latencies, r.Events})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recorder wraps a policy and records what it observes, bit for bit.
type recorder struct {
	Policy
	seen *[]uint64
}

func (r recorder) Observe(id int, ms float64) {
	*r.seen = append(*r.seen, uint64(id), math.Float64bits(ms))
	r.Policy.Observe(id, ms)
}

func recording(p PolicySpec, seen *[]uint64) PolicySpec {
	q := p
	q.New = func(env PolicyEnv) (Policy, error) {
		inner, err := p.New(env)
		return recorder{inner, seen}, err
	}
	return q
}

// The degenerate serving model — batches of one, no KV limit, no prefix
// cache — is the specification's FIFO single server, byte for byte: for
// each of the specification's scenarios, heterogeneity and policy, the same fingerprint,
// counts, latencies, per-replica results, routing decisions and service
// times observed by the policy, to the last bit. It holds with a shared
// iteration overhead too, since a request alone pays exactly its demand
// (the overhead is the part of an iteration a batch shares).
func TestBatchOfOneIsTheSpecification(t *testing.T) {
	policies := []PolicySpec{RoundRobin(), LeastQueue(), LatencyAware(DefaultAlpha), Adaptive(DefaultAdaptiveParams()), Random(), PowerOfTwo()}
	runs := 0
	for _, name := range []string{"steady", "burst", "straggler", "failure"} { // the specification's

		for _, h := range []Heterogeneity{DefaultHeterogeneity, HighHeterogeneity} {
			for _, overhead := range []float64{0, 0.03} {
				seed := mustScenario(t, name, 175, h)
				serving := seed
				serving.Serving = &ServingConfig{MaxBatch: 1, OverheadMs: overhead}
				for _, p := range policies {
					for s := uint64(1); s <= 2; s++ {
						var decisions [2][]Decision
						var seen [2][]uint64
						a := mustRun(t, RunSpec{Scenario: seed, Policy: recording(p, &seen[0]), Seed: s, OnDecision: func(d Decision) { decisions[0] = append(decisions[0], d) }})
						b := mustRun(t, RunSpec{Scenario: serving, Policy: recording(p, &seen[1]), Seed: s, OnDecision: func(d Decision) { decisions[1] = append(decisions[1], d) }})
						if !slices.Equal(seen[0], seen[1]) {
							t.Fatalf("%s/%s, %s, seed %d, overhead %g: the policy observed other service times with B = 1", name, h, p.Name, s, overhead)
						}
						if x, y := seedPart(t, a), seedPart(t, b); x != y {
							t.Fatalf("%s/%s, %s, seed %d, overhead %g: the serving model with B = 1 differs:\nspecification %.400s\nserving       %.400s", name, h, p.Name, s, overhead, x, y)
						}
						if len(decisions[0]) != len(decisions[1]) {
							t.Fatalf("%s/%s, %s, seed %d: %d decisions, serving %d", name, h, p.Name, s, len(decisions[0]), len(decisions[1]))
						}
						for i := range decisions[0] {
							if decisions[0][i] != decisions[1][i] {
								t.Fatalf("%s/%s, %s, seed %d: decision %d %v, serving %v", name, h, p.Name, s, i, decisions[0][i], decisions[1][i])
							}
						}
						if b.Serving == nil || b.Serving.TTFT.Count != b.Completed {
							t.Fatalf("%s: the serving run has no serving figures: %+v", name, b.Serving)
						}
						runs++
					}
				}
			}
		}
	}
	t.Logf("%d runs identical to the specification's", runs)
}
