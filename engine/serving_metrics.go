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
	// serving SLO; Attainment is OnTime / cohort arrivals.
	OnTime     int     `json:"serving_on_time"`
	Attainment float64 `json:"-"`
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

// summary is the tally's ServingSummary; windows are the replicas' figures.
func (t *servingTally) summary(arrivals int, windows []ReplicaServing) *ServingSummary {
	sorted := func(xs []float64) []float64 {
		slices.Sort(xs)
		return xs
	}
	out := &ServingSummary{
		TTFT: Summarize(sorted(t.ttft)), ITL: Summarize(sorted(t.itl)), ITLTail: Summarize(sorted(t.tail)),
		OnTime: t.onTime, Attainment: ratio(t.onTime, arrivals),
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

// ServingAggregate summarises a policy's serving runs across seeds: medians
// of per-run figures (NaN where no run has one), as Summary does.
type ServingAggregate struct {
	MedianTTFTP50     float64
	MedianTTFTP99     float64
	MedianITLMean     float64
	MedianITLP99      float64
	MedianITLTailP99  float64
	MedianAttainment  float64
	MeanAttainment    float64
	MedianHitRate     float64
	MedianPreemptions float64
	MedianBatch       float64
	MedianKVUtil      float64
}

func aggregateServing(runs []RunSummary) *ServingAggregate {
	med := func(f func(*ServingSummary) float64) float64 {
		xs := make([]float64, len(runs))
		for i := range runs {
			xs[i] = f(runs[i].Serving)
		}
		return Median(xs)
	}
	att := make([]float64, len(runs))
	for i := range runs {
		att[i] = runs[i].Serving.Attainment
	}
	return &ServingAggregate{
		MedianTTFTP50:     med(func(s *ServingSummary) float64 { return s.TTFT.P50 }),
		MedianTTFTP99:     med(func(s *ServingSummary) float64 { return s.TTFT.P99 }),
		MedianITLMean:     med(func(s *ServingSummary) float64 { return s.ITL.Mean }),
		MedianITLP99:      med(func(s *ServingSummary) float64 { return s.ITL.P99 }),
		MedianITLTailP99:  med(func(s *ServingSummary) float64 { return s.ITLTail.P99 }),
		MedianAttainment:  Median(att),
		MeanAttainment:    Mean(att),
		MedianHitRate:     med(func(s *ServingSummary) float64 { return s.HitRate }),
		MedianPreemptions: med(func(s *ServingSummary) float64 { return float64(s.Preemptions) }),
		MedianBatch:       med(func(s *ServingSummary) float64 { return s.MeanBatch }),
		MedianKVUtil:      med(func(s *ServingSummary) float64 { return s.MeanKVUtil }),
	}
}

// record flattens the serving figures, after the specification's fields of
// a run's record.
func (s *ServingSummary) record() []Field {
	return []Field{
		{"ttft_mean_ms", s.TTFT.Mean}, {"ttft_p50_ms", s.TTFT.P50}, {"ttft_p90_ms", s.TTFT.P90}, {"ttft_p99_ms", s.TTFT.P99},
		{"itl_mean_ms", s.ITL.Mean}, {"itl_p50_ms", s.ITL.P50}, {"itl_p99_ms", s.ITL.P99},
		{"itl_tail_mean_ms", s.ITLTail.Mean}, {"itl_tail_p99_ms", s.ITLTail.P99},
		{"serving_on_time", s.OnTime}, {"serving_attainment", s.Attainment},
		{"preemptions", s.Preemptions}, {"preempted", s.Preempted},
		{"cached_tokens", s.CachedTokens}, {"prefix_tokens", s.PrefixTokens}, {"prefix_hit_rate", s.HitRate},
		{"mean_batch", s.MeanBatch}, {"mean_kv_util", s.MeanKVUtil},
	}
}

// record flattens the aggregate, after the specification's fields of a
// policy's summary record.
func (a *ServingAggregate) record() []Field {
	return []Field{
		{"median_ttft_p50_ms", a.MedianTTFTP50}, {"median_ttft_p99_ms", a.MedianTTFTP99},
		{"median_itl_mean_ms", a.MedianITLMean}, {"median_itl_p99_ms", a.MedianITLP99}, {"median_itl_tail_p99_ms", a.MedianITLTailP99},
		{"median_serving_attainment", a.MedianAttainment}, {"mean_serving_attainment", a.MeanAttainment},
		{"median_prefix_hit_rate", a.MedianHitRate}, {"median_preemptions", a.MedianPreemptions},
		{"median_mean_batch", a.MedianBatch}, {"median_mean_kv_util", a.MedianKVUtil},
	}
}

// servingColumns are the comparison table's columns for the serving model.
func servingColumns() []summaryColumn {
	sv := func(f func(*ServingAggregate) float64, format string) func(Summary) string {
		return func(s Summary) string {
			if s.Serving == nil {
				return "—"
			}
			return Dash(format, f(s.Serving))
		}
	}
	return []summaryColumn{
		{"TTFT p99 ms", sv(func(a *ServingAggregate) float64 { return a.MedianTTFTP99 }, "%.1f")},
		{"ITL p99 ms", sv(func(a *ServingAggregate) float64 { return a.MedianITLP99 }, "%.1f")},
		{"serving SLO", sv(func(a *ServingAggregate) float64 { return 100 * a.MedianAttainment }, "%.2f%%")},
		{"prefix hits", sv(func(a *ServingAggregate) float64 { return 100 * a.MedianHitRate }, "%.1f%%")},
		{"preemptions", sv(func(a *ServingAggregate) float64 { return a.MedianPreemptions }, "%.0f")},
	}
}
