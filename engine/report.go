package engine

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Field is one named value of a record. The names are the one snake_case
// spelling of each concept, shared by JSON and CSV output. A NaN value is
// undefined: null in JSON, empty in CSV, an em dash in text.
type Field struct {
	Name  string
	Value any // int, uint64, float64 or string
}

// RunRecord flattens one run.
func RunRecord(r *RunSummary) []Field {
	out := []Field{
		{"policy", r.Policy}, {"scenario", r.Scenario}, {"seed", r.Seed},
		{"workload_fingerprint", fmt.Sprintf("%016x", r.Fingerprint)},
		{"cohort_arrivals", r.Cohort}, {"completed", r.Completed}, {"shed", r.Shed},
		{"unfinished", r.Unfinished}, {"on_time", r.OnTime}, {"slo_misses", r.SLOMisses()},
		{"mean_ms", r.Latency.Mean}, {"p50_ms", r.Latency.P50}, {"p90_ms", r.Latency.P90},
		{"p95_ms", r.Latency.P95}, {"p99_ms", r.Latency.P99}, {"max_ms", r.Latency.Max},
		{"slo_miss_rate", r.SLOMissRate}, {"shed_rate", r.ShedRate}, {"attainment", r.Attainment},
		{"goodput_rps", r.GoodputRPS}, {"throughput_rps", r.ThroughputRPS},
	}
	if r.Serving == nil {
		return out
	}
	return append(out, r.Serving.record()...)
}

// SummaryRecord flattens one policy's summary.
func SummaryRecord(policy string, s Summary) []Field {
	out := []Field{
		{"policy", policy}, {"runs", s.Runs}, {"latency_runs", s.LatencyRuns},
		{"median_cohort_arrivals", s.MedianCohort}, {"median_completed", s.MedianCompleted},
		{"median_shed", s.MedianShed}, {"median_unfinished", s.MedianUnfinished},
		{"median_on_time", s.MedianOnTime}, {"median_mean_ms", s.MedianMean},
		{"median_p50_ms", s.MedianP50}, {"median_p90_ms", s.MedianP90}, {"median_p95_ms", s.MedianP95},
		{"median_p99_ms", s.MedianP99}, {"p99_min_ms", s.P99Min}, {"p99_max_ms", s.P99Max},
		{"median_slo_miss_rate", s.MedianSLOMissRate}, {"median_shed_rate", s.MedianShedRate},
		{"median_attainment", s.MedianAttainment}, {"median_goodput_rps", s.MedianGoodput},
		{"median_throughput_rps", s.MedianThroughput}, {"mean_attainment", s.MeanAttainment},
	}
	if s.Serving == nil {
		return out
	}
	return append(out, s.Serving.record()...)
}

