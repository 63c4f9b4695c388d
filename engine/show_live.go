package engine

import (
	"fmt"
	"math"
	"slices"

	"github.com/routelab/routelab/internal/sheet"
)

// Displays of the simulator's state: replicas, views, snapshots, timelines,
// the simulator itself and policy instances (see show.go). Per-replica
// lists are cut, so a cluster of thousands of replicas shows a few rows and
// a count.

// replicaHead heads the columns of replicaCells; with serving, also the
// serving model's signals.
func replicaHead(serving bool) []string {
	head := []string{"replica", "healthy", "waiting", "in flight", "service EWMA ms", "reward EWMA", "completed"}
	if serving {
		head = append(head, "KV util", "tokens in flight", "prefix hit tokens", "signal age ms", "probed")
	}
	return head
}

func replicaCells(r Replica, serving bool) []string {
	cells := []string{fmt.Sprint(r.ID), sheet.YesNo(r.Healthy, "yes", "no"), fmt.Sprint(r.Waiting), fmt.Sprint(r.InFlight),
		fmt.Sprintf("%.2f", r.ServiceEWMA), fmt.Sprintf("%.3f", r.RewardEWMA), fmt.Sprint(r.Completed)}
	if serving {
		cells = append(cells, fmt.Sprintf("%.1f%%", 100*r.KVUtil), fmt.Sprint(r.TokensInFlight), fmt.Sprint(r.PrefixHitTokens),
			fmt.Sprintf("%.1f", r.SignalAgeMs), sheet.YesNo(r.Probed, "yes", "no"))
	}
	return cells
}

// servingSignals tells whether the router saw any of the serving model's
// signals, which the specification's model leaves at zero: a view shows
// their columns only then.
func (r Replica) servingSignals() bool {
	return r.KVUtil != 0 || r.TokensInFlight != 0 || r.PrefixHitTokens != 0 || r.SignalAgeMs != 0 || r.Probed
}

// String describes the replica as the router sees it.
func (r Replica) String() string {
	s := fmt.Sprintf("replica %d: %s, %d waiting + %d in flight, service EWMA %.2f ms, reward EWMA %.3f, %d completed",
		r.ID, sheet.YesNo(r.Healthy, "healthy", "down"), r.Waiting, r.InFlight, r.ServiceEWMA, r.RewardEWMA, r.Completed)
	if r.servingSignals() {
		s += fmt.Sprintf("; KV %.1f%% held, %d tokens in flight, %d prefix hit tokens, signals %.1f ms old%s",
			100*r.KVUtil, r.TokensInFlight, r.PrefixHitTokens, r.SignalAgeMs, sheet.YesNo(r.Probed, ", probed", ""))
	}
	return s
}

// HTML shows the replica as a table.
func (r Replica) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("replica %d", r.ID)}
	serving := r.servingSignals()
	cells := replicaCells(r, serving)
	for i, h := range replicaHead(serving)[1:] {
		sh.Add(h, cells[i+1])
	}
	sh.Add("outstanding", fmt.Sprint(r.Outstanding))
	return sh.HTML()
}

func (v View) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: fmt.Sprintf("view at %.1f ms: %d replicas, %d eligible, %d completions observed",
		v.Now, len(v.Replicas), len(v.Eligible), v.TotalCompleted)}
	if v.Request.Seq != 0 {
		sh.Add("request", v.Request.String())
	}
	ids := make([]string, len(v.Eligible))
	for i, r := range v.Eligible {
		ids[i] = fmt.Sprint(r.ID)
	}
	sh.Add("eligible", sheet.YesNo(len(ids) > 0, sheet.CutList(ids, ", "), "none"))
	serving := slices.ContainsFunc(v.Replicas, Replica.servingSignals)
	sh.AddGrid("replicas", replicaHead(serving), len(v.Replicas), func(i int) []string { return replicaCells(v.Replicas[i], serving) })
	return sh
}

// String describes the view: the eligible replicas and a row per replica.
func (v View) String() string { return v.sheet().Text() }

// HTML shows the view as tables.
func (v View) HTML() string { return v.sheet().HTML() }

