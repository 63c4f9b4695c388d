// Package sheet renders a value's display: a titled list of labelled
// values, then grids, then a note, as text or as HTML from the one
// description, so the two cannot disagree; and the small formatters the
// displays share (an em dash for an undefined number, cut lists, seeds).
// engine's and experiment's String and HTML methods are built on it.
package sheet

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// MaxShown bounds the rows of a grid and the items of a list in a display.
const MaxShown = 20

// Sheet is a titled list of labelled values, then grids, then a note.
type Sheet struct {
	Title string
	Rows  []Row
	Grids []Grid
	Note  string
}

// Row is a labelled value.
type Row struct{ Label, Value string }

// Grid is a table with a header; Total counts its rows before cutting.
type Grid struct {
	Head  []string
	Rows  [][]string
	Total int
	What  string // what a row is, plural: "replicas", "runs"
}

// Add appends a labelled row.
func (s *Sheet) Add(label, value string) { s.Rows = append(s.Rows, Row{label, value}) }

// AddGrid appends a grid of n rows, cut to MaxShown; cell(i) is row i.
func (s *Sheet) AddGrid(what string, head []string, n int, cell func(i int) []string) {
	g := Grid{Head: head, Total: n, What: what}
	for i := range min(n, MaxShown) {
		g.Rows = append(g.Rows, cell(i))
	}
	s.Grids = append(s.Grids, g)
}

// More says how many rows a cut grid leaves out.
func (g Grid) More() string {
	if g.Total <= len(g.Rows) {
		return ""
	}
	return fmt.Sprintf("… %d more %s (%d in all)", g.Total-len(g.Rows), g.What, g.Total)
}

func (s Sheet) Text() string {
	var b strings.Builder
	b.WriteString(s.Title + "\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range s.Rows {
		fmt.Fprintf(tw, "  %s\t%s\n", r.Label, r.Value)
	}
	tw.Flush()
	for _, g := range s.Grids {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, r := range append([][]string{g.Head}, g.Rows...) {
			fmt.Fprintf(tw, "%s\t\n", strings.Join(r, "\t"))
		}
		tw.Flush()
		if m := g.More(); m != "" {
			b.WriteString(m + "\n")
		}
	}
	if s.Note != "" {
		b.WriteString(s.Note + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Inline styles, because a notebook output carries no stylesheet; the
// colours are translucent so the table reads on light and dark pages.
const (
	sheetStyle = `font:13px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;font-variant-numeric:tabular-nums;margin:0.5em 0;`
	tableStyle = `border-collapse:collapse;margin:0.3em 0;`
	cellStyle  = `padding:0.2em 0.75em;white-space:nowrap;`
	thStyle    = cellStyle + `font-weight:600;border-bottom:1px solid rgba(128,128,128,0.5);`
	tdStyle    = cellStyle + `border-bottom:1px solid rgba(128,128,128,0.2);`
	noteStyle  = `font-size:12px;opacity:0.75;margin:0.2em 0;`
)

func (s Sheet) HTML() string {
	var b strings.Builder
	b.WriteString(`<div class="routelab-value" style="` + sheetStyle + `">`)
	b.WriteString(`<div style="font-weight:600;">` + html.EscapeString(s.Title) + `</div>`)
	if len(s.Rows) > 0 {
		b.WriteString(`<table style="` + tableStyle + `">`)
		for _, r := range s.Rows {
			fmt.Fprintf(&b, `<tr><th style="%stext-align:left;">%s</th><td style="%s">%s</td></tr>`,
				thStyle, html.EscapeString(r.Label), tdStyle, html.EscapeString(r.Value))
		}
		b.WriteString(`</table>`)
	}
	for _, g := range s.Grids {
		g.writeHTML(&b)
	}
	if s.Note != "" {
		b.WriteString(`<p style="` + noteStyle + `">` + html.EscapeString(s.Note) + `</p>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

func (g Grid) writeHTML(b *strings.Builder) {
	b.WriteString(`<table style="` + tableStyle + `"><thead><tr>`)
	for _, h := range g.Head {
		fmt.Fprintf(b, `<th style="%stext-align:right;">%s</th>`, thStyle, html.EscapeString(h))
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, r := range g.Rows {
		b.WriteString(`<tr>`)
		for _, c := range r {
			fmt.Fprintf(b, `<td style="%stext-align:right;">%s</td>`, tdStyle, html.EscapeString(c))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	if m := g.More(); m != "" {
		b.WriteString(`<p style="` + noteStyle + `">` + html.EscapeString(m) + `</p>`)
	}
}

// CutList joins at most MaxShown items, saying how many were left out.
func CutList(items []string, sep string) string {
	if len(items) <= MaxShown {
		return strings.Join(items, sep)
	}
	return strings.Join(items[:MaxShown], sep) + fmt.Sprintf("%s… (%d in all)", sep, len(items))
}

// Floats formats numbers with %g for CutList.
func Floats(xs []float64) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return out
}

// SeedsText describes a seed list: "1–10 (10 seeds)" when consecutive.
func SeedsText(seeds []uint64) string {
	switch len(seeds) {
	case 0:
		return "none"
	case 1:
		return fmt.Sprintf("seed %d", seeds[0])
	}
	consecutive := true
	for i := 1; i < len(seeds); i++ {
		consecutive = consecutive && seeds[i] == seeds[i-1]+1
	}
	if consecutive {
		return fmt.Sprintf("%d–%d (%d seeds)", seeds[0], seeds[len(seeds)-1], len(seeds))
	}
	items := make([]string, len(seeds))
	for i, s := range seeds {
		items[i] = strconv.FormatUint(s, 10)
	}
	return CutList(items, ", ") + fmt.Sprintf(" (%d seeds)", len(seeds))
}

// Millis formats a time or latency in ms, an em dash when undefined.
func Millis(x float64) string { return Dash("%.1f ms", x) }

// Percent formats a fraction as a percentage, an em dash when undefined.
func Percent(x float64) string { return Dash("%.2f%%", 100*x) }

// Seconds formats a time given in ms as seconds.
func Seconds(ms float64) string { return fmt.Sprintf("%g s", ms/1000) }

// YesNo says whether an optional part (a callback, a stream) is present.
func YesNo(present bool, yes, no string) string {
	if present {
		return yes
	}
	return no
}

// WorkersText describes a worker bound.
func WorkersText(n int) string {
	if n < 1 {
		return "one per CPU"
	}
	return strconv.Itoa(n)
}

// Dash formats x with the given verb, or an em dash when x is undefined.
func Dash(format string, x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf(format, x)
}
