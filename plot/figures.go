package plot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
)

// This file holds what the figure builders (Comparison, LatencyCDF,
// Timeline, RateSweep, StudyHeatmap, Paired) share: their options, content
// ids, and the canvas they draw on.
//
// Each builder makes a go-echarts chart for its series and the components
// go-echarts models correctly (title, legend, toolbox, zooms, grids), and
// writes the components go-echarts 2.6.7 cannot express (several titles,
// several axes with hidden labels, custom series, per-item data) as plain
// ECharts option values through go-echarts' configuration visitor, the
// library's own hook for options it lacks.

// Option adjusts a figure builder. It shows as the call that made it.
type Option struct {
	call  string
	apply func(*settings) error
}

// String is the call that made the option: plot.WithTitle("p99").
func (o Option) String() string {
	if o.apply == nil {
		return "plot.Option{} (no effect)"
	}
	return o.call
}

// Scale is how a latency axis is drawn.
type Scale string

const (
	// ScaleAuto draws a latency axis logarithmic when its values span a
	// factor of ten or more, linear otherwise.
	ScaleAuto Scale = "auto"
	// ScaleLinear draws it linear from zero.
	ScaleLinear Scale = "linear"
	// ScaleLog draws it logarithmic.
	ScaleLog Scale = "log"
)

type settings struct {
	id, title     string
	theme         Theme
	width, height int
	palette       *Palette
	svg           *SVGRenderer
	latency       Scale
	slo           float64
}

// WithID names the figure (see Spec.ID); by default a figure's id is its
// kind and a hash of its content, so the same data give the same id.
func WithID(id string) Option {
	return Option{fmt.Sprintf("plot.WithID(%q)", id), func(s *settings) error { s.id = id; return nil }}
}

// WithTitle replaces the figure's title.
func WithTitle(title string) Option {
	return Option{fmt.Sprintf("plot.WithTitle(%q)", title), func(s *settings) error { s.title = title; return nil }}
}

// WithTheme sets the figure's theme (default ThemeAuto).
func WithTheme(t Theme) Option {
	return Option{fmt.Sprintf("plot.WithTheme(%q)", string(t)), func(s *settings) error {
		if _, err := resolveTheme(t, ""); err != nil || t == "" {
			return fmt.Errorf("plot: theme %q is not one of auto, light, dark", t)
		}
		s.theme = t
		return nil
	}}
}

// WithSize sets the export size in CSS pixels (HTML output keeps the full
// width available and takes this height).
func WithSize(width, height int) Option {
	return Option{fmt.Sprintf("plot.WithSize(%d, %d)", width, height), func(s *settings) error {
		if width < minSide || width > maxSide || height < minSide || height > maxSide {
			return fmt.Errorf("plot: size %d×%d is outside %d–%d pixels per side", width, height, minSide, maxSide)
		}
		s.width, s.height = width, height
		return nil
	}}
}

// WithPalette colours the figure's series from p instead of DefaultPalette.
func WithPalette(p *Palette) Option {
	return Option{"plot.WithPalette(" + p.String() + ")", func(s *settings) error {
		if p == nil {
			return errors.New("plot: WithPalette needs a palette (DefaultPalette() or one made from it)")
		}
		s.palette = p
		return nil
	}}
}

// WithRenderer makes the figure's SVG method use r (see Spec.SVG).
func WithRenderer(r *SVGRenderer) Option {
	return Option{"plot.WithRenderer(" + r.String() + ")", func(s *settings) error { s.svg = r; return nil }}
}

// WithLatencyScale sets how Comparison draws its p99 axis (default
// ScaleAuto).
func WithLatencyScale(sc Scale) Option {
	return Option{fmt.Sprintf("plot.WithLatencyScale(%q)", string(sc)), func(s *settings) error {
		switch sc {
		case ScaleAuto, ScaleLinear, ScaleLog:
			s.latency = sc
			return nil
		}
		return fmt.Errorf("plot: latency scale %q is not one of auto, linear, log", sc)
	}}
}

// WithSLO sets the SLO (ms) marked on a Timeline (default engine.DefaultSLO);
// figures of comparisons take it from the comparison's protocol.
func WithSLO(ms float64) Option {
	return Option{fmt.Sprintf("plot.WithSLO(%g)", ms), func(s *settings) error {
		if !defined(ms) || ms <= 0 {
			return fmt.Errorf("plot: SLO %g ms is not a positive number of milliseconds", ms)
		}
		s.slo = ms
		return nil
	}}
}

func applyOptions(options []Option, width, height int) (settings, error) {
	s := settings{theme: ThemeAuto, width: width, height: height, palette: DefaultPalette(), latency: ScaleAuto, slo: engine.DefaultSLO}
	for _, o := range options {
		if o.apply == nil {
			continue
		}
		if err := o.apply(&s); err != nil {
			return settings{}, err
		}
	}
	return s, nil
}

