package plot

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// A figure is laid out in Go, from the top down, from measured text
// (textmetrics.go): each heading, legend row, panel title and label gets
// the room its text needs at the width the layout is for, so nothing
// depends on a browser and the same figure gives the same bytes. The
// interactive option (HTML) is laid out for the narrower of the export
// width and minHTMLWidth, with horizontal positions as fractions of the
// width where they must stretch, so it holds at any wider container too;
// the static option (exports) is laid out for the export width.

const (
	// minHTMLWidth is the narrowest container an interactive figure is laid
	// out for: a notebook column is rarely narrower.
	minHTMLWidth = 640
	// edge is the margin around the figure's content.
	edge = 12.0
	// toolboxRoom is what the interactive toolbox takes at the top right.
	toolboxRoom = 96.0
	// gap is the space between stacked blocks.
	gap = 8.0
)

// layout is one figure being laid out: its canvas, the width and height it
// is laid out for, whether it is the static (export) variant, and y, the top
// of the space not used yet.
type layout struct {
	*canvas
	w, h    float64
	static  bool
	y       float64
	caption string // the title block as a paragraph
	titles  []any
	rows    []any // legend rows
}

// heading places the title (wrapped to the width, clear of the toolbox) and
// the subtitle's lines under it.
func (l *layout) heading(title, subtitle string) {
	if l.s.title != "" {
		title = l.s.title
	}
	l.caption = captionOf(title, subtitle)
	if l.s.paper {
		// On paper the title block is the caption, under the figure.
		l.y = edge
		return
	}
	room := l.w - 2*edge
	titleRoom := room
	if !l.static {
		titleRoom -= toolboxRoom
	}
	l.y = 8
	l.block(fontTitle.wrap(title, titleRoom), fontTitle, edge, "")
	if subtitle != "" {
		l.y += 2
		l.block(fontText.wrap(subtitle, room), fontText, edge, "")
	}
	l.y += gap
}

// captionOf joins a title and its subtitle's lines into sentences.
func captionOf(title, subtitle string) string {
	parts := []string{strings.TrimSuffix(title, ".")}
	for _, line := range strings.Split(subtitle, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, strings.TrimSuffix(line, "."))
		}
	}
	return strings.Join(parts, ". ") + "."
}

// block places lines of text at (x, l.y) and moves l.y below them; a
// non-empty color overrides the theme's.
func (l *layout) block(lines []string, f font, x float64, color string) {
	l.text(lines, f, x, l.y, color)
	l.y += float64(len(lines)) * f.lineHeight()
}

// text places lines of text with their top left corner at (x, y), x as a
// fraction of the width so that the text keeps to the grid it labels.
func (l *layout) text(lines []string, f font, x, y float64, color string) {
	style := map[string]any{"fontSize": f.size, "lineHeight": f.lineHeight(), "fontWeight": "normal"}
	if f.bold {
		style["fontWeight"] = "bold"
	}
	if color != "" {
		style["color"] = color
	}
	l.titles = append(l.titles, map[string]any{"text": strings.Join(lines, "\n"), "left": fraction(x, l.w), "top": round(y, 1),
		"padding": 0, "itemGap": 0, "textStyle": style})
	l.raw["title"] = l.titles
}

// legendEntry is one name in a legend and the icon drawn for it ("" for
// the series' own: a line with its marker for line series).
type legendEntry struct {
	name string
	text string // what the legend shows, "" for the name
	icon string
	fill string // icon colour, "" for the series' own
}

// Legend items: an icon, 5 px (ECharts' fixed gap), the text; items are
// itemGap apart.
const (
	legendIconW = 24.0
	legendIconH = 12.0
	legendGap   = 14.0
)

// legend places the entries in rows no wider than width from x, one
// ECharts legend per row, so the rows are exactly those measured here
// whatever the container's width; names too long for a row wrap.
func (l *layout) legend(entries []legendEntry, x, width float64) {
	textRoom := width - legendIconW - 5
	wrapped := map[string]string{}
	var row []any
	var rowW, rowH float64
	flush := func() {
		if len(row) > 0 {
			l.rows = append(l.rows, l.legendRow(row, x, wrapped))
			l.y += rowH + 6
		}
		row, rowW, rowH = nil, 0, 0
	}
	for _, e := range entries {
		text := e.text
		if text == "" {
			text = e.name
		}
		lines := fontText.wrap(text, textRoom)
		if shown := strings.Join(lines, "\n"); shown != e.name {
			wrapped[e.name] = shown
		}
		w := legendIconW + 5 + fontText.widest(lines)
		if len(row) > 0 && rowW+legendGap+w > width {
			flush()
		}
		if len(row) > 0 {
			rowW += legendGap
		}
		rowW += w
		rowH = max(rowH, legendIconH, float64(len(lines))*fontText.lineHeight())
		row = append(row, l.legendItem(e))
	}
	flush()
	l.raw["legend"] = l.rows
}

func (l *layout) legendItem(e legendEntry) map[string]any {
	item := map[string]any{"name": e.name}
	if e.icon != "" {
		item["icon"] = e.icon
	}
	if e.fill != "" {
		item["itemStyle"] = map[string]any{"color": e.fill, "opacity": 1}
	}
	return item
}

// legendRow is one row of a legend; entries whose text is not their name
// (or that wrap) are written through a formatter holding their text.
func (l *layout) legendRow(items []any, x float64, wrapped map[string]string) map[string]any {
	row := map[string]any{"show": true, "type": "plain", "data": items, "left": fraction(x, l.w), "top": round(l.y, 1),
		"padding": 0, "itemGap": legendGap, "itemWidth": legendIconW, "itemHeight": legendIconH,
		"textStyle": map[string]any{"fontSize": fontText.size, "lineHeight": fontText.lineHeight()}}
	if len(wrapped) > 0 {
		table, _ := json.Marshal(wrapped)
		row["formatter"] = code(fmt.Sprintf(`function (name) { var w = %s; return w[name] || name; }`, table))
	}
	return row
}

