package engine

import (
	"math"
	"slices"
)

// ServingSummary is what a run of the serving model measured beyond the
// specification's figures: token-level latencies of the completed cohort
// requests, attainment of the serving SLO, preemptions and the prefix cache,
// and how full the replicas were over the measurement window.
type ServingSummary struct {
	// TTFT is the time to first token: from arrival to the boundary at which
	// the first token is seen.
	TTFT LatencyStats `json:"-"`
	// ITL is each request's mean gap between successive tokens (its time
	// per output token), over the requests that made at least two tokens;
	// ITLTail is each request's own nearest-rank 99th-percentile gap.
	ITL     LatencyStats `json:"-"`
	ITLTail LatencyStats `json:"-"`
	// OnTime counts completed cohort requests meeting every target of the
	// serving SLO; Attainment is OnTime / cohort arrivals, and GoodputRPS
	// OnTime per second of the measurement window.
	OnTime     int     `json:"serving_on_time"`
	Attainment float64 `json:"-"`
	GoodputRPS float64 `json:"-"`
	// Preemptions of the completed cohort requests, and how many of them
	// were preempted at least once (each completed once, counted once).
	Preemptions int `json:"preemptions"`
	Preempted   int `json:"preempted"`
	// CachedTokens are the prompt tokens the prefix cache served to the
	// completed cohort requests, PrefixTokens the shared-prefix tokens they
	// asked of it; HitRate is their ratio (NaN with no shared prefixes).
	CachedTokens int64   `json:"cached_tokens"`
	PrefixTokens int64   `json:"prefix_tokens"`
	HitRate      float64 `json:"-"`
	// MeanBatch is the running requests per replica, and MeanKVUtil the
	// fraction of its KV blocks held (NaN without a KV limit), averaged over
	// the replicas and the measurement window.
	MeanBatch  float64 `json:"-"`
	MeanKVUtil float64 `json:"-"`
}

// ReplicaServing is one replica's serving figures over the measurement
// window (all requests, not only the cohort's).
type ReplicaServing struct {
	MeanBatch   float64 `json:"-"`
	MeanKVUtil  float64 `json:"-"` // NaN without a KV limit
	HitRate     float64 `json:"-"` // prompt tokens served by the prefix cache / shared-prefix tokens asked; NaN when none asked
	Preemptions int64   `json:"preemptions"`
}

// servingTally accumulates a run's serving figures for the cohort.
type servingTally struct {
	slo                  ServingSLO
	ttft, itl, tail      []float64
	onTime               int
	preemptions, preempt int
	cached, prefixed     int64
}

func newServingTally(slo ServingSLO, expected int) *servingTally {
	return &servingTally{slo: slo, ttft: make([]float64, 0, expected), itl: make([]float64, 0, expected), tail: make([]float64, 0, expected)}
}

// add records a completed cohort request that completed at ms at.
func (t *servingTally) add(c *completion, at float64) {
	st := &c.serving
	ttft := float64(st.firstToken)*StepMs - c.req.arrival
	t.ttft = append(t.ttft, ttft)
	if !math.IsNaN(st.itlMean) {
		t.itl = append(t.itl, st.itlMean)
		t.tail = append(t.tail, st.itlP99)
	}
	if t.met(ttft, st.itlMean, st.itlP99, at-c.req.arrival) {
		t.onTime++
	}
	t.preemptions += st.preemptions
	if st.preemptions > 0 {
		t.preempt++
	}
	t.cached += int64(st.cached)
	t.prefixed += int64(st.prefixed)
}

// met tells whether a request meets every target set (a request of one
// token has no gaps, so meets the ITL targets).
func (t *servingTally) met(ttft, itl, tail, e2e float64) bool {
	within := func(x, target float64) bool { return target == 0 || math.IsNaN(x) || x <= target }
	return within(ttft, t.slo.TTFTMs) && within(itl, t.slo.ITLMs) && within(tail, t.slo.ITLP99Ms) && within(e2e, t.slo.E2EMs)
}

// summary is the tally's ServingSummary over a measurement window of
// measureMs; windows are the replicas' figures.
func (t *servingTally) summary(arrivals int, measureMs float64, windows []ReplicaServing) *ServingSummary {
	sorted := func(xs []float64) []float64 {
		slices.Sort(xs)
		return xs
	}
	out := &ServingSummary{
		TTFT: Summarize(sorted(t.ttft)), ITL: Summarize(sorted(t.itl)), ITLTail: Summarize(sorted(t.tail)),
		OnTime: t.onTime, Attainment: ratio(t.onTime, arrivals), GoodputRPS: float64(t.onTime) / (measureMs / 1000),
		Preemptions: t.preemptions, Preempted: t.preempt,
		CachedTokens: t.cached, PrefixTokens: t.prefixed, HitRate: ratioF(float64(t.cached), int(t.prefixed)),
	}
	var batch, kv []float64
	for _, w := range windows {
		batch, kv = append(batch, w.MeanBatch), append(kv, w.MeanKVUtil)
	}
	out.MeanBatch, out.MeanKVUtil = Mean(batch), Mean(kv)
	return out
}

// windows are the replicas' serving figures between the warm-up's end and
// now (the cutoff).
func (sr *servingRun) windows(now int64, measureMs float64) []ReplicaServing {
	out := make([]ReplicaServing, len(sr.batch))
	for i, b := range sr.batch {
		end, start := b.counters(now), counters{}
		if sr.marks != nil {
			start = sr.marks[i]
		}
		w := &out[i]
		w.MeanBatch = (end.runningMs - start.runningMs) / measureMs
		w.MeanKVUtil = math.NaN()
		if b.kvCap != math.MaxInt {
			w.MeanKVUtil = (end.kvBlockMs - start.kvBlockMs) / measureMs / float64(b.kvCap)
		}
		w.HitRate = ratioF(float64(end.cached-start.cached), int(end.prefixed-start.prefixed))
		w.Preemptions = end.preemptions - start.preemptions
	}
	return out
}