// formatCSV renders a value for CSV ("" for NaN).
func formatCSV(v any) string {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// WriteCSV writes records as CSV with a header from the first record.
func WriteCSV(w io.Writer, records [][]Field) error {
	return writeCSVRows(w, seqOf(records))
}

// recordSeq yields records one at a time: writers need never hold them all.
type recordSeq func(yield func([]Field) error) error

func seqOf(records [][]Field) recordSeq {
	return func(yield func([]Field) error) error {
		for _, r := range records {
			if err := yield(r); err != nil {
				return err
			}
		}
		return nil
	}
}

func (seq recordSeq) collect() [][]Field {
	var out [][]Field
	_ = seq(func(r []Field) error {
		out = append(out, r)
		return nil
	})
	return out
}

// writeCSVRows writes the records as CSV, row by row, with a header from the
// first record.
func writeCSVRows(w io.Writer, records recordSeq) error {
	cw := csv.NewWriter(w)
	first := true
	err := records(func(rec []Field) error {
		if first {
			first = false
			names := make([]string, len(rec))
			for j, f := range rec {
				names[j] = f.Name
			}
			if err := cw.Write(names); err != nil {
				return err
			}
		}
		row := make([]string, len(rec))
		for j, f := range rec {
			row[j] = formatCSV(f.Value)
		}
		return cw.Write(row)
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// jsonObject is an ordered JSON object.
type jsonObject []Field

func marshalValue(v any) ([]byte, error) {
	if x, ok := v.(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

func records(rs [][]Field) []jsonObject {
	out := make([]jsonObject, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}

// runRecords yields every run of a comparison, policy by policy, seed by
// seed.
func (c *Comparison) runRecords() recordSeq {
	return func(yield func([]Field) error) error {
		for _, p := range c.Policies {
			for i := range p.Records {
				if err := yield(RunRecord(&p.Records[i])); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// RunRecords flattens every run of a comparison, policy by policy.
func (c *Comparison) RunRecords() [][]Field { return c.runRecords().collect() }

// SummaryRecords flattens the per-policy summaries.
func (c *Comparison) SummaryRecords() [][]Field {
	var out [][]Field
	for _, p := range c.Policies {
		out = append(out, SummaryRecord(p.Name, p.Summary))
	}
	return out
}

// WriteCSV writes one CSV row per run, written as it is formatted.
func (c *Comparison) WriteCSV(w io.Writer) error { return writeCSVRows(w, c.runRecords()) }

// WriteJSON writes the comparison: scenario, protocol, seeds, workload
// fingerprints, per-policy summaries and per-seed runs, each run written as
// it is formatted.
func (c *Comparison) WriteJSON(w io.Writer) error {
	fps := make([]string, len(c.Fingerprints))
	for i, f := range c.Fingerprints {
		fps[i] = fmt.Sprintf("%016x", f)
	}
	out := jsonObject{
		{"scenario", c.Scenario}, {"protocol", c.Protocol}, {"seeds", c.Seeds},
		{"workload_fingerprints", fps},
		{"policies", records(c.SummaryRecords())}, {"runs", c.runRecords()},
	}
	return writeIndented(w, out)
}

// Dash formats x with the given verb, or an em dash when x is undefined.
func Dash(format string, x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf(format, x)
}

// String renders the comparison as a text table.
func (c Comparison) String() string {
	var b strings.Builder
	_ = c.WriteText(&b)
	return b.String()
}

// summaryColumn is a column of a comparison's table, after the policy name:
// the text table and the HTML table both read this list.
type summaryColumn struct {
	head string
	cell func(Summary) string
}

func summaryColumns(serving bool) []summaryColumn {
	cols := []summaryColumn{
		{"p50 ms", func(s Summary) string { return Dash("%.1f", s.MedianP50) }},
		{"p90 ms", func(s Summary) string { return Dash("%.1f", s.MedianP90) }},
		{"p99 ms", func(s Summary) string { return Dash("%.1f", s.MedianP99) }},
		{"p99 range ms", func(s Summary) string { return rangeText(s.P99Min, s.P99Max) }},
		{"SLO miss", func(s Summary) string { return Dash("%.2f%%", 100*s.MedianSLOMissRate) }},
		{"shed", func(s Summary) string { return Dash("%.0f", s.MedianShed) }},
		{"unfinished", func(s Summary) string { return Dash("%.0f", s.MedianUnfinished) }},
		{"attainment", func(s Summary) string { return Dash("%.2f%%", 100*s.MedianAttainment) }},
		{"goodput/s", func(s Summary) string { return Dash("%.1f", s.MedianGoodput) }},
		{"throughput/s", func(s Summary) string { return Dash("%.1f", s.MedianThroughput) }},
	}
	if serving {
		cols = append(cols, servingColumns()...)
	}
	return cols
}

// tableRows returns the table's header and one row per policy.
func (c *Comparison) tableRows() (head []string, rows [][]string) {
	cols := summaryColumns(c.Scenario.Serving != nil)
	head = []string{"policy"}
	for _, col := range cols {
		head = append(head, col.head)
	}
	for _, p := range c.Policies {
		row := []string{p.Name}
		for _, col := range cols {
			row = append(row, col.cell(p.Summary))
		}
		rows = append(rows, row)
	}
	return head, rows
}

// headline is the table's first line: the scenario and the protocol.
func (c *Comparison) headline() string {
	return fmt.Sprintf("%s — %s, %s, %d seeds, %g s warm-up + %g s measured, SLO %g ms",
		c.Scenario.Name, c.Scenario.Cluster(), c.Scenario.Traffic(), len(c.Seeds),
		c.Protocol.Warmup/1000, c.Protocol.Measure/1000, c.Protocol.SLO)
}

const comparisonNote = "medians across seeds; the p99 range is the observed min–max, not a confidence interval"

// WriteText writes a readable table: per policy the medians across seeds
// and the observed p99 range.
func (c *Comparison) WriteText(w io.Writer) error {
	fmt.Fprintln(w, c.headline())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head, rows := c.tableRows()
	for _, r := range append([][]string{head}, rows...) {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, comparisonNote)
	return err
}

func rangeText(lo, hi float64) string {
	if math.IsNaN(lo) {
		return "—"
	}
	return fmt.Sprintf("%.1f–%.1f", lo, hi)
}
