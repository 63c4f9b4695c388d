package plot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// This file holds what the figure builders (Comparison, LatencyCDF,
// Timeline, RateSweep, StudyHeatmap, Paired) share: the canvas they draw
// on, how a figure is built in its two layouts (layout.go), content ids,
// tooltips and formatting; their options are in figureopts.go.
//
// Each builder makes a go-echarts chart for its series and the components
// go-echarts models correctly (title, legend, toolbox, zooms, grids), and
// writes the components go-echarts 2.6.7 cannot express (several titles,
// several axes with hidden labels, custom series, per-item data) as plain
// ECharts option values through go-echarts' configuration visitor, the
// library's own hook for options it lacks.

// canvas is a chart being built: the go-echarts chart, the raw components
// the visitor writes over the chart's own, the builder's settings and the
// styles of the figure's names.
type canvas struct {
	chart  Chart
	rect   *charts.RectChart
	raw    map[string]any
	extra  map[int]map[string]any // series fields go-echarts lacks, by index
	s      settings
	styles map[string]style
}

// rawComponents is the go-echarts configuration visitor that writes raw
// option components into the chart's option, and fields go-echarts cannot
// express into its series.
type rawComponents struct {
	charts.BaseConfigurationVisitor
	set   map[string]any
	extra map[int]map[string]any
}

func (v rawComponents) Visit(option map[string]interface{}) {
	for k, x := range v.set {
		option[k] = x
	}
	if len(v.extra) == 0 {
		return
	}
	var series []map[string]any
	raw, err := json.Marshal(option["series"])
	if err == nil {
		err = json.Unmarshal(raw, &series)
	}
	if err != nil {
		return // chartTree reports the same marshalling error
	}
	for i, x := range v.extra {
		merge(series[i], x)
	}
	option["series"] = series
}

// merge copies src into dst, merging nested objects.
func merge(dst, src map[string]any) {
	for k, v := range src {
		if sub, ok := v.(map[string]any); ok {
			if d, ok := dst[k].(map[string]any); ok {
				merge(d, sub)
				continue
			}
		}
		dst[k] = v
	}
}

// chartKind makes the go-echarts chart a builder draws on.
type chartKind func() (Chart, *charts.RectChart)

func barChart() (Chart, *charts.RectChart) {
	c := charts.NewBar()
	return c, &c.RectChart
}

func lineChart() (Chart, *charts.RectChart) {
	c := charts.NewLine()
	return c, &c.RectChart
}

func heatMapChart() (Chart, *charts.RectChart) {
	c := charts.NewHeatMap()
	return c, &c.RectChart
}

// newCanvas starts a figure whose series are named by names, styled
// together (Palette.Styles).
func newCanvas(kind chartKind, s settings, names []string) (*canvas, error) {
	styles, err := s.palette.styles(names)
	if err != nil {
		return nil, err
	}
	chart, rect := kind()
	c := &canvas{chart: chart, rect: rect, raw: map[string]any{}, extra: map[int]map[string]any{}, s: s, styles: map[string]style{}}
	for i, st := range styles {
		c.styles[names[i]] = st
	}
	rect.Accept(rawComponents{set: c.raw, extra: c.extra})
	rect.SetGlobalOptions(charts.WithToolboxOpts(saveToolbox()))
	return c, nil
}

// style is name's style in this figure.
func (c *canvas) style(name string) style {
	if st, ok := c.styles[name]; ok {
		return st
	}
	return c.s.palette.style(name)
}

// color is name's colour (the same in every figure).
func (c *canvas) color(name string) string { return c.style(name).Color }

// add appends a series.
func (c *canvas) add(s charts.SingleSeries) { c.rect.MultiSeries = append(c.rect.MultiSeries, s) }

// addLine appends a line series drawn with a dash pattern (go-echarts
// writes lineStyle.type only as a string; ECharts takes an array).
func (c *canvas) addLine(s charts.SingleSeries, dash dash) {
	c.extra[len(c.rect.MultiSeries)] = map[string]any{"lineStyle": map[string]any{"type": dash.lineType()}}
	c.add(s)
}