// String describes the replica as an observer of the whole model sees it.
func (r ReplicaSnapshot) String() string {
	return fmt.Sprintf("%s; speed %g ms, %d assigned, %d finished", r.Replica, r.SpeedMs, r.Assigned, r.Finished)
}

// HTML shows the replica as a table.
func (r ReplicaSnapshot) HTML() string { return sheet.Sheet{Title: r.String()}.HTML() }

// String describes the request as an observer sees it at a replica.
func (q RequestSnapshot) String() string {
	return fmt.Sprintf("request %d: arrived at %.1f ms, service %.2f ms, predicted to complete at %.1f ms", q.Seq, q.Arrival, q.ServiceMs, q.Done)
}

// HTML shows the request as its text.
func (q RequestSnapshot) HTML() string { return sheet.Sheet{Title: q.String()}.HTML() }

func (s Snapshot) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: fmt.Sprintf("snapshot at %.1f ms: rate %g req/s, throughput %g/s", s.Now, s.Rate, s.Throughput)}
	sh.Add("totals", s.Totals.String())
	sh.Add("last 250 completions", s.Recent.String())
	serving := slices.ContainsFunc(s.Replicas, func(r ReplicaSnapshot) bool { return r.servingSignals() })
	head := append(replicaHead(serving), "speed ms", "assigned", "finished")
	sh.AddGrid("replicas", head, len(s.Replicas), func(i int) []string {
		r := s.Replicas[i]
		return append(replicaCells(r.Replica, serving), fmt.Sprintf("%g", r.SpeedMs), fmt.Sprint(r.Assigned), fmt.Sprint(r.Finished))
	})
	return sh
}

// String describes the snapshot: totals, recent latencies, a row per replica.
func (s Snapshot) String() string { return s.sheet().Text() }

// HTML shows the snapshot as tables.
func (s Snapshot) HTML() string { return s.sheet().HTML() }

func (t Timeline) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: fmt.Sprintf("timeline: %d samples every %g ms", len(t.Points), t.EveryMs)}
	if n := len(t.Points); n > 0 {
		sh.Add("span", fmt.Sprintf("%s to %s", sheet.Seconds(t.Points[0].At), sheet.Seconds(t.Points[n-1].At)))
		sh.Add("replicas", fmt.Sprint(len(t.Points[0].Waiting)))
		sh.Add("highest rolling p99", t.peak(func(p TimelinePoint) float64 { return p.P99 }, sheet.Millis))
		sh.Add("most waiting", t.peak(func(p TimelinePoint) float64 { return float64(sumInts(p.Waiting)) }, func(x float64) string {
			return fmt.Sprintf("%g requests", x)
		}))
	}
	events := make([]string, len(t.Events))
	for i, e := range t.Events {
		events[i] = e.String()
	}
	sh.Add("events", sheet.YesNo(len(events) > 0, sheet.CutList(events, "; "), "none"))
	return sh
}

// peak finds the highest defined value of f and says when it was.
func (t Timeline) peak(f func(TimelinePoint) float64, format func(float64) string) string {
	best, at := math.NaN(), 0.0
	for _, p := range t.Points {
		if v := f(p); !math.IsNaN(v) && (math.IsNaN(best) || v > best) {
			best, at = v, p.At
		}
	}
	if math.IsNaN(best) {
		return "—"
	}
	return fmt.Sprintf("%s at %s", format(best), sheet.Seconds(at))
}

func sumInts(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// String summarises the timeline; its samples are in Points.
func (t Timeline) String() string { return t.sheet().Text() }

// HTML shows the summary as a table.
func (t Timeline) HTML() string { return t.sheet().HTML() }

func (p TimelinePoint) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: fmt.Sprintf("sample at %.1f ms", p.At)}
	sh.Add("rolling p99", sheet.Millis(p.P99))
	sh.Add("throughput", fmt.Sprintf("%g/s", p.Throughput))
	sh.Add("waiting", fmt.Sprint(sumInts(p.Waiting)))
	sh.Add("in flight", fmt.Sprint(sumInts(p.InFlight)))
	n := min(len(p.Waiting), len(p.InFlight), len(p.Healthy), len(p.Assigned))
	sh.AddGrid("replicas", []string{"replica", "healthy", "waiting", "in flight", "assigned"}, n, func(i int) []string {
		return []string{fmt.Sprint(i + 1), sheet.YesNo(p.Healthy[i], "yes", "no"), fmt.Sprint(p.Waiting[i]), fmt.Sprint(p.InFlight[i]), fmt.Sprint(p.Assigned[i])}
	})
	return sh
}

