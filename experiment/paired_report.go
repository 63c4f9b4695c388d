package experiment

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/record"
	"github.com/routelab/routelab/internal/sheet"
)

// How paired statistics are written: one record per policy and metric,
// shared by JSON and CSV; the text and HTML tables read the same columns.

// Record flattens the statistic: the metric, the two policies and the
// method, then the figures.
func (s PairedStat) Record() []engine.Field {
	return []engine.Field{
		{Name: "metric", Value: s.Metric.Key}, {Name: "unit", Value: s.Metric.Unit}, {Name: "better", Value: s.Metric.Better.String()},
		{Name: "baseline", Value: s.Baseline}, {Name: "policy", Value: s.Policy}, {Name: "method", Value: string(s.Method)}, {Name: "level", Value: PairedLevel},
		{Name: "seeds", Value: s.Seeds}, {Name: "seeds_left_out", Value: len(s.Pairs) - s.Seeds},
		{Name: "baseline_mean", Value: s.BaselineMean}, {Name: "policy_mean", Value: s.PolicyMean},
		{Name: "diff_mean", Value: s.DiffMean}, {Name: "std_err", Value: s.StdErr}, {Name: "ci_low", Value: s.CILow}, {Name: "ci_high", Value: s.CIHigh},
		{Name: "wins", Value: s.Wins}, {Name: "losses", Value: s.Losses}, {Name: "ties", Value: s.Ties},
		{Name: "unpaired_ci_low", Value: s.UnpairedLow}, {Name: "unpaired_ci_high", Value: s.UnpairedHigh},
		{Name: "unpaired_width_ratio", Value: s.WidthRatio}, {Name: "verdict", Value: s.Verdict()},
	}
}

// Records flattens every statistic, policy by policy, metric by metric.
func (p *Paired) Records() [][]engine.Field {
	out := make([][]engine.Field, len(p.Stats))
	for i, s := range p.Stats {
		out[i] = s.Record()
	}
	return out
}

// WriteCSV writes one row per policy and metric.
func (p *Paired) WriteCSV(w io.Writer) error { return record.WriteCSV(w, p.Records()) }

// WriteJSON writes what was compared and the statistics under "paired".
func (p *Paired) WriteJSON(w io.Writer) error {
	return record.WriteIndented(w, record.Object{
		{Name: "label", Value: p.Label}, {Name: "baseline", Value: p.Baseline}, {Name: "method", Value: string(p.Method)}, {Name: "level", Value: PairedLevel},
		{Name: "seeds", Value: p.Seeds}, {Name: "paired", Value: record.Objects(p.Records())},
	})
}

// WriteJSONPaired writes the comparison as WriteJSON does, with the paired
// statistics under "paired" between the summaries and the runs.
func (c *Comparison) WriteJSONPaired(w io.Writer, p *Paired) error {
	return record.WriteIndented(w, insertBefore(c.object(), "runs", engine.Field{Name: "paired", Value: record.Objects(p.Records())}))
}

// insertBefore returns o with f inserted before the field named key (at the
// end when there is none).
func insertBefore(o record.Object, key string, f engine.Field) record.Object {
	for i := range o {
		if o[i].Name == key {
			return append(o[:i:i], append(record.Object{f}, o[i:]...)...)
		}
	}
	return append(o, f)
}

// pairedColumn is a column of a paired table, after the policy and the
// metric: the text and HTML tables both read pairedColumns.
type pairedColumn struct {
	head string
	cell func(PairedStat) string
}

func pairedColumns() []pairedColumn {
	return []pairedColumn{
		{"seeds", func(s PairedStat) string { return fmt.Sprint(s.Seeds) }},
		{"mean Δ", func(s PairedStat) string { return s.Metric.DiffText(s.DiffMean) }},
		{"95 % CI", func(s PairedStat) string { return s.Metric.IntervalText(s.CILow, s.CIHigh) }},
		{"wins", func(s PairedStat) string { return fmt.Sprint(s.Wins) }},
		{"losses", func(s PairedStat) string { return fmt.Sprint(s.Losses) }},
		{"ties", func(s PairedStat) string { return fmt.Sprint(s.Ties) }},
		{"÷ unpaired", func(s PairedStat) string { return sheet.Dash("%.2f", s.WidthRatio) }},
		{"verdict", PairedStat.Verdict},
	}
}

// tableRows returns the paired table's header and a row per statistic.
func (p *Paired) tableRows() (head []string, rows [][]string) {
	cols := pairedColumns()
	head = []string{"policy", "metric"}
	for _, c := range cols {
		head = append(head, c.head)
	}
	for _, s := range p.Stats {
		row := []string{s.Policy, s.Metric.Label()}
		for _, c := range cols {
			row = append(row, c.cell(s))
		}
		rows = append(rows, row)
	}
	return head, rows
}

// headline says what the table compares and how.
func (p *Paired) headline() string {
	return fmt.Sprintf("paired against %s on %s: policy − baseline on each seed's identical workload, %d seeds; mean and 95 %% %s",
		p.Baseline, p.Label, len(p.Seeds), p.Method.describe())
}

const pairedNote = "wins, losses, ties: seeds where the policy did better than, worse than, the same as the baseline; " +
	"÷ unpaired: the paired t-interval's width over Welch's interval of the two samples taken as independent"

// WriteText writes the paired table: its headline, a row per policy and
// metric, and what the columns mean.
func (p *Paired) WriteText(w io.Writer) error {
	fmt.Fprintln(w, p.headline())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head, rows := p.tableRows()
	for _, r := range append([][]string{head}, rows...) {
		// The verdict is text: left-aligned after the last tab stop.
		fmt.Fprintln(tw, strings.Join(r[:len(r)-1], "\t")+"\t  "+r[len(r)-1])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, pairedNote)
	return err
}

// SweepPaired is a paired comparison at every point of a sweep: the
// uncertainty of each point's differences.
type SweepPaired struct {
	XLabel string
	XName  string
	X      []float64
	Points []*Paired
}

// Paired compares policies with a baseline at every point of the sweep.
func (s *SweepResult) Paired(o PairedOptions) (*SweepPaired, error) {
	out := &SweepPaired{XLabel: s.XLabel, XName: s.XName}
	for i, c := range s.Comparisons {
		p, err := c.Paired(o)
		if err != nil {
			return nil, err
		}
		p.Label = s.Points[i].Label
		out.X = append(out.X, s.Points[i].X)
		out.Points = append(out.Points, p)
	}
	return out, nil
}

// Records flattens every point's statistics, the point's x value first.
func (p *SweepPaired) Records() [][]engine.Field {
	var out [][]engine.Field
	for i, pt := range p.Points {
		for _, rec := range pt.Records() {
			out = append(out, append([]engine.Field{{Name: p.XName, Value: p.X[i]}}, rec...))
		}
	}
	return out
}

// WriteCSV writes one row per point, policy and metric.
func (p *SweepPaired) WriteCSV(w io.Writer) error { return record.WriteCSV(w, p.Records()) }

// WriteText writes each point's paired table.
func (p *SweepPaired) WriteText(w io.Writer) error {
	for _, pt := range p.Points {
		if err := pt.WriteText(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}