// draw lays out one variant of a figure on l and returns the height it
// needs (l.h when the height is fixed).
type draw func(l *layout) (float64, error)

// figure is what a builder makes: its kind (the id's prefix), title, names
// styled together, chart kind and drawing.
type figure struct {
	kind, title string
	names       []string
	chart       chartKind
	draw        draw
}

// build lays the figure out twice — interactive for HTML at the narrower
// of its width and minHTMLWidth, static for exports at its width — and
// makes the Figure, with a content-derived id unless WithID gave one.
func (s settings) build(fg figure) (*Figure, error) {
	htmlW := math.Min(float64(s.width), minHTMLWidth)
	if s.paper {
		htmlW = float64(s.width) // a paper figure keeps its size on screen too
	}
	html, hh, _, err := s.variant(fg, htmlW, false)
	if err != nil {
		return nil, err
	}
	static, sh, caption, err := s.variant(fg, float64(s.width), true)
	if err != nil {
		return nil, err
	}
	id := s.id
	if id == "" {
		if id, err = contentID(fg.kind, html); err != nil {
			return nil, err
		}
	}
	title := fg.title
	if s.title != "" {
		title = s.title
	}
	f, err := withStatic(html, static, hh, Spec{ID: id, Title: title, Theme: s.theme, Width: s.width, Height: sh,
		Palette: s.palette, SVG: s.svg})
	if err != nil {
		return nil, err
	}
	f.caption = caption
	return f, nil
}

// variant draws one layout of the figure at width w; it returns the
// chart, its height and its caption (the title block).
func (s settings) variant(fg figure, w float64, static bool) (Chart, int, string, error) {
	cv, err := newCanvas(fg.chart, s, fg.names)
	if err != nil {
		return nil, 0, "", fmt.Errorf("%w (%s figure)", err, fg.kind)
	}
	l := &layout{canvas: cv, w: w, h: float64(s.height), static: static}
	need, err := fg.draw(l)
	if err != nil {
		return nil, 0, "", err
	}
	if s.height > 0 && need > float64(s.height)+0.5 {
		if s.paper {
			// Not every layout fits the paper height yet: such a figure
			// takes the height it needs rather than failing or clipping.
			s.height = 0
			return s.variant(fg, w, static)
		}
		return nil, 0, "", fmt.Errorf("plot: %s figure: height %d px is too small at width %d px: it needs at least %.0f px (or give no height: plot.WithWidth)",
			fg.kind, s.height, int(w), math.Ceil(need))
	}
	return l.chart, int(math.Ceil(max(need, float64(s.height)))), l.caption, nil
}

// contentID is kind plus a hash of the chart's option: the same data give
// the same id, different data (almost surely) different ids.
func contentID(kind string, chart Chart) (string, error) {
	chart.Validate()
	raw, err := json.Marshal(chart.JSON())
	if err != nil {
		return "", fmt.Errorf("plot: %s figure: %w", kind, err)
	}
	sum := sha256.Sum256(raw)
	return kind + "-" + hex.EncodeToString(sum[:5]), nil
}

// saveToolbox offers save-as-image and restore (zoom boxes live only on
// figures with a continuous x axis, through dataZoom).
func saveToolbox() opts.Toolbox {
	return opts.Toolbox{Show: opts.Bool(true), Right: "12", Feature: &opts.ToolBoxFeature{
		SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Title: "Save as PNG"},
		Restore:     &opts.ToolBoxFeatureRestore{Show: opts.Bool(true), Title: "Reset"},
	}}
}

// itemTooltip shows, for the item under the pointer, the series name and
// the item's "tip" text (written by the builder in Go), both escaped: user
// strings never become markup.
const itemTooltip = `function (p) {
  var esc = function (s) { return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
  var d = p.data || {};
  if (!d.tip) return "";
  return p.Marker + esc(p.seriesName) + "<br>" + esc(d.tip).replace(/\n/g, "<br>");
}`