// String describes the sample: totals and a row per replica.
func (p TimelinePoint) String() string { return p.sheet().Text() }

// HTML shows the sample as tables.
func (p TimelinePoint) HTML() string { return p.sheet().HTML() }

// sheet reads the simulator without changing it (Snapshot would trim its
// live windows).
func (s Simulator) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: fmt.Sprintf("simulator at %.1f ms: scenario %s, policy %s", s.Now(), s.scn.Name, s.policyName)}
	sh.Add("totals", s.totals.String())
	if s.err != nil {
		sh.Add("stopped", s.err.Error())
	}
	serving := false
	for i := range s.replicas {
		serving = serving || s.replicas[i].pub.servingSignals()
	}
	head := append(replicaHead(serving), "speed ms")
	sh.AddGrid("replicas", head, len(s.replicas), func(i int) []string {
		r := &s.replicas[i]
		return append(replicaCells(r.pub, serving), fmt.Sprintf("%g", r.base*r.factor))
	})
	return sh
}

// String describes the simulator's state.
func (s Simulator) String() string { return s.sheet().Text() }

// HTML shows the simulator's state as tables.
func (s Simulator) HTML() string { return s.sheet().HTML() }

// String names the generator; its state is not for people.
func (r Rand) String() string { return "xoshiro256** random stream" }

// Policy instances say what they are, never their internals.

func (p *roundRobin) String() string {
	return fmt.Sprintf("round-robin policy, cursor at %d", p.cursor)
}
func (leastQueue) String() string { return "least-queue policy" }
func (p *latencyAware) String() string {
	return fmt.Sprintf("latency-aware policy (α = %g) over %d replicas", p.alpha, len(p.est))
}
func (a *adaptive) String() string {
	return fmt.Sprintf("adaptive policy (%s) over %d replicas, %d observations", a.p, len(a.s), a.t)
}
func (p *random) String() string     { return "random policy on its own stream" }
func (p *powerOfTwo) String() string { return "p2c policy on its own stream" }
func (p *joinIdle) String() string   { return "jiq policy on its own stream" }
func (p *shortestDelay) String() string {
	if p.mean == nil {
		return "sed policy, equal service times"
	}
	return fmt.Sprintf("sed policy over %d replicas of known service times", len(p.mean))
}
func (leastKV) String() string { return "least-kv policy" }
func (s *scoring) String() string {
	return fmt.Sprintf("%s policy: %d scorers over %d replicas", s.prof.Name, len(s.fns), cap(s.cands))
}
func (s *shedding) String() string { return s.scoring.String() + ", shedding sheddable requests" }
func (p *vllmDP) String() string   { return fmt.Sprintf("vllm-dp policy over %d replicas", len(p.added)) }
func (*vllmPrefix) String() string { return "vllm-prefix policy on its own stream" }
func (p *sglang) String() string   { return fmt.Sprintf("sglang policy over %d replicas", len(p.tree)) }
func (p *dynamo) String() string   { return fmt.Sprintf("dynamo policy (w = %g)", p.w) }
func (p *rayP2C) String() string {
	return fmt.Sprintf("ray-p2c policy (max_ongoing_requests %d)", p.cap)
}
func (p *rayPrefix) String() string {
	return fmt.Sprintf("ray-prefix policy over %d replicas", len(p.tree))
}
func (aibrix) String() string     { return "aibrix policy" }
func (p *prequal) String() string { return fmt.Sprintf("prequal policy over %d replicas", len(p.lat)) }
func (p *c3) String() string      { return fmt.Sprintf("c3 policy over %d replicas", len(p.svc)) }
func (p *peakEWMA) String() string {
	return fmt.Sprintf("peak-ewma policy over %d replicas", len(p.cost))
}
func (*leastWork) String() string { return "lwl oracle policy" }