// servingMetrics are the serving model's metrics, after the
// specification's in Metrics(): a run of the specification's model has none
// of them, so its records and summaries keep their bytes.
func servingMetrics() []Metric {
	lower, higher, none := LowerIsBetter, HigherIsBetter, NoDirection
	med := SummaryMedian
	has := func(r *RunSummary) bool { return r.Serving != nil }
	serving := func(key, name, unit string, better Direction, sum SummaryKind, about string) Metric {
		return Metric{Key: key, Name: name, Unit: unit, Better: better, About: about, Summary: sum, has: has}
	}
	valued := func(key, name, unit string, better Direction, sum SummaryKind, about string, f func(*ServingSummary) *float64) Metric {
		return stored(serving(key, name, unit, better, sum, about), func(r *RunSummary) *float64 { return f(r.Serving) })
	}
	counted := func(key, name string, better Direction, sum SummaryKind, about string, f func(*ServingSummary) *int) Metric {
		return stored(serving(key, name, "req", better, sum, about), func(r *RunSummary) *int { return f(r.Serving) })
	}
	tokens := func(key, name, about string, f func(*ServingSummary) *int64) Metric {
		return stored(serving(key, name, "tokens", none, 0, about), func(r *RunSummary) *int64 { return f(r.Serving) })
	}
	return []Metric{
		valued("ttft_mean_ms", "TTFT mean", "ms", lower, 0, "mean time to first token of completed cohort requests", func(s *ServingSummary) *float64 { return &s.TTFT.Mean }),
		valued("ttft_p50_ms", "TTFT p50", "ms", lower, med, "nearest-rank median time to first token", func(s *ServingSummary) *float64 { return &s.TTFT.P50 }),
		valued("ttft_p90_ms", "TTFT p90", "ms", lower, 0, "nearest-rank 90th percentile time to first token", func(s *ServingSummary) *float64 { return &s.TTFT.P90 }),
		valued("ttft_p95_ms", "TTFT p95", "ms", lower, 0, "nearest-rank 95th percentile time to first token", func(s *ServingSummary) *float64 { return &s.TTFT.P95 }),
		valued("ttft_p99_ms", "TTFT p99", "ms", lower, med, "nearest-rank 99th percentile time to first token", func(s *ServingSummary) *float64 { return &s.TTFT.P99 }),
		valued("itl_mean_ms", "ITL mean", "ms", lower, med, "mean over requests of each request's mean inter-token gap", func(s *ServingSummary) *float64 { return &s.ITL.Mean }),
		valued("itl_p50_ms", "ITL p50", "ms", lower, 0, "nearest-rank median of the requests' mean inter-token gaps", func(s *ServingSummary) *float64 { return &s.ITL.P50 }),
		valued("itl_p99_ms", "ITL p99", "ms", lower, med, "nearest-rank 99th percentile of the requests' mean inter-token gaps", func(s *ServingSummary) *float64 { return &s.ITL.P99 }),
		valued("itl_tail_mean_ms", "ITL tail mean", "ms", lower, 0, "mean over requests of each request's own p99 inter-token gap", func(s *ServingSummary) *float64 { return &s.ITLTail.Mean }),
		valued("itl_tail_p99_ms", "ITL tail p99", "ms", lower, med, "nearest-rank 99th percentile of the requests' own p99 inter-token gaps", func(s *ServingSummary) *float64 { return &s.ITLTail.P99 }),
		counted("serving_on_time", "serving on time", higher, 0, "cohort requests completed meeting every target of the serving SLO", func(s *ServingSummary) *int { return &s.OnTime }),
		valued("serving_attainment", "serving attainment", "fraction", higher, med|SummaryMean, "serving on time / cohort arrivals", func(s *ServingSummary) *float64 { return &s.Attainment }),
		valued("serving_goodput_rps", "serving goodput", "req/s", higher, med, "serving on-time cohort requests per second of the measurement window", func(s *ServingSummary) *float64 { return &s.GoodputRPS }),
		counted("preemptions", "preemptions", lower, med, "preemptions of completed cohort requests", func(s *ServingSummary) *int { return &s.Preemptions }),
		counted("preempted", "preempted", lower, 0, "completed cohort requests preempted at least once, each counted once", func(s *ServingSummary) *int { return &s.Preempted }),
		tokens("cached_tokens", "cached tokens", "prompt tokens the prefix cache served to completed cohort requests", func(s *ServingSummary) *int64 { return &s.CachedTokens }),
		tokens("prefix_tokens", "prefix tokens", "shared-prefix tokens completed cohort requests asked of the prefix cache", func(s *ServingSummary) *int64 { return &s.PrefixTokens }),
		valued("prefix_hit_rate", "prefix hit rate", "fraction", higher, med, "cached tokens / prefix tokens", func(s *ServingSummary) *float64 { return &s.HitRate }),
		valued("mean_batch", "mean batch", "req", none, med, "running requests per replica, averaged over replicas and the measurement window", func(s *ServingSummary) *float64 { return &s.MeanBatch }),
		valued("mean_kv_util", "mean KV utilisation", "fraction", none, med, "fraction of KV blocks held, averaged over replicas and the measurement window", func(s *ServingSummary) *float64 { return &s.MeanKVUtil }),
	}
}
