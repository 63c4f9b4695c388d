package experiment

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/record"
)

// SummaryRecord flattens one policy's summary: the run counts, then what
// the summary reports of each metric of Metrics() (median_KEY, the range
// after its median), then the means. A metric of an opt-in model that no
// run had is left out.
func SummaryRecord(policy string, s Summary) []engine.Field {
	return summaryRecord(policy, s, engine.Metrics())
}

func summaryRecord(policy string, s Summary, metrics []engine.Metric) []engine.Field {
	fields := []engine.Field{{Name: "policy", Value: policy}, {Name: "runs", Value: s.Runs}, {Name: "latency_runs", Value: s.LatencyRuns}}
	var means []engine.Field
	for _, m := range metrics {
		if !s.reports(m.Key) && m.Optional() {
			continue
		}
		if m.Summary&engine.SummaryMedian != 0 {
			fields = append(fields, engine.Field{Name: "median_" + m.Key, Value: s.MedianOf(m.Key)})
		}
		if m.Summary&engine.SummaryRange != 0 {
			loKey, hiKey := m.RangeKeys()
			lo, hi := s.RangeOf(m.Key)
			fields = append(fields, engine.Field{Name: loKey, Value: lo}, engine.Field{Name: hiKey, Value: hi})
		}
		if m.Summary&engine.SummaryMean != 0 {
			means = append(means, engine.Field{Name: "mean_" + m.Key, Value: s.MeanOf(m.Key)})
		}
	}
	return append(fields, means...)
}

// runRecords yields every run of a comparison, policy by policy, seed by
// seed.
func (c *Comparison) runRecords() record.Seq {
	return func(yield func([]engine.Field) error) error {
		for _, p := range c.Policies {
			for i := range p.Records {
				if err := yield(engine.RunRecord(&p.Records[i])); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// RunRecords flattens every run of a comparison, policy by policy.
func (c *Comparison) RunRecords() [][]engine.Field { return c.runRecords().Collect() }

// SummaryRecords flattens the per-policy summaries.
func (c *Comparison) SummaryRecords() [][]engine.Field {
	var out [][]engine.Field
	for _, p := range c.Policies {
		out = append(out, SummaryRecord(p.Name, p.Summary))
	}
	return out
}

// WriteCSV writes one CSV row per run, written as it is formatted.
func (c *Comparison) WriteCSV(w io.Writer) error { return record.WriteCSVRows(w, c.runRecords()) }

// WriteJSON writes the comparison: scenario, protocol, seeds, workload
// fingerprints, per-policy summaries and per-seed runs, each run written as
// it is formatted.
func (c *Comparison) WriteJSON(w io.Writer) error { return record.WriteIndented(w, c.object()) }

// object is the comparison as WriteJSON writes it.
func (c *Comparison) object() record.Object {
	fps := make([]string, len(c.Fingerprints))
	for i, f := range c.Fingerprints {
		fps[i] = fmt.Sprintf("%016x", f)
	}
	return record.Object{
		{Name: "scenario", Value: c.Scenario}, {Name: "protocol", Value: c.Protocol}, {Name: "seeds", Value: c.Seeds},
		{Name: "workload_fingerprints", Value: fps},
		{Name: "policies", Value: record.Objects(c.SummaryRecords())}, {Name: "runs", Value: c.runRecords()},
	}
}

// String renders the comparison as a text table.
func (c Comparison) String() string {
	var b strings.Builder
	_ = c.WriteText(&b)
	return b.String()
}

// tableRows returns the table's header and one row per policy.
func (c *Comparison) tableRows() (head []string, rows [][]string) {
	cols := SummaryColumns(c.Scenario.Serving != nil)
	head = []string{"policy"}
	for _, col := range cols {
		head = append(head, col.TextHead())
	}
	for _, p := range c.Policies {
		row := []string{p.Name}
		for _, col := range cols {
			row = append(row, col.Cell(p.Summary))
		}
		rows = append(rows, row)
	}
	return head, rows
}

// headline is the table's first line: the scenario and the protocol.
func (c *Comparison) headline() string {
	return fmt.Sprintf("%s — %s, %s, %d seeds, %g s warm-up + %g s measured, %s",
		c.Scenario.Name, c.Scenario.Cluster(), c.Scenario.Traffic(), len(c.Seeds),
		c.Protocol.Warmup/1000, c.Protocol.Measure/1000, c.SLOText())
}

// SLOText names the targets the comparison's attainment counts: the
// protocol's end-to-end SLO ("SLO 50 ms"), or for a serving scenario, whose
// tables and figures report the serving SLO instead, its targets
// ("serving SLO: TTFT ≤ 500 ms, ITL ≤ 50 ms").
func (c *Comparison) SLOText() string {
	if c.Scenario.Serving == nil {
		return fmt.Sprintf("SLO %g ms", c.Protocol.SLO)
	}
	slo := c.Scenario.Serving.SLO
	if slo == (engine.ServingSLO{}) {
		return "serving SLO: none (every completed request attains)"
	}
	return "serving SLO: " + slo.String()
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
