package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/routelab/routelab/internal/sheet"
)

// Direction says which way a metric is better.
type Direction int

// The directions of a metric. A metric with no better direction
// (throughput, which counts warm-up carry-over, or the cohort, which the
// workload fixes) has no winner in a paired comparison.
const (
	NoDirection    Direction = 0
	LowerIsBetter  Direction = -1
	HigherIsBetter Direction = 1
)

// String says which way is better.
func (d Direction) String() string {
	switch d {
	case LowerIsBetter:
		return "lower"
	case HigherIsBetter:
		return "higher"
	}
	return "neither"
}

// Winner says which side a difference (policy − baseline) favours: +1 the
// policy, −1 the baseline, 0 neither (a tie, an undefined difference, or a
// metric with no better direction).
func (d Direction) Winner(diff float64) int {
	switch {
	case !finite(diff) || diff == 0:
		return 0
	case diff > 0:
		return int(d)
	}
	return -int(d)
}

// Metric is one per-run figure: how people name it, the snake_case name its
// records use (JSON and CSV), its unit, which way is better, what it is, how
// a run gives its value and how a policy's summary across seeds reports it.
// Metrics() is the one list that run records, summaries and their records,
// paired statistics and their tables, the paired figure and the docs' table
// of names read.
type Metric struct {
	Key    string // the record's name: "p99_ms"
	Name   string // for people: "p99"
	Unit   string // "ms", "req", "req/s", or "fraction" (shown as a percentage)
	Better Direction
	About  string // what it is, in a phrase
	// Summary says what a policy's summary reports of the metric across
	// seeds: nothing, the median, and also the min–max range or the mean.
	Summary SummaryKind
	value   func(*RunSummary) float64
	// ref points at the figure in the summary (*int, *int64 or *float64),
	// what a run's whole record reads and writes; nil for a figure derived
	// from others (slo_misses).
	ref     func(*RunSummary) any
	integer bool // a count: records write it as an integer
	// has, when set, tells whether a run has the metric at all (a metric of
	// an opt-in model): records and summaries leave out a metric no run
	// has, so the outputs of runs without it keep their bytes.
	has func(*RunSummary) bool
}

// Optional tells whether the metric belongs to an opt-in model, so that
// runs without that model do not have it (see Has).
func (m Metric) Optional() bool { return m.has != nil }

// Has tells whether a run has the metric (every metric of the
// specification's model is in every run).
func (m Metric) Has(r *RunSummary) bool { return m.has == nil || m.has(r) }

// SummaryKind says what a summary reports of a metric across seeds.
type SummaryKind int

// What a summary reports of a metric: the median (as median_KEY), the
// observed min and max (KEY's base with _min and _max), the mean (as
// mean_KEY, after every median).
const (
	SummaryMedian SummaryKind = 1 << iota
	SummaryRange
	SummaryMean
)

// Of returns the metric's value for a run; NaN when the run has none (no
// completed cohort request for a latency).
func (m Metric) Of(r *RunSummary) float64 {
	if m.value == nil {
		return math.NaN()
	}
	return m.value(r)
}

// recordValue is the value a run's record holds: an int for a count,
// exact.
func (m Metric) recordValue(r *RunSummary) any {
	var p any
	if m.ref != nil {
		p = m.ref(r)
	}
	switch p := p.(type) {
	case *int:
		return *p
	case *int64:
		return int(*p)
	}
	if m.integer {
		return int(m.value(r))
	}
	return m.Of(r)
}

// rangeKeys are the record names of the metric's min and max across seeds:
// p99_ms → p99_min_ms, p99_max_ms.
func (m Metric) RangeKeys() (lo, hi string) {
	base, unit, ok := strings.Cut(m.Key, "_")
	if !ok || !slices.Contains([]string{"ms", "rps"}, unit) {
		return m.Key + "_min", m.Key + "_max"
	}
	return base + "_min_" + unit, base + "_max_" + unit
}

// stored completes m, a metric of the figure f points to.
func stored[T int | int64 | float64](m Metric, f func(*RunSummary) *T) Metric {
	m.value = func(r *RunSummary) float64 { return float64(*f(r)) }
	m.ref = func(r *RunSummary) any { return f(r) }
	_, isFloat := any(*new(T)).(float64)
	m.integer = !isFloat
	return m
}