// fraction writes px at width w as a percentage, so the position stretches
// with the container.
func fraction(px, w float64) string {
	return fmt.Sprintf("%.2f%%", 100*px/w)
}

// placed is a text drawn at a data position (x, y) of a grid, shifted by
// (dx, dy) px; with top, its vertical position is the grid's top edge plus
// dy instead (y must still be a value of the axis).
type placed struct {
	x, y   float64
	top    bool
	dx, dy float64
	lines  []string
	font   font
	align  string // left, center, right
	color  string
}

// labelsRender draws each placed text of a custom series; the texts sit in
// the function, whose data are only their positions.
const labelsRender = `(function () {
  var L = %s;
  return function (params, api) {
    var l = L[params.dataIndex], p = api.coord([l.x, l.y]);
    var y = l.top ? params.coordSys.y : p[1];
    return {type: "text", silent: true, x: p[0] + l.dx, y: y + l.dy, style: {
      text: l.text, align: l.align, verticalAlign: "top", fill: l.color,
      font: (l.bold ? "bold " : "") + l.size + "px sans-serif", lineHeight: l.lineHeight}};
  };
})()`

// labels adds a custom series drawing texts on grid; they are never
// clipped to the grid.
func (l *layout) labels(grid int, texts []placed) {
	if len(texts) == 0 {
		return
	}
	var specs, data []any
	for _, t := range texts {
		specs = append(specs, map[string]any{"x": t.x, "y": t.y, "top": t.top, "dx": round(t.dx, 1), "dy": round(t.dy, 1),
			"text": strings.Join(t.lines, "\n"), "align": t.align, "color": t.color, "bold": t.font.bold,
			"size": t.font.size, "lineHeight": t.font.lineHeight()})
		data = append(data, []any{t.x, t.y})
	}
	js, _ := json.Marshal(specs)
	// Custom series are not clipped to their grid unless told.
	l.add(charts.SingleSeries{Type: "custom", XAxisIndex: grid, YAxisIndex: grid, Data: data,
		RenderItem: opts.FuncOpts(fmt.Sprintf(labelsRender, js)), Encode: &opts.Encode{X: []int{0}, Y: []int{1}}})
}

// span is the horizontal extent of a text placed at x with an alignment.
func span(x, w float64, align string) (float64, float64) {
	switch align {
	case "right":
		return x - w, x
	case "center":
		return x - w/2, x + w/2
	}
	return x, x + w
}

// rowsFor assigns each interval [lo, hi) a row so that no two intervals of a
// row overlap (with pad between them), taking the lowest free row: the
// rows of staggered labels. It returns each interval's row and the count.
func rowsFor(lo, hi []float64, pad float64) ([]int, int) {
	var ends []float64 // right end of the last interval of each row
	rows := make([]int, len(lo))
	for i := range lo {
		r := 0
		for r < len(ends) && ends[r]+pad > lo[i] {
			r++
		}
		if r == len(ends) {
			ends = append(ends, math.Inf(-1))
		}
		ends[r] = hi[i]
		rows[i] = r
	}
	return rows, len(ends)
}

// gridAt is a grid at (left, top) of width × height px in a layout of
// width w: horizontal positions as fractions of w (they stretch with the
// container), vertical ones in px (the height is fixed).
func gridAt(left, top, width, height, w float64) opts.Grid {
	return opts.Grid{Left: fraction(left, w), Width: fraction(width, w),
		Top: strconv.FormatFloat(round(top, 1), 'f', -1, 64), Height: strconv.FormatFloat(round(height, 1), 'f', -1, 64)}
}

// yGutter is the room left of a grid for a y axis: its tick labels, 8 px
// from the axis, and its rotated name one line wide, 6 px beyond.
func yGutter(t ticks) float64 { return t.widest() + 8 + 6 + fontText.lineHeight() }

// yNameGap places a y axis' name just left of its tick labels.
func yNameGap(t ticks) float64 { return t.widest() + 8 + 6 }

// xFooter is the room under a grid for an x axis: tick labels 8 px from
// the axis, then nameLines lines of its name 4 px below them.
func xFooter(nameLines int) float64 {
	h := 8 + fontText.lineHeight()
	if nameLines > 0 {
		h += 4 + float64(nameLines)*fontText.lineHeight()
	}
	return h
}

// xNameGap places an x axis' name under its tick labels.
func xNameGap() float64 { return 8 + fontText.lineHeight() + 4 }

// fitX is a horizontal axis from left to the figure's right edge: its
// ticks (ticksFor a plot width) and the plot's width, leaving room right of
// the plot for half the last tick label, which is centred on the plot's
// end.
func fitX(w, left float64, ticksFor func(pw float64) ticks) (ticks, float64) {
	pw := w - left - edge
	t := ticksFor(pw)
	for range 3 {
		next := w - left - math.Max(edge, t.last()/2+2)
		if next == pw {
			break
		}
		pw = next
		t = ticksFor(pw)
	}
	return t, pw
}

// anchor aligns a label of width w at px (from the plot's left end) so that
// it stays within [lo, hi]: centred where it can be, else against the side
// it would pass.
func anchor(px, w, lo, hi float64) string {
	switch {
	case px+w/2 > hi:
		return "right"
	case px-w/2 < lo:
		return "left"
	}
	return "center"
}
