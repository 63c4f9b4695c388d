package engine

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// How engine values show themselves to people. Exported types have a String
// method and, where they are a configuration or a result, an HTML method too:
// a notebook finds both by name (the display package's duck-typed contract),
// so the engine imports nothing for it. The longer forms are built from one
// sheet per type, rendered as text or as HTML, so the two cannot disagree.
// Lists are cut to maxShown entries: no value shows thousands of bare
// numbers, whatever the number of replicas, samples or runs behind it.

// maxShown bounds the rows of a grid and the items of a list in a display.
const maxShown = 20

// sheet is a titled list of labelled values, then grids, then a note.
type sheet struct {
	title string
	rows  []row
	grids []grid
	note  string
}

type row struct{ label, value string }

// grid is a table with a header; total counts its rows before cutting.
type grid struct {
	head  []string
	rows  [][]string
	total int
	what  string // what a row is, plural: "replicas", "runs"
}

// add appends a labelled row.
func (s *sheet) add(label, value string) { s.rows = append(s.rows, row{label, value}) }

// addGrid appends a grid of n rows, cut to maxShown; cell(i) is row i.
func (s *sheet) addGrid(what string, head []string, n int, cell func(i int) []string) {
	g := grid{head: head, total: n, what: what}
	for i := range min(n, maxShown) {
		g.rows = append(g.rows, cell(i))
	}
	s.grids = append(s.grids, g)
}

// more says how many rows a cut grid leaves out.
func (g grid) more() string {
	if g.total <= len(g.rows) {
		return ""
	}
	return fmt.Sprintf("… %d more %s (%d in all)", g.total-len(g.rows), g.what, g.total)
}

func (s sheet) text() string {
	var b strings.Builder
	b.WriteString(s.title + "\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range s.rows {
		fmt.Fprintf(tw, "  %s\t%s\n", r.label, r.value)
	}
	tw.Flush()
	for _, g := range s.grids {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, r := range append([][]string{g.head}, g.rows...) {
			fmt.Fprintf(tw, "%s\t\n", strings.Join(r, "\t"))
		}
		tw.Flush()
		if m := g.more(); m != "" {
			b.WriteString(m + "\n")
		}
	}
	if s.note != "" {
		b.WriteString(s.note + "\n")
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

func (s sheet) html() string {
	var b strings.Builder
	b.WriteString(`<div class="routelab-value" style="` + sheetStyle + `">`)
	b.WriteString(`<div style="font-weight:600;">` + html.EscapeString(s.title) + `</div>`)
	if len(s.rows) > 0 {
		b.WriteString(`<table style="` + tableStyle + `">`)
		for _, r := range s.rows {
			fmt.Fprintf(&b, `<tr><th style="%stext-align:left;">%s</th><td style="%s">%s</td></tr>`,
				thStyle, html.EscapeString(r.label), tdStyle, html.EscapeString(r.value))
		}
		b.WriteString(`</table>`)
	}
	for _, g := range s.grids {
		g.writeHTML(&b)
	}
	if s.note != "" {
		b.WriteString(`<p style="` + noteStyle + `">` + html.EscapeString(s.note) + `</p>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

func (g grid) writeHTML(b *strings.Builder) {
	b.WriteString(`<table style="` + tableStyle + `"><thead><tr>`)
	for _, h := range g.head {
		fmt.Fprintf(b, `<th style="%stext-align:right;">%s</th>`, thStyle, html.EscapeString(h))
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, r := range g.rows {
		b.WriteString(`<tr>`)
		for _, c := range r {
			fmt.Fprintf(b, `<td style="%stext-align:right;">%s</td>`, tdStyle, html.EscapeString(c))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	if m := g.more(); m != "" {
		b.WriteString(`<p style="` + noteStyle + `">` + html.EscapeString(m) + `</p>`)
	}
}

// cutList joins at most maxShown items, saying how many were left out.
func cutList(items []string, sep string) string {
	if len(items) <= maxShown {
		return strings.Join(items, sep)
	}
	return strings.Join(items[:maxShown], sep) + fmt.Sprintf("%s… (%d in all)", sep, len(items))
}

// floats formats numbers with %g for cutList.
func floats(xs []float64) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return out
}

// seedsText describes a seed list: "1–10 (10 seeds)" when consecutive.
func seedsText(seeds []uint64) string {
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
	return cutList(items, ", ") + fmt.Sprintf(" (%d seeds)", len(seeds))
}

// millis formats a time or latency in ms, an em dash when undefined.
func millis(x float64) string { return Dash("%.1f ms", x) }

// percent formats a fraction as a percentage, an em dash when undefined.
func percent(x float64) string { return Dash("%.2f%%", 100*x) }

// seconds formats a time given in ms as seconds.
func seconds(ms float64) string { return fmt.Sprintf("%g s", ms/1000) }

// yesNo says whether an optional part (a callback, a stream) is present.
func yesNo(present bool, yes, no string) string {
	if present {
		return yes
	}
	return no
}

// workersText describes a worker bound.
func workersText(n int) string {
	if n < 1 {
		return "one per CPU"
	}
	return strconv.Itoa(n)
}

// fieldValue formats a record's value for people, by the unit its
// snake_case name carries; the records themselves keep full precision.
func fieldValue(f Field) string {
	x, ok := f.Value.(float64)
	if !ok {
		return fmt.Sprint(f.Value)
	}
	switch {
	case math.IsNaN(x):
		return "—"
	case strings.HasSuffix(f.Name, "_rate"), strings.HasSuffix(f.Name, "attainment"):
		return percent(x)
	case strings.HasSuffix(f.Name, "_ms"), strings.HasSuffix(f.Name, "_rps"):
		return fmt.Sprintf("%.1f", x)
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// addFields appends a record's fields as rows, leaving out the named ones.
func (s *sheet) addFields(rec []Field, skip ...string) {
	for _, f := range rec {
		if !slices.Contains(skip, f.Name) {
			s.add(f.Name, fieldValue(f))
		}
	}
}
