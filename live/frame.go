package live

import (
	"math"
	"sort"

	"github.com/routelab/routelab/engine"
)

// Frame is what a live view shows at one moment: a read-only picture built
// from the simulator's snapshot (rendering never writes back). It encodes
// as JSON (a missing percentile is null).
type Frame struct {
	Now      float64 `json:"now_ms"`
	Speed    float64 `json:"speed"` // simulated ms per real second; 0 when as fast as possible
	Paused   bool    `json:"paused"`
	Done     bool    `json:"done"`
	Err      string  `json:"error,omitempty"`
	Scenario string  `json:"scenario"`
	Policy   string  `json:"policy"`
	Rate     float64 `json:"rate_rps"`
	SLO      float64 `json:"slo_ms"`

	Replicas []ReplicaFrame `json:"replicas"`

	// Over the last 250 completions (all requests), and the trailing 1000 ms.
	P50         *float64 `json:"p50_ms"`
	P90         *float64 `json:"p90_ms"`
	P99         *float64 `json:"p99_ms"`
	SLOMissRate *float64 `json:"slo_miss_rate"`
	Throughput  float64  `json:"throughput_rps"`

	// Since time zero.
	Arrivals   int64 `json:"arrivals"`
	Completed  int64 `json:"completed"`
	Shed       int64 `json:"shed"`
	Unfinished int   `json:"unfinished"` // waiting or in flight now
}

// ReplicaFrame is one replica in a frame.
type ReplicaFrame struct {
	ID       int     `json:"id"`
	Waiting  int     `json:"waiting"`
	InFlight int     `json:"in_flight"`
	Healthy  bool    `json:"healthy"`
	Slowdown float64 `json:"slowdown"` // 1 at its normal speed, k when slowed ×k
	SpeedMs  float64 `json:"speed_ms"` // mean ms per reference request now
	Share    float64 `json:"share"`    // of the assignments of the last second
	// Requests are at the replica, the one in flight first; each says
	// whether it will meet the SLO if nothing changes.
	Requests []Mark `json:"requests"`
}

// Mark is one request in a frame.
type Mark struct {
	Seq     int64   `json:"seq"`
	Arrival float64 `json:"arrival_ms"`
	Done    float64 `json:"done_ms"` // predicted completion
	OnTime  bool    `json:"on_time"`
}

// frame builds the frame now; s.mu is held.
func (s *Session) frame(done bool) Frame {
	snap := s.sim.Snapshot()
	f := Frame{
		Now: snap.Now, Speed: s.speed, Paused: s.paused, Done: done,
		Scenario: s.opts.Scenario.Name, Policy: s.routing(snap.Now), Rate: snap.Rate, SLO: s.opts.SLO,
		Throughput: snap.Throughput,
		Arrivals:   snap.Totals.Arrivals, Completed: snap.Totals.Completed, Shed: snap.Totals.Shed,
	}
	if math.IsInf(f.Speed, 1) {
		f.Speed = 0
	}
	if s.err != nil {
		f.Err = s.err.Error()
	}
	if snap.Recent.Count > 0 {
		f.P50, f.P90, f.P99 = num(snap.Recent.P50), num(snap.Recent.P90), num(snap.Recent.P99)
		over := len(snap.RecentLatencies) - sort.SearchFloat64s(snap.RecentLatencies, math.Nextafter(s.opts.SLO, math.Inf(1)))
		f.SLOMissRate = num(float64(over) / float64(len(snap.RecentLatencies)))
	}
	shares := s.shares.shares(snap)
	speeds := s.opts.Scenario.Speeds
	for i, r := range snap.Replicas {
		rf := ReplicaFrame{ID: r.ID, Waiting: r.Waiting, InFlight: r.InFlight, Healthy: r.Healthy, SpeedMs: r.SpeedMs, Share: shares[i], Slowdown: 1}
		if i < len(speeds) && speeds[i] > 0 {
			rf.Slowdown = r.SpeedMs / speeds[i]
		}
		for _, q := range r.Requests {
			rf.Requests = append(rf.Requests, Mark{Seq: q.Seq, Arrival: q.Arrival, Done: q.Done, OnTime: q.Done-q.Arrival <= s.opts.SLO})
		}
		f.Unfinished += len(r.Requests)
		f.Replicas = append(f.Replicas, rf)
	}
	return f
}

// routing names the policy routing at simulated time now: the last switch
// due by then.
func (s *Session) routing(now float64) string {
	name, at := s.opts.Policy.Name, math.Inf(-1)
	for _, sw := range s.sim.Switches() {
		if sw.At <= now && sw.At >= at {
			name, at = sw.Policy.Name, sw.At
		}
	}
	return name
}

func num(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// shareWindow gives each replica's share of the assignments made over the
// last simulated second, from the cumulative counts of successive frames.
type shareWindow struct {
	samples []shareSample
}

type shareSample struct {
	at       float64
	assigned []int64
}

// record adds the counts of a tick, keeping as the oldest sample the newest
// one at least a second old.
func (w *shareWindow) record(snap engine.Snapshot) {
	cur := shareSample{at: snap.Now, assigned: make([]int64, len(snap.Replicas))}
	for i, r := range snap.Replicas {
		cur.assigned[i] = r.Assigned
	}
	w.samples = append(w.samples, cur)
	for len(w.samples) > 2 && snap.Now-w.samples[1].at >= engine.ThroughputWindow {
		w.samples = w.samples[1:]
	}
}

// shares are the replicas' shares of the assignments since the oldest
// sample, up to snap.
func (w *shareWindow) shares(snap engine.Snapshot) []float64 {
	cur := shareSample{at: snap.Now, assigned: make([]int64, len(snap.Replicas))}
	for i, r := range snap.Replicas {
		cur.assigned[i] = r.Assigned
	}
	if len(w.samples) == 0 {
		return make([]float64, len(cur.assigned))
	}
	base := w.samples[0]
	shares := make([]float64, len(cur.assigned))
	var total int64
	for i := range cur.assigned {
		total += cur.assigned[i] - base.assigned[i]
	}
	if total == 0 {
		return shares
	}
	for i := range cur.assigned {
		shares[i] = float64(cur.assigned[i]-base.assigned[i]) / float64(total)
	}
	return shares
}
