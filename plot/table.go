package plot

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/internal/sheet"
)

// tableColumn is one column of ComparisonTable: a heading, its unit, how a
// summary shows in it, and which way is better (+1 higher, −1 lower, 0 no
// winner).
type tableColumn struct {
	head, unit string
	value      func(experiment.Summary) float64
	format     func(float64) string
	better     int
}

func fixed(d int) func(float64) string {
	return func(x float64) string { return sheet.Dash("%."+strconv.Itoa(d)+"f", x) }
}

func percent(x float64) string { return sheet.Dash("%.2f%%", 100*x) }

// tableColumns lists the columns after "policy" and "runs"; the p99 range
// goes before the fourth.
func tableColumns() []tableColumn {
	return []tableColumn{
		{"p50", "ms", func(s experiment.Summary) float64 { return s.MedianP50 }, fixed(1), -1},
		{"p90", "ms", func(s experiment.Summary) float64 { return s.MedianP90 }, fixed(1), -1},
		{"p99", "ms", func(s experiment.Summary) float64 { return s.MedianP99 }, fixed(1), -1},
		{"SLO miss", "", func(s experiment.Summary) float64 { return s.MedianSLOMissRate }, percent, -1},
		{"shed", "req", func(s experiment.Summary) float64 { return s.MedianShed }, fixed(0), -1},
		{"unfinished", "req", func(s experiment.Summary) float64 { return s.MedianUnfinished }, fixed(0), -1},
		{"attainment", "", func(s experiment.Summary) float64 { return s.MedianAttainment }, percent, +1},
		{"goodput", "req/s", func(s experiment.Summary) float64 { return s.MedianGoodput }, fixed(1), +1},
		{"throughput", "req/s", func(s experiment.Summary) float64 { return s.MedianThroughput }, fixed(1), 0},
	}
}

const (
	cellStyle = `padding:0.3em 0.75em;text-align:right;white-space:nowrap;border-bottom:1px solid rgba(128,128,128,0.25);`
	headStyle = `padding:0.3em 0.75em;text-align:right;white-space:nowrap;font-weight:600;border-bottom:1px solid rgba(128,128,128,0.7);vertical-align:bottom;`
	bestStyle = `font-weight:700;`
)

// ComparisonTable returns a comparison's per-policy summaries as an HTML
// table (text/html) to show beside its figures: medians across seeds, the
// observed p99 range, each policy's palette colour, the best value of each
// column in bold, and an em dash for every undefined value. Policy and
// scenario names are escaped.
func ComparisonTable(c *experiment.Comparison) string {
	if c == nil {
		return "<p>no comparison</p>"
	}
	pal := DefaultPalette()
	var b strings.Builder
	b.WriteString(`<table class="routelab-table" style="border-collapse:collapse;margin:0.5em 0;font:13px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;font-variant-numeric:tabular-nums;">` + "\n")
	fmt.Fprintf(&b, `<caption style="caption-side:top;text-align:left;padding:0 0 0.45em;"><span style="font-weight:600;">%s</span> — %s</caption>`+"\n",
		html.EscapeString(c.Scenario.Name), html.EscapeString(setupLine(c)))
	b.WriteString(`<thead><tr><th style="` + headStyle + `text-align:left;">policy</th><th style="` + headStyle + `">runs</th>`)
	cols := tableColumns()
	for i, col := range cols {
		if i == 3 {
			b.WriteString(`<th style="` + headStyle + `">p99 range<br/>ms</th>`)
		}
		unit := ""
		if col.unit != "" {
			unit = "<br/>" + col.unit
		}
		fmt.Fprintf(&b, `<th style="%s">%s%s</th>`, headStyle, col.head, unit)
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	best := bestValues(c, cols)
	colors := pal.colors(policyNames(c))
	for pi, p := range c.Policies {
		s := p.Summary
		fmt.Fprintf(&b, `<tr><td style="%stext-align:left;"><span style="display:inline-block;width:0.75em;height:0.75em;border-radius:2px;margin-right:0.45em;vertical-align:-0.05em;background:%s;"></span>%s</td>`,
			cellStyle, colors[pi], html.EscapeString(p.Name))
		runs := strconv.Itoa(s.Runs)
		if s.LatencyRuns < s.Runs {
			runs = fmt.Sprintf("%d (%d with latency)", s.Runs, s.LatencyRuns)
		}
		fmt.Fprintf(&b, `<td style="%s">%s</td>`, cellStyle, runs)
		for i, col := range cols {
			if i == 3 {
				fmt.Fprintf(&b, `<td style="%s">%s</td>`, cellStyle, p99Range(s))
			}
			v, style := col.value(s), cellStyle
			if col.better != 0 && defined(v) && v == best[i] && len(c.Policies) > 1 {
				style += bestStyle
			}
			fmt.Fprintf(&b, `<td style="%s">%s</td>`, style, col.format(v))
		}
		b.WriteString("</tr>\n")
	}
	fmt.Fprintf(&b, `</tbody>`+"\n"+`<tfoot><tr><td colspan="%d" style="padding:0.45em 0.75em 0;font-size:12px;opacity:0.75;text-align:left;">`+
		`Medians across %d seeds; bold: best in its column. The p99 range is the observed min–max across seeds, not a confidence interval. `+
		`— : undefined (no completed cohort request).</td></tr></tfoot>`+"\n</table>", len(cols)+3, len(c.Seeds))
	return b.String()
}

func p99Range(s experiment.Summary) string {
	if !defined(s.P99Min) {
		return "—"
	}
	return fmt.Sprintf("%.1f–%.1f", s.P99Min, s.P99Max)
}

// bestValues is each column's best defined value: NaN where there is none,
// or where every policy has it (nothing stands out).
func bestValues(c *experiment.Comparison, cols []tableColumn) []float64 {
	best := make([]float64, len(cols))
	for i, col := range cols {
		best[i] = math.NaN()
		all := true
		for _, p := range c.Policies {
			v := col.value(p.Summary)
			if defined(v) && (!defined(best[i]) || float64(col.better)*(v-best[i]) > 0) {
				best[i] = v
			}
		}
		for _, p := range c.Policies {
			all = all && col.value(p.Summary) == best[i]
		}
		if all {
			best[i] = math.NaN()
		}
	}
	return best
}
