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

	"github.com/routelab/routelab/internal/sheet"
)

// Field is one named value of a record. The names are the one snake_case
// spelling of each concept, shared by JSON and CSV output. A NaN value is
// undefined: null in JSON, empty in CSV, an em dash in text.
type Field struct {
	Name  string
	Value any // int, uint64, float64 or string
}

// RunRecord flattens one run: who and what it ran, then every metric of
// Metrics() in order.
func RunRecord(r *RunSummary) []Field { return runRecord(r, Metrics()) }

func runRecord(r *RunSummary, metrics []Metric) []Field {
	fields := []Field{
		{"policy", r.Policy}, {"scenario", r.Scenario}, {"seed", r.Seed},
		{"workload_fingerprint", fmt.Sprintf("%016x", r.Fingerprint)},
	}
	for _, m := range metrics {
		if m.Has(r) {
			fields = append(fields, Field{m.Key, m.recordValue(r)})
		}
	}
	return fields
}

// SummaryRecord flattens one policy's summary: the run counts, then what
// the summary reports of each metric of Metrics() (median_KEY, the range
// after its median), then the means. A metric of an opt-in model that no
// run had is left out.
func SummaryRecord(policy string, s Summary) []Field { return summaryRecord(policy, s, Metrics()) }

func summaryRecord(policy string, s Summary, metrics []Metric) []Field {
	fields := []Field{{"policy", policy}, {"runs", s.Runs}, {"latency_runs", s.LatencyRuns}}
	var means []Field
	for _, m := range metrics {
		if !s.reports(m.Key) && m.has != nil {
			continue
		}
		if m.Summary&SummaryMedian != 0 {
			fields = append(fields, Field{"median_" + m.Key, s.MedianOf(m.Key)})
		}
		if m.Summary&SummaryRange != 0 {
			loKey, hiKey := m.rangeKeys()
			lo, hi := s.RangeOf(m.Key)
			fields = append(fields, Field{loKey, lo}, Field{hiKey, hi})
		}
		if m.Summary&SummaryMean != 0 {
			means = append(means, Field{"mean_" + m.Key, s.MeanOf(m.Key)})
		}
	}
	return append(fields, means...)
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
func (c *Comparison) WriteJSON(w io.Writer) error { return writeIndented(w, c.object()) }

// object is the comparison as WriteJSON writes it.
func (c *Comparison) object() jsonObject {
	fps := make([]string, len(c.Fingerprints))
	for i, f := range c.Fingerprints {
		fps[i] = fmt.Sprintf("%016x", f)
	}
	return jsonObject{
		{"scenario", c.Scenario}, {"protocol", c.Protocol}, {"seeds", c.Seeds},
		{"workload_fingerprints", fps},
		{"policies", records(c.SummaryRecords())}, {"runs", c.runRecords()},
	}
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
		{"p50 ms", func(s Summary) string { return sheet.Dash("%.1f", s.MedianP50) }},
		{"p90 ms", func(s Summary) string { return sheet.Dash("%.1f", s.MedianP90) }},
		{"p99 ms", func(s Summary) string { return sheet.Dash("%.1f", s.MedianP99) }},
		{"p99 range ms", func(s Summary) string { return rangeText(s.P99Min, s.P99Max) }},
		{"SLO miss", func(s Summary) string { return sheet.Dash("%.2f%%", 100*s.MedianSLOMissRate) }},
		{"shed", func(s Summary) string { return sheet.Dash("%.0f", s.MedianShed) }},
		{"unfinished", func(s Summary) string { return sheet.Dash("%.0f", s.MedianUnfinished) }},
		{"attainment", func(s Summary) string { return sheet.Dash("%.2f%%", 100*s.MedianAttainment) }},
		{"goodput/s", func(s Summary) string { return sheet.Dash("%.1f", s.MedianGoodput) }},
		{"throughput/s", func(s Summary) string { return sheet.Dash("%.1f", s.MedianThroughput) }},
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