// canvas is a chart being built: the go-echarts chart, the raw components
// the visitor writes over the chart's own, and the builder's settings.
type canvas struct {
	chart  Chart
	rect   *charts.RectChart
	raw    map[string]any
	s      settings
	kind   string
	colors map[string]string // the figure's names, coloured together
}

// rawComponents is the go-echarts configuration visitor that writes raw
// option components into the chart's option.
type rawComponents struct {
	charts.BaseConfigurationVisitor
	set map[string]any
}

func (v rawComponents) Visit(option map[string]interface{}) {
	for k, x := range v.set {
		option[k] = x
	}
}

// newCanvas starts a figure whose series are named by names: they are
// coloured together, so no two of them share a colour.
func newCanvas(chart Chart, rect *charts.RectChart, kind string, s settings, names []string) *canvas {
	c := &canvas{chart: chart, rect: rect, raw: map[string]any{}, s: s, kind: kind, colors: map[string]string{}}
	for i, col := range s.palette.Assign(names) {
		c.colors[names[i]] = col
	}
	rect.Accept(rawComponents{set: c.raw})
	rect.SetGlobalOptions(charts.WithToolboxOpts(saveToolbox()))
	return c
}

// color is name's colour in this figure.
func (c *canvas) color(name string) string {
	if col, ok := c.colors[name]; ok {
		return col
	}
	return c.s.palette.Color(name)
}

// add appends a series.
func (c *canvas) add(s charts.SingleSeries) { c.rect.MultiSeries = append(c.rect.MultiSeries, s) }

// titles sets the figure's title and subtitle plus panel headings (each at
// a left and top position).
func (c *canvas) titles(title, subtitle string, panels ...map[string]any) {
	if c.s.title != "" {
		title = c.s.title
	}
	list := []any{map[string]any{"text": title, "subtext": subtitle, "left": "12", "top": "6",
		"textStyle": map[string]any{"fontSize": 16}, "itemGap": 6,
		"subtextStyle": map[string]any{"fontSize": 12, "lineHeight": 17}}}
	for _, p := range panels {
		list = append(list, p)
	}
	c.raw["title"] = list
}

// panelTitle is a small heading placed at left/top.
func panelTitle(text, left string, top int) map[string]any {
	return map[string]any{"text": text, "left": left, "top": strconv.Itoa(top),
		"textStyle": map[string]any{"fontSize": 13, "fontWeight": "normal"}}
}

// legend lists the given names (policies, replicas) in order.
func (c *canvas) legend(names []string, pos map[string]any) {
	data := make([]any, len(names))
	for i, n := range names {
		// The icon takes the first series' style, which may be a tint.
		data[i] = map[string]any{"name": n, "icon": "roundRect", "itemStyle": map[string]any{"color": c.color(n), "opacity": 1}}
	}
	l := map[string]any{"show": true, "data": data, "type": "scroll"}
	for k, v := range pos {
		l[k] = v
	}
	c.raw["legend"] = l
}

// figure turns the canvas into a Figure with a content-derived id.
func (c *canvas) figure(title string) (*Figure, error) {
	id := c.s.id
	if id == "" {
		var err error
		if id, err = contentID(c.kind, c.chart); err != nil {
			return nil, err
		}
	}
	if c.s.title != "" {
		title = c.s.title
	}
	return New(c.chart, Spec{ID: id, Title: title, Theme: c.s.theme, Width: c.s.width, Height: c.s.height,
		Palette: c.s.palette, SVG: c.s.svg})
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
  return p.marker + esc(p.seriesName) + "<br>" + esc(d.tip).replace(/\n/g, "<br>");
}`

// axisTooltip lists, for every series under an axis pointer that has a
// "tip" on its item, the series name and the tip.
const axisTooltip = `function (ps) {
  var esc = function (s) { return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
  var out = [];
  for (var i = 0; i < ps.length; i++) {
    var d = ps[i].data || {};
    if (d.tip) out.push(ps[i].marker + esc(ps[i].seriesName) + ": " + esc(d.tip));
  }
  return out.join("<br>");
}`

func (c *canvas) tooltip(trigger, formatter string) {
	t := map[string]any{"show": true, "trigger": trigger, "confine": true, "formatter": string(opts.FuncOpts(formatter))}
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
		"splitLine": map[string]any{"lineStyle": map[string]any{"opacity": 0.35}}}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

// neutral is the colour of reference marks (SLO, zero lines, events); it
// reads on light and dark backgrounds.
const neutral = eventColor

// refLine is a dashed reference line at value on the given axis ("xAxis"
// or "yAxis"), labelled at position (an ECharts markLine label position).
func refLine(axis string, value float64, label, position string) *opts.MarkLines {
	return &opts.MarkLines{
		Data: []any{map[string]any{axis: value, "name": label}},
		MarkLineStyle: opts.MarkLineStyle{
			Symbol:    []string{"none", "none"},
			Label:     &opts.Label{Show: opts.Bool(true), Formatter: "{b}", Color: neutral, Position: position},
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
