package plot

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/routelab/routelab/experiment"
)

// tableColumns lists the columns of a comparison's table after "policy"
// and "runs": experiment.SummaryColumns, the serving model's for a serving
// comparison.
func tableColumns(c *experiment.Comparison) []experiment.Column {
	return experiment.SummaryColumns(c.Scenario.Serving != nil)
}

const (
	cellStyle = `padding:0.3em 0.5em;text-align:right;white-space:nowrap;border-bottom:1px solid rgba(128,128,128,0.25);`
	headStyle = `padding:0.3em 0.5em;text-align:right;white-space:nowrap;font-weight:600;border-bottom:1px solid rgba(128,128,128,0.7);vertical-align:bottom;`
	bestStyle = `font-weight:700;`
)

// ComparisonTable returns a comparison's per-policy summaries as an HTML
// table (text/html) to show beside its figures — two tables one above the
// other when the columns are too many for a notebook's width — in the columns of
// experiment.SummaryColumns (the serving model's for a serving
// comparison): medians across seeds, the
// observed p99 range, each policy's palette colour, the best value of each
// column in bold, and an em dash for every undefined value. Policy and
// scenario names are escaped.
func ComparisonTable(c *experiment.Comparison) string {
	if c == nil {
		return "<p>no comparison</p>"
	}
	cols := tableColumns(c)
	groups := columnGroups(cols)
	best := bestValues(c, cols)
	colors := DefaultPalette().colors(policyNames(c))
	var b strings.Builder
	// A wide table scrolls inside its output rather than being cut off at
	// the notebook's edge.
	b.WriteString(`<div class="routelab-table-wrap" style="overflow-x:auto;max-width:100%;">`)
	undefined := false
	first := 0
	for gi, n := range groups {
		b.WriteString(`<table class="routelab-table" style="border-collapse:collapse;margin:0.5em 0;font:13px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;font-variant-numeric:tabular-nums;">` + "\n")
		if gi == 0 {
			fmt.Fprintf(&b, `<caption style="caption-side:top;text-align:left;padding:0 0 0.45em;"><span style="font-weight:600;">%s</span> — %s</caption>`+"\n",
				html.EscapeString(c.Scenario.Name), html.EscapeString(setupLine(c)))
		}
		undefined = writeTableGroup(&b, c, cols[first:first+n], best[first:first+n], colors, gi == 0) || undefined
		first += n
		if gi < len(groups)-1 {
			b.WriteString("</tbody></table>\n")
		}
	}
	note := ""
	if undefined {
		note = " — : undefined (no completed cohort request)."
	}
	span := groups[len(groups)-1] + 1
	if len(groups) == 1 {
		span++
	}
	fmt.Fprintf(&b, `</tbody>`+"\n"+`<tfoot><tr><td colspan="%d" style="padding:0.45em 0.5em 0;font-size:12px;opacity:0.75;text-align:left;white-space:normal;">`+
		`Medians across %d seeds; bold: best in its column. The p99 range is the observed min–max across seeds, not a confidence interval.%s</td></tr></tfoot>`+"\n</table></div>", span, len(c.Seeds), note)
	return b.String()
}

// tableGroupMax is the most metric columns one table shows: a serving
// comparison's thirteen would scroll in a notebook 1000 px wide, so they
// are shown as two tables, one above the other, each with the policies.
const tableGroupMax = 10

// columnGroups splits columns into the tables that show them: all in one
// when they fit, else the leading latency columns (ms) and the rest.
func columnGroups(cols []experiment.Column) []int {
	if len(cols) <= tableGroupMax {
		return []int{len(cols)}
	}
	cut := len(cols) / 2
	for i := 3; i < len(cols)-3; i++ {
		if cols[i].Unit != "ms" {
			cut = i
			break
		}
	}
	return []int{cut, len(cols) - cut}
}

// writeTableGroup writes one table's head and rows, the runs column in the
// first; it reports whether a cell was undefined.
func writeTableGroup(b *strings.Builder, c *experiment.Comparison, cols []experiment.Column, best []float64, colors []string, runsColumn bool) bool {
	b.WriteString(`<thead><tr><th style="` + headStyle + `text-align:left;">policy</th>`)
	if runsColumn {
		b.WriteString(`<th style="` + headStyle + `">runs</th>`)
	}
	for _, col := range cols {
		// The unit under the name, and a long or unitless name broken
		// after its first word, to keep a wide table narrow.
		head := col.Head
		switch {
		case col.Unit == "":
			head = strings.Replace(head, " ", "<br/>", 1)
		case len(head) > 12:
			head = strings.Replace(head, " ", "<br/>", 1) + "<br/>" + col.Unit
		default:
			head += "<br/>" + col.Unit
		}
		fmt.Fprintf(b, `<th style="%s">%s</th>`, headStyle, head)
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	undefined := false
	for pi, p := range c.Policies {
		s := p.Summary
		fmt.Fprintf(b, `<tr><td style="%stext-align:left;"><span style="display:inline-block;width:0.75em;height:0.75em;border-radius:2px;margin-right:0.45em;vertical-align:-0.05em;background:%s;"></span>%s</td>`,
			cellStyle, colors[pi], html.EscapeString(p.Name))
		if runsColumn {
			runs := strconv.Itoa(s.Runs)
			if s.LatencyRuns < s.Runs {
				runs = fmt.Sprintf("%d (%d with latency)", s.Runs, s.LatencyRuns)
			}
			fmt.Fprintf(b, `<td style="%s">%s</td>`, cellStyle, runs)
		}
		for i, col := range cols {
			style := cellStyle
			if isBest(c, col, s, best[i]) {
				style += bestStyle
			}
			cell := col.Cell(s)
			undefined = undefined || strings.Contains(cell, "—")
			fmt.Fprintf(b, `<td style="%s">%s</td>`, style, cell)
		}
		b.WriteString("</tr>\n")
	}
	return undefined
}

// isBest tells whether a summary's value is the best of its column, to
// show in bold.
func isBest(c *experiment.Comparison, col experiment.Column, s experiment.Summary, best float64) bool {
	v := col.Value(s)
	return col.Better != 0 && defined(v) && v == best && len(c.Policies) > 1
}

// bestValues is each column's best defined value: NaN where there is none,
// or where every policy has it (nothing stands out).
func bestValues(c *experiment.Comparison, cols []experiment.Column) []float64 {
	best := make([]float64, len(cols))
	for i, col := range cols {
		best[i] = math.NaN()
		all := true
		for _, p := range c.Policies {
			v := col.Value(p.Summary)
			if defined(v) && (!defined(best[i]) || float64(col.Better)*(v-best[i]) > 0) {
				best[i] = v
			}
		}
		for _, p := range c.Policies {
			all = all && col.Value(p.Summary) == best[i]
		}
		if all {
			best[i] = math.NaN()
		}
	}
	return best
}
