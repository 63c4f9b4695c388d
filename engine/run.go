package engine

import (
	"context"
	"fmt"
	"math"
)

// RunSpec is one seeded run of a policy on a scenario.
type RunSpec struct {
	Scenario Scenario
	Policy   PolicySpec
	Seed     uint64
	Protocol Protocol
	// SampleEvery (ms) records a timeline in the result; 0 records none.
	SampleEvery float64
	// OnDecision, when set, sees every routing decision.
	OnDecision func(Decision)
	// SummaryOnly drops the per-request latencies once summarised, for
	// studies of thousands of runs.
	SummaryOnly bool
}

// runBuffers are what a worker of an experiment hands from one run to the
// next — the cohort's latencies, the FIFO servers' queues, the Simulator
// itself and its per-replica arrays: a run kept as a summary holds none of
// them once summarised, so an experiment of thousands of runs allocates
// them once per worker instead of once per run (which spares the
// collector, and a shard process the fresh pages of a growing heap). Their
// contents never carry over: the latencies are appended from empty, a
// queue slot is written before it is read, the Simulator is zeroed and
// every replica's state assigned whole.
type runBuffers struct {
	lat      []float64
	queues   [][]request
	sim      *Simulator
	replicas []replicaState
	view     []Replica
	eligible []Replica
}

// latencies is an empty latency buffer of capacity at least n.
func (b *runBuffers) latencies(n int) []float64 {
	if b == nil || cap(b.lat) < n {
		return make([]float64, 0, n)
	}
	return b.lat[:0]
}

// queue is a queue buffer of exactly capacity requests.
func (b *runBuffers) queue(capacity int) []request {
	if b != nil {
		for i, q := range b.queues {
			if len(q) == capacity {
				b.queues[i] = b.queues[len(b.queues)-1]
				b.queues = b.queues[:len(b.queues)-1]
				return q
			}
		}
	}
	return make([]request, capacity)
}

// simulator is a zero Simulator.
func (b *runBuffers) simulator() *Simulator {
	if b == nil || b.sim == nil {
		return new(Simulator)
	}
	s := b.sim
	b.sim = nil
	*s = Simulator{}
	return s
}

// replicaArrays are n replica states, whose every element the caller
// assigns, an n-element view of zero Replicas and an empty eligible list
// of capacity n.
func (b *runBuffers) replicaArrays(n int) (replicas []replicaState, view, eligible []Replica) {
	if b == nil || cap(b.replicas) < n || cap(b.view) < n || cap(b.eligible) < n {
		return make([]replicaState, n), make([]Replica, n), make([]Replica, 0, n)
	}
	replicas, view, eligible = b.replicas[:n], b.view[:n], b.eligible[:0]
	clear(view)
	b.replicas, b.view, b.eligible = nil, nil, nil
	return replicas, view, eligible
}

// giveBack takes s's buffers back, once its result holds none of them.
func (b *runBuffers) giveBack(s *Simulator) {
	if s.cohort != nil {
		b.lat = s.cohort.lat
	}
	for i := range s.replicas {
		if f := s.replicas[i].fifo; f != nil {
			b.queues = append(b.queues, f.queue.buf)
		}
	}
	b.sim, b.replicas, b.view, b.eligible = s, s.replicas, s.view.Replicas, s.eligible
}

// RunSummary is what one run measured, without its per-request data:
// counts, latency statistics and rates. Counts are exact; latency figures
// are NaN when no cohort request completed (shown as an em dash). It is
// small (under 200 bytes) and self-contained (names, seed and workload
// fingerprint included, no references into the run), so an experiment of
// any size can keep one per run, and records made apart can be merged.
type RunSummary struct {
	Policy   string `json:"policy"`
	Scenario string `json:"scenario"`
	Seed     uint64 `json:"seed"`
	// Fingerprint hashes every request the run generated (arrival time,
	// demand, jitter): equal across policies for the same seed and scenario.
	Fingerprint uint64 `json:"workload_fingerprint"`

	Cohort     int `json:"cohort_arrivals"`
	Completed  int `json:"completed"`
	Shed       int `json:"shed"`
	Unfinished int `json:"unfinished"`
	OnTime     int `json:"on_time"`

	Latency       LatencyStats `json:"-"`
	SLOMissRate   float64      `json:"-"` // misses / completed cohort requests
	ShedRate      float64      `json:"-"` // shed / cohort arrivals
	Attainment    float64      `json:"-"` // on time / cohort arrivals
	GoodputRPS    float64      `json:"-"` // on time / measurement seconds
	ThroughputRPS float64      `json:"-"` // all completions in the window / seconds

	// Serving holds the serving model's figures; nil in the specification's
	// model.
	Serving *ServingSummary `json:"serving,omitempty"`
}

// RunResult is the measurement of one run: its summary and what it kept of
// the run's detail.
type RunResult struct {
	RunSummary
	PerReplica []ReplicaResult `json:"per_replica"`
	// Latencies are the cohort's completed latencies, sorted (ms); nil with
	// SummaryOnly.
	Latencies []float64 `json:"-"`
	Timeline  *Timeline `json:"-"`
	Events    []Event   `json:"-"`
}

