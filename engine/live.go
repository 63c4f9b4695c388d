package engine

import (
	"math"
	"slices"
)

// ReplicaSnapshot is one replica in a live snapshot: the router's view plus
// what only an observer of the whole model knows (its current speed).
type ReplicaSnapshot struct {
	Replica
	SpeedMs  float64 // current mean ms per reference request, slowdown included
	Assigned int64   // accepted assignments since time zero
	Finished int64   // completions since time zero
	// Requests are the requests at the replica: the one in flight first,
	// then the waiting ones in queue order.
	Requests []RequestSnapshot
}

// RequestSnapshot is a request at a replica as an observer of the whole
// model sees it (a router never does): its service time and when it will
// complete if nothing changes — exactly for the one in flight; for a
// waiting one, at the replica's current speed behind those ahead of it.
type RequestSnapshot struct {
	Seq       int64
	Arrival   float64 // ms
	ServiceMs float64
	Done      float64 // predicted completion, ms
}

// Snapshot is a read-only picture of a simulator for live views.
type Snapshot struct {
	Now      float64
	Replicas []ReplicaSnapshot
	// Recent summarises the last 250 completions (all requests, not only a
	// cohort), whose latencies RecentLatencies holds in increasing order;
	// Throughput is completions per second over the trailing 1000 ms.
	Recent          LatencyStats
	RecentLatencies []float64
	Throughput      float64
	Rate            float64 // current arrival rate, req/s
	Totals          Totals
}

// Snapshot returns the current state. It never changes the simulation.
func (s *Simulator) Snapshot() Snapshot {
	v := s.buildView(nil, false, false)
	snap := Snapshot{
		Now:        s.Now(),
		Replicas:   make([]ReplicaSnapshot, len(s.replicas)),
		Throughput: s.live.throughput(s.step),
		Rate:       s.wl.rate,
		Totals:     s.totals,
	}
	for i := range s.replicas {
		r := &s.replicas[i]
		snap.Replicas[i] = ReplicaSnapshot{Replica: v.Replicas[i], SpeedMs: r.base * r.factor, Assigned: r.assigned, Finished: r.finished,
			Requests: r.srv.inspect(s.step, r.speed())}
	}
	snap.Recent, s.scratch = s.live.recent(s.scratch)
	snap.RecentLatencies = slices.Clone(s.scratch)
	return snap
}

// Timeline is a run sampled at a fixed interval, for plotting.
type Timeline struct {
	EveryMs float64         `json:"every_ms"`
	Points  []TimelinePoint `json:"points"`
	Events  []Event         `json:"events"`
}

// TimelinePoint is one sample. Slices are indexed by replica id − 1.
type TimelinePoint struct {
	At         float64 `json:"at_ms"`
	Waiting    []int   `json:"waiting"`
	InFlight   []int   `json:"in_flight"`
	Healthy    []bool  `json:"healthy"`
	Assigned   []int64 `json:"assigned"` // cumulative
	P99        float64 `json:"p99_ms"`   // last 250 completions; NaN before any
	Throughput float64 `json:"throughput_rps"`
	// The serving model's replicas also give (nil in the specification's
	// model): the fraction of KV blocks held, and cumulative counts of
	// preemptions and of prompt tokens served by the prefix cache out of
	// the shared-prefix tokens asked of it (the hit rate between two points
	// is the ratio of their differences). InFlight is the running batch.
	KVUtil       []float64 `json:"kv_util,omitempty"`
	Preemptions  []int64   `json:"preemptions,omitempty"`
	CachedTokens []int64   `json:"cached_tokens,omitempty"`
	PrefixTokens []int64   `json:"prefix_tokens,omitempty"`
}

type sampler struct {
	every int64 // steps
	next  int64
	tl    Timeline
}

func newSampler(everyMs float64) *sampler {
	every := int64(math.Round(everyMs / StepMs))
	return &sampler{every: every, tl: Timeline{EveryMs: everyMs}}
}

func (sp *sampler) record(s *Simulator) {
	n := len(s.replicas)
	p := TimelinePoint{
		At: s.Now(), Waiting: make([]int, n), InFlight: make([]int, n),
		Healthy: make([]bool, n), Assigned: make([]int64, n),
		Throughput: s.live.throughput(s.step),
	}
	for i := range s.replicas {
		r := &s.replicas[i]
		l := r.srv.load(s.step)
		p.Waiting[i], p.InFlight[i] = l.waiting, l.running
		p.Healthy[i] = r.healthy
		p.Assigned[i] = r.assigned
	}
	if sr := s.serving; sr != nil {
		p.KVUtil, p.Preemptions, p.CachedTokens, p.PrefixTokens = make([]float64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		for i, b := range sr.batch {
			c := b.counters(s.step)
			p.KVUtil[i] = b.load(s.step).kvUtil
			p.Preemptions[i], p.CachedTokens[i], p.PrefixTokens[i] = c.preemptions, c.cached, c.prefixed
		}
	}
	var st LatencyStats
	st, s.scratch = s.live.recent(s.scratch)
	p.P99 = st.P99
	sp.tl.Points = append(sp.tl.Points, p)
	sp.next += sp.every
}