// Metrics lists every per-run metric, in the order of a run's record.
func Metrics() []Metric {
	lower, higher, none := LowerIsBetter, HigherIsBetter, NoDirection
	med := SummaryMedian
	counted := func(key, name string, better Direction, sum SummaryKind, about string, f func(*RunSummary) *int) Metric {
		return stored(Metric{Key: key, Name: name, Unit: "req", Better: better, About: about, Summary: sum}, f)
	}
	valued := func(key, name, unit string, better Direction, sum SummaryKind, about string, f func(*RunSummary) *float64) Metric {
		return stored(Metric{Key: key, Name: name, Unit: unit, Better: better, About: about, Summary: sum}, f)
	}
	misses := Metric{Key: "slo_misses", Name: "SLO misses", Unit: "req", Better: lower, About: "cohort requests completed over the SLO",
		value: func(r *RunSummary) float64 { return float64(r.SLOMisses()) }, integer: true}
	return append([]Metric{
		counted("cohort_arrivals", "cohort arrivals", none, med, "requests arriving after the warm-up up to the cutoff", func(r *RunSummary) *int { return &r.Cohort }),
		counted("completed", "completed", none, med, "cohort requests completed by the cutoff", func(r *RunSummary) *int { return &r.Completed }),
		counted("shed", "shed", lower, med, "cohort requests no replica could take (every queue full or down)", func(r *RunSummary) *int { return &r.Shed }),
		counted("unfinished", "unfinished", lower, med, "cohort requests still queued or in service at the cutoff", func(r *RunSummary) *int { return &r.Unfinished }),
		counted("on_time", "on time", higher, med, "cohort requests completed within the SLO", func(r *RunSummary) *int { return &r.OnTime }),
		misses,
		valued("mean_ms", "mean", "ms", lower, med, "mean latency of completed cohort requests", func(r *RunSummary) *float64 { return &r.Latency.Mean }),
		valued("p50_ms", "p50", "ms", lower, med, "nearest-rank median latency of completed cohort requests", func(r *RunSummary) *float64 { return &r.Latency.P50 }),
		valued("p90_ms", "p90", "ms", lower, med, "nearest-rank 90th percentile latency", func(r *RunSummary) *float64 { return &r.Latency.P90 }),
		valued("p95_ms", "p95", "ms", lower, med, "nearest-rank 95th percentile latency", func(r *RunSummary) *float64 { return &r.Latency.P95 }),
		valued("p99_ms", "p99", "ms", lower, med|SummaryRange, "nearest-rank 99th percentile latency", func(r *RunSummary) *float64 { return &r.Latency.P99 }),
		valued("max_ms", "max", "ms", lower, 0, "largest latency of a completed cohort request", func(r *RunSummary) *float64 { return &r.Latency.Max }),
		valued("slo_miss_rate", "SLO miss rate", "fraction", lower, med, "SLO misses / completed cohort requests", func(r *RunSummary) *float64 { return &r.SLOMissRate }),
		valued("shed_rate", "shed rate", "fraction", lower, med, "shed / cohort arrivals", func(r *RunSummary) *float64 { return &r.ShedRate }),
		valued("attainment", "attainment", "fraction", higher, med|SummaryMean, "on-time cohort requests / cohort arrivals (0 with arrivals but none on time)", func(r *RunSummary) *float64 { return &r.Attainment }),
		valued("goodput_rps", "goodput", "req/s", higher, med, "on-time cohort requests per second of the measurement window", func(r *RunSummary) *float64 { return &r.GoodputRPS }),
		valued("throughput_rps", "throughput", "req/s", none, med, "every completion in the measurement window (warm-up carry-over included) per second", func(r *RunSummary) *float64 { return &r.ThroughputRPS }),
	}, servingMetrics()...)
}

// MetricByKey returns the metric a record names key.
func MetricByKey(key string) (Metric, error) {
	for _, m := range Metrics() {
		if m.Key == key {
			return m, nil
		}
	}
	return Metric{}, UnknownName("metric", key, metricKeys(), "")
}

func metricKeys() []string {
	var out []string
	for _, m := range Metrics() {
		out = append(out, m.Key)
	}
	return out
}

// scale is what a value or a difference is multiplied by for people, and
// the unit it is then shown in: a fraction shows as a percentage, and a
// difference of fractions in percentage points.
func (m Metric) scale(diff bool) (float64, string) {
	switch {
	case m.Unit != "fraction":
		return 1, m.Unit
	case diff:
		return 100, "pp"
	}
	return 100, "%"
}

// Label names the metric with the unit its differences are shown in:
// "p99 (ms)", "attainment (pp)".
func (m Metric) Label() string {
	_, unit := m.scale(true)
	return fmt.Sprintf("%s (%s)", m.Name, unit)
}

// String describes the metric in one line.
func (m Metric) String() string {
	if m.Key == "" {
		return "no metric (engine.Metrics lists them)"
	}
	return fmt.Sprintf("%s: %s, in %s, %s is better", m.Key, m.Name, m.Unit, m.Better)
}

// HTML shows the metric as a table.
func (m Metric) HTML() string {
	sh := sheet.Sheet{Title: "metric " + m.Key}
	sh.Add("name", m.Name)
	sh.Add("unit", m.Unit)
	sh.Add("better", m.Better.String())
	sh.Add("what it is", m.About)
	sh.Add("summary across seeds", m.Summary.String())
	return sh.HTML()
}

// HTML shows the direction as its text.
func (d Direction) HTML() string { return sheet.Sheet{Title: d.String() + " is better"}.HTML() }

// String names what a summary reports: "median, range".
func (k SummaryKind) String() string {
	var parts []string
	for _, p := range []struct {
		bit  SummaryKind
		name string
	}{{SummaryMedian, "median"}, {SummaryRange, "range"}, {SummaryMean, "mean"}} {
		if k&p.bit != 0 {
			parts = append(parts, p.name)
		}
	}
	if len(parts) == 0 {
		return "not summarised"
	}
	return strings.Join(parts, ", ")
}

// HTML shows the kind as its text.
func (k SummaryKind) HTML() string { return sheet.Sheet{Title: "summary: " + k.String()}.HTML() }

// DiffText formats a difference in the unit its label names, signed.
func (m Metric) DiffText(x float64) string {
	scale, unit := m.scale(true)
	return sheet.Dash("%+."+decimals(unit)+"f", scale*x)
}

// IntervalText formats an interval of differences.
func (m Metric) IntervalText(lo, hi float64) string {
	if !finite(lo) || !finite(hi) {
		return "—"
	}
	return "[" + m.DiffText(lo) + ", " + m.DiffText(hi) + "]"
}

// decimals is how many decimals a difference in unit shows.
func decimals(unit string) string {
	if unit == "pp" || unit == "req/s" {
		return "2"
	}
	return "1"
}

// ValueText formats a value of the metric, as the tables show it.
func (m Metric) ValueText(x float64) string {
	scale, unit := m.scale(false)
	if unit == "%" {
		return sheet.Dash("%.2f%%", scale*x)
	}
	return sheet.Dash("%."+decimals(unit)+"f", x)
}