// axisTooltip lists, for every series under an axis pointer that has a
// "tip" on its item, the series name and the tip.
const axisTooltip = `function (ps) {
  var esc = function (s) { return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
  var out = [];
  for (var i = 0; i < ps.length; i++) {
    var d = ps[i].data || {};
    if (d.tip) out.push(ps[i].Marker + esc(ps[i].seriesName) + ": " + esc(d.tip));
  }
  return out.join("<br>");
}`

func (c *canvas) tooltip(trigger, formatter string) {
	t := map[string]any{"show": true, "trigger": trigger, "confine": true, "formatter": code(formatter)}
	if trigger == "axis" {
		t["axisPointer"] = map[string]any{"type": "line"}
	}
	c.raw["tooltip"] = t
}

// item is a data item with a tooltip text.
func item(value []any, tip string) map[string]any {
	return map[string]any{"value": value, "tip": tip}
}

// round keeps d decimals, so options stay small and stable.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// significant keeps d significant digits.
func significant(x float64, d int) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	return round(x, d-1-int(math.Floor(math.Log10(math.Abs(x)))))
}

// tint is a colour ("#rrggbb") at the given opacity, as CSS rgba.
func tint(color string, alpha float64) string {
	v, err := strconv.ParseUint(strings.TrimPrefix(color, "#"), 16, 32)
	if err != nil || len(color) != 7 {
		return color
	}
	return fmt.Sprintf("rgba(%d,%d,%d,%g)", v>>16, v>>8&0xff, v&0xff, alpha)
}

// defined reports whether x can be drawn.
func defined(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// ms formats a latency for a tooltip or label.
func ms(x float64) string {
	if !defined(x) {
		return "—"
	}
	switch {
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64) + " ms"
	case x >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(x, 'f', 2, 64) + " ms"
}

// pct formats a fraction as a percentage.
func pct(x float64) string {
	if !defined(x) {
		return "—"
	}
	return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
}

// valueAxis is a value (or log) axis in grid with a name carrying units.
func valueAxis(grid int, typ, name string, extra map[string]any) map[string]any {
	a := map[string]any{"type": typ, "gridIndex": grid, "name": name, "nameLocation": "middle",
		"nameTextStyle": map[string]any{"fontSize": fontText.size, "lineHeight": fontText.lineHeight()},
		"splitLine":     map[string]any{"lineStyle": map[string]any{"opacity": 0.35}}}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

// neutral is the colour of reference marks (SLO, zero lines, events); it
// reads on light and dark backgrounds.
const neutral = eventColor

// rule is a dashed reference line at each value on the given axis
// ("xAxis" or "yAxis"); its label, if any, is a placed text (layout.go),
// laid out with the others.
func rule(axis string, values ...float64) *opts.MarkLines {
	data := make([]any, len(values))
	for i, v := range values {
		data[i] = map[string]any{axis: v}
	}
	return &opts.MarkLines{
		Data: data,
		MarkLineStyle: opts.MarkLineStyle{
			Symbol:    []string{"none", "none"},
			Label:     &opts.Label{Show: opts.Bool(false)},
			LineStyle: &opts.LineStyle{Color: neutral, Type: "dashed", Width: 1},
		},
	}
}

// marks is a series drawing nothing but marks in a grid, so that they stay
// when the legend hides a policy; it has no name and no legend entry.
func marks(grid int, options ...charts.SeriesOpts) charts.SingleSeries {
	s := charts.SingleSeries{Type: "line", XAxisIndex: grid, YAxisIndex: grid, Data: []any{},
		ItemStyle: &opts.ItemStyle{Color: neutral}}
	s.ConfigureSeriesOpts(options...)
	return s
}

// plural counts n things: "1 replica", "3 replicas".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// code marks JavaScript source for a raw option value as go-echarts marks
// its functions, so New writes it as a function.
func code(src string) string { return string(opts.FuncOpts(src)) }
