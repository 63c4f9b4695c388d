package experiment

import (
	"math"
	"strconv"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/sheet"
)

// Column is one column of a comparison's summary table, after the policy
// name (and, in the HTML, LaTeX and Markdown tables, the run count). The
// text table (Comparison.WriteText, Comparison.HTML) and package plot's
// tables (ComparisonTable, ComparisonTableAs) all take their columns from
// SummaryColumns, so a metric shows in all of them or in none.
type Column struct {
	// Head is the column's name ("p99", "TTFT p99") and Unit its unit
	// ("ms", "req", "req/s"; "" for a fraction shown as a percentage). The
	// text table writes both on one line (TextHead); the others write the
	// unit under the name.
	Head, Unit string
	// Key is the metric (engine.Metrics) whose median across seeds the
	// column shows: Summary.MedianOf(Key).
	Key string
	// Range makes the column show the observed min–max of Key across seeds
	// (Summary.RangeOf) instead of its median; such a column has no value
	// and no best.
	Range bool
	// Better is which way is better, for the best of a column in bold;
	// engine.NoDirection gives no winner.
	Better engine.Direction
	// Format writes a value of the column; an undefined value is an em
	// dash.
	Format func(float64) string
}

// Value is the column's value for a summary: the median across seeds of
// its metric, NaN for a range column or a metric the summary lacks.
func (c Column) Value(s Summary) float64 {
	if c.Range {
		return math.NaN()
	}
	return s.MedianOf(c.Key)
}

// Cell is the column's text for a summary.
func (c Column) Cell(s Summary) string {
	if c.Range {
		return rangeText(s.RangeOf(c.Key))
	}
	return c.Format(c.Value(s))
}

// TextHead is the column's heading in the text table, name and unit on one
// line: a count leaves its unit out ("shed"), a rate is per second
// ("goodput/s"), any other unit follows the name ("p99 ms").
func (c Column) TextHead() string {
	switch c.Unit {
	case "", "req":
		return c.Head
	case "req/s":
		return c.Head + "/s"
	}
	return c.Head + " " + c.Unit
}

// SummaryColumns lists a comparison's summary columns: the specification's
// model's (end-to-end latency, the end-to-end SLO's miss rate, attainment
// and goodput, shed, unfinished, throughput), or with serving, a serving
// comparison's (end-to-end p50 and p99, TTFT, ITL, the serving SLO's
// attainment and goodput, prefix hits, preemptions, shed, unfinished,
// throughput). A serving comparison leaves out the end-to-end SLO's
// columns, meaningless for LLM serving.
func SummaryColumns(serving bool) []Column {
	const lower, higher, none = engine.LowerIsBetter, engine.HigherIsBetter, engine.NoDirection
	p50 := Column{Head: "p50", Unit: "ms", Key: "p50_ms", Better: lower, Format: fixed(1)}
	p99 := Column{Head: "p99", Unit: "ms", Key: "p99_ms", Better: lower, Format: fixed(1)}
	p99Range := Column{Head: "p99 range", Unit: "ms", Key: "p99_ms", Range: true}
	shed := Column{Head: "shed", Unit: "req", Key: "shed", Better: lower, Format: fixed(0)}
	unfinished := Column{Head: "unfinished", Unit: "req", Key: "unfinished", Better: lower, Format: fixed(0)}
	throughput := Column{Head: "throughput", Unit: "req/s", Key: "throughput_rps", Better: none, Format: fixed(1)}
	if serving {
		return []Column{
			p50, p99, p99Range,
			{Head: "TTFT p50", Unit: "ms", Key: "ttft_p50_ms", Better: lower, Format: fixed(1)},
			{Head: "TTFT p99", Unit: "ms", Key: "ttft_p99_ms", Better: lower, Format: fixed(1)},
			{Head: "ITL p99", Unit: "ms", Key: "itl_p99_ms", Better: lower, Format: fixed(1)},
			{Head: "serving SLO", Key: "serving_attainment", Better: higher, Format: percent(2)},
			{Head: "serving goodput", Unit: "req/s", Key: "serving_goodput_rps", Better: higher, Format: fixed(1)},
			{Head: "prefix hits", Key: "prefix_hit_rate", Better: higher, Format: percent(1)},
			{Head: "preemptions", Unit: "req", Key: "preemptions", Better: lower, Format: fixed(0)},
			shed, unfinished, throughput,
		}
	}
	return []Column{
		p50,
		{Head: "p90", Unit: "ms", Key: "p90_ms", Better: lower, Format: fixed(1)},
		p99, p99Range,
		{Head: "SLO miss", Key: "slo_miss_rate", Better: lower, Format: percent(2)},
		shed, unfinished,
		{Head: "attainment", Key: "attainment", Better: higher, Format: percent(2)},
		{Head: "goodput", Unit: "req/s", Key: "goodput_rps", Better: higher, Format: fixed(1)},
		throughput,
	}
}

// fixed writes a value with d decimals.
func fixed(d int) func(float64) string {
	return func(x float64) string { return sheet.Dash("%."+strconv.Itoa(d)+"f", x) }
}

// percent writes a fraction as a percentage with d decimals.
func percent(d int) func(float64) string {
	return func(x float64) string { return sheet.Dash("%."+strconv.Itoa(d)+"f%%", 100*x) }
}

func (c Column) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: "column " + c.TextHead()}
	sh.Add("metric", c.Key)
	sh.Add("shows", sheet.YesNo(c.Range, "the min–max across seeds", "the median across seeds"))
	if !c.Range {
		sh.Add("better", c.Better.String())
	}
	return sh
}

// String describes the column: its metric and what it shows of it.
func (c Column) String() string { return c.sheet().Text() }

// HTML shows the column as a table.
func (c Column) HTML() string { return c.sheet().HTML() }
