package engine

import (
	"fmt"
	"math"
	"strings"
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
// records use (JSON and CSV), its unit, which way is better, and how a run
// gives its value. Metrics() is the one list that paired statistics, their
// tables, JSON and CSV, and the paired figure read.
type Metric struct {
	Key    string // the record's name: "p99_ms"
	Name   string // for people: "p99"
	Unit   string // "ms", "req", "req/s", or "fraction" (shown as a percentage)
	Better Direction
	value  func(*RunSummary) float64
}

// Of returns the metric's value for a run; NaN when the run has none (no
// completed cohort request for a latency).
func (m Metric) Of(r *RunSummary) float64 {
	if m.value == nil {
		return math.NaN()
	}
	return m.value(r)
}

func count(f func(*RunSummary) int) func(*RunSummary) float64 {
	return func(r *RunSummary) float64 { return float64(f(r)) }
}

// Metrics lists every per-run metric, in the order of a run's record
// (RunRecord); a test holds the two to the same names and values.
func Metrics() []Metric {
	lower, higher, none := LowerIsBetter, HigherIsBetter, NoDirection
	return []Metric{
		{"cohort_arrivals", "cohort arrivals", "req", none, count(func(r *RunSummary) int { return r.Cohort })},
		{"completed", "completed", "req", none, count(func(r *RunSummary) int { return r.Completed })},
		{"shed", "shed", "req", lower, count(func(r *RunSummary) int { return r.Shed })},
		{"unfinished", "unfinished", "req", lower, count(func(r *RunSummary) int { return r.Unfinished })},
		{"on_time", "on time", "req", higher, count(func(r *RunSummary) int { return r.OnTime })},
		{"slo_misses", "SLO misses", "req", lower, count(func(r *RunSummary) int { return r.SLOMisses() })},
		{"mean_ms", "mean", "ms", lower, func(r *RunSummary) float64 { return r.Latency.Mean }},
		{"p50_ms", "p50", "ms", lower, func(r *RunSummary) float64 { return r.Latency.P50 }},
		{"p90_ms", "p90", "ms", lower, func(r *RunSummary) float64 { return r.Latency.P90 }},
		{"p95_ms", "p95", "ms", lower, func(r *RunSummary) float64 { return r.Latency.P95 }},
		{"p99_ms", "p99", "ms", lower, func(r *RunSummary) float64 { return r.Latency.P99 }},
		{"max_ms", "max", "ms", lower, func(r *RunSummary) float64 { return r.Latency.Max }},
		{"slo_miss_rate", "SLO miss rate", "fraction", lower, func(r *RunSummary) float64 { return r.SLOMissRate }},
		{"shed_rate", "shed rate", "fraction", lower, func(r *RunSummary) float64 { return r.ShedRate }},
		{"attainment", "attainment", "fraction", higher, func(r *RunSummary) float64 { return r.Attainment }},
		{"goodput_rps", "goodput", "req/s", higher, func(r *RunSummary) float64 { return r.GoodputRPS }},
		{"throughput_rps", "throughput", "req/s", none, func(r *RunSummary) float64 { return r.ThroughputRPS }},
	}
}

// PairedMetricKeys are the metrics a paired comparison reports unless told
// otherwise: the tail, the SLO outcome and the losses.
func PairedMetricKeys() []string {
	return []string{"p99_ms", "p90_ms", "attainment", "goodput_rps", "shed"}
}

// MetricByKey returns the metric a record names key.
func MetricByKey(key string) (Metric, error) {
	for _, m := range Metrics() {
		if m.Key == key {
			return m, nil
		}
	}
	return Metric{}, fieldErr("metric", key, "one of "+strings.Join(metricKeys(), ", "))
}

// metric returns a metric the engine names by a literal key; an unknown
// key is a bug in the engine, found by its tests.
func metric(key string) Metric {
	m, err := MetricByKey(key)
	if err != nil {
		panic(err)
	}
	return m
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
	sh := sheet{title: "metric " + m.Key}
	sh.add("name", m.Name)
	sh.add("unit", m.Unit)
	sh.add("better", m.Better.String())
	return sh.html()
}

// HTML shows the direction as its text.
func (d Direction) HTML() string { return sheet{title: d.String() + " is better"}.html() }