// ReplicaResult is one replica's share of a run's cohort.
type ReplicaResult struct {
	ID        int     `json:"id"`
	Assigned  int     `json:"assigned"` // cohort assignments, re-routes included
	Completed int     `json:"completed"`
	MeanMs    float64 `json:"-"` // mean latency of its completed cohort requests
	// Serving holds the replica's serving figures over the measurement
	// window; nil in the specification's model.
	Serving *ReplicaServing `json:"serving,omitempty"`
}

// SLOMisses is the number of completed cohort requests over the SLO.
func (r *RunSummary) SLOMisses() int { return r.Completed - r.OnTime }

// Run simulates spec to the protocol's cutoff. It stops with an error
// wrapping ctx.Err() when ctx is cancelled, never with a partial result.
func Run(ctx context.Context, spec RunSpec) (*RunResult, error) {
	return run(ctx, spec, nil, nil)
}

// run is Run with prepared token samplers and reused buffers (each nil
// when there are none: see Runner).
func run(ctx context.Context, spec RunSpec, tables *tokenTables, buffers *runBuffers) (*RunResult, error) {
	proto := spec.Protocol
	if err := proto.Validate(); err != nil {
		return nil, err
	}
	sim, err := newSimulator(spec.Scenario, spec.Policy, SimOptions{
		Seed: spec.Seed, Measure: &proto, SampleEvery: spec.SampleEvery, OnDecision: spec.OnDecision,
	}, simInternals{tables: tables, unwatched: spec.SampleEvery == 0, buffers: buffers})
	if err != nil {
		return nil, err
	}
	if err := sim.runUntil(ctx, ceilStep(proto.Horizon())); err != nil {
		return nil, err
	}
	res := sim.result(spec)
	if buffers != nil && spec.SummaryOnly {
		buffers.giveBack(sim)
	}
	return res, nil
}

// runUntil advances to the end step, checking ctx every simulated second.
func (s *Simulator) runUntil(ctx context.Context, end int64) error {
	const chunk = int64(1000 / StepMs)
	for s.step < end {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("run interrupted at %.1f s of simulated time: %w", s.Now()/1000, err)
		}
		target := min(end, s.step+chunk)
		s.guard(func() { s.runTo(target) })
		if s.err != nil {
			return s.err
		}
	}
	return nil
}

// Result is the measurement of a simulator made with SimOptions.Measure,
// once it has reached the protocol's cutoff: what Run returns for the same
// scenario (a live session's, controls included), policy and seed.
func (s *Simulator) Result() (*RunResult, error) {
	if s.proto == nil {
		return nil, fieldErr("measure", "none", "a simulator made with SimOptions.Measure")
	}
	if s.err != nil {
		return nil, s.err
	}
	if end := ceilStep(s.proto.Horizon()); s.step != end {
		return nil, fieldErr("now_ms", s.Now(), fmt.Sprintf("a simulator exactly at the protocol's cutoff, %g ms", float64(end)*StepMs))
	}
	return s.result(RunSpec{Policy: PolicySpec{Name: s.policyName}, Seed: s.seed, Protocol: *s.proto}), nil
}

// result builds the run's measurement from the simulator at the cutoff.
func (s *Simulator) result(spec RunSpec) *RunResult {
	c := s.cohort
	secs := spec.Protocol.Measure / 1000
	lat := c.sortedLatencies()
	res := &RunResult{
		RunSummary: RunSummary{
			Policy: spec.Policy.Name, Scenario: s.scn.Name, Seed: spec.Seed, Fingerprint: s.wl.hash,
			Cohort: c.arrivals, Completed: c.completed, Shed: c.shed, Unfinished: s.inSystem(), OnTime: c.onTime,
			Latency:       Summarize(lat),
			SLOMissRate:   ratio(c.completed-c.onTime, c.completed),
			ShedRate:      ratio(c.shed, c.arrivals),
			Attainment:    ratio(c.onTime, c.arrivals),
			GoodputRPS:    float64(c.onTime) / secs,
			ThroughputRPS: float64(c.throughput) / secs,
		},
		Events: s.eventsSoFar(),
	}
	if !spec.SummaryOnly {
		res.Latencies = lat
	}
	for i, t := range c.perReplica {
		res.PerReplica = append(res.PerReplica, ReplicaResult{
			ID: i + 1, Assigned: t.assigned, Completed: t.completed, MeanMs: ratioF(t.latSum, t.completed),
		})
	}
	if s.serving != nil {
		windows := s.serving.windows(s.step, spec.Protocol.Measure)
		res.Serving = c.srv.summary(c.arrivals, spec.Protocol.Measure, windows)
		for i := range res.PerReplica {
			res.PerReplica[i].Serving = &windows[i]
		}
	}
	if s.sampler != nil {
		tl := s.sampler.tl
		tl.Events = res.Events
		res.Timeline = &tl
	}
	return res
}

// ratio is a/b, NaN (undefined) when b is zero.
func ratio(a, b int) float64 { return ratioF(float64(a), b) }

func ratioF(a float64, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / float64(b)
}
