package plot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
)

// option is a chart's ECharts option as a generic JSON tree (objects are
// map[string]any, arrays []any, numbers json.Number, functions jsFunc),
// after the fixes below.
type option struct {
	tree   map[string]any
	title  string
	series []string
}

// funcMarker is how go-echarts marks JavaScript functions inside strings
// (opts.FuncOpts); its own renderer strips the markers with a regexp and
// leaves the JSON escapes of the function's quotes behind.
const funcMarker = "__f__"

// jsFunc is the source of a JavaScript function found in an option.
type jsFunc string

// buildOption reads chart's option and applies every go-echarts 2.6.7
// workaround; each fix names the defect it answers in docs/plotting.md.
func buildOption(chart Chart, bc *charts.BaseConfiguration, title string, pal *Palette) (option, error) {
	if len(bc.EventListeners) > 0 || len(bc.JSFunctions.Fns) > 0 {
		return option{}, errors.New("go-echarts event listeners and JSFunctions are not supported; use formatter functions in the options instead")
	}
	tree, err := chartTree(chart)
	if err != nil {
		return option{}, err
	}
	if bc.Progressive != nil {
		// go-echarts writes Animation where Progressive belongs.
		tree["progressive"] = json.Number(strconv.Itoa(*bc.Progressive))
	}
	fixToolbox(tree)
	fixDataZoom(tree)
	if err := checkHeatMapAxes(tree); err != nil {
		return option{}, err
	}
	opt := option{tree: tree, series: seriesNames(tree)}
	opt.title = fixTitle(tree, title)
	fixColors(tree, bc.Colors, pal, opt.series)
	if _, ok := tree["backgroundColor"]; !ok {
		// Let the page show through, so light and dark front ends both work.
		tree["backgroundColor"] = "transparent"
	}
	return opt, nil
}

// chartTree validates the chart (go-echarts only fills x-axis data in
// Validate) and decodes its option into a generic tree.
func chartTree(chart Chart) (tree map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("go-echarts failed on this %s chart: %v", chart.Type(), r)
		}
	}()
	chart.Validate()
	raw, err := json.Marshal(chart.JSON())
	if err != nil {
		if strings.Contains(err.Error(), "unsupported value") {
			return nil, fmt.Errorf("chart option: %w (NaN and ±Inf cannot be drawn: use nil or \"-\" for a missing point)", err)
		}
		return nil, fmt.Errorf("chart option: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("chart option: %w", err)
	}
	tree, ok := markFunctions(v).(map[string]any)
	if !ok {
		return nil, errors.New("chart option is not a JSON object")
	}
	return tree, nil
}

// markFunctions turns go-echarts' marked function strings into jsFunc.
func markFunctions(v any) any {
	switch x := v.(type) {
	case string:
		if len(x) >= 2*len(funcMarker) && strings.HasPrefix(x, funcMarker) && strings.HasSuffix(x, funcMarker) {
			return jsFunc(strings.TrimSpace(x[len(funcMarker) : len(x)-len(funcMarker)]))
		}
	case []any:
		for i := range x {
			x[i] = markFunctions(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = markFunctions(x[k])
		}
	}
	return v
}

// objects returns v's objects whether ECharts got one object or an array.
func objects(v any) []map[string]any {
	switch x := v.(type) {
	case map[string]any:
		return []map[string]any{x}
	case []any:
		var out []map[string]any
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

// fixToolbox drops the nulls go-echarts writes for unset toolbox icons and
// titles ("icon": null makes ECharts draw invisible icons).
func fixToolbox(tree map[string]any) {
	for _, tb := range objects(tree["toolbox"]) {
		feature, _ := tb["feature"].(map[string]any)
		for _, f := range feature {
			m, ok := f.(map[string]any)
			if !ok {
				continue
			}
			for k, v := range m {
				if v == nil || v == "" {
					delete(m, k)
				}
			}
		}
	}
}

// fixDataZoom binds every data zoom without an axis to the x axes (or the y
// axes for a vertical slider): go-echarts leaves inside zooms unbound.
func fixDataZoom(tree map[string]any) {
	nx, ny := len(objects(tree["xAxis"])), len(objects(tree["yAxis"]))
	for _, dz := range objects(tree["dataZoom"]) {
		bound := false
		for _, k := range []string{"xAxisIndex", "yAxisIndex", "radiusAxisIndex", "angleAxisIndex", "singleAxisIndex"} {
			if dz[k] != nil {
				bound = true
			}
		}
		key, n := "xAxisIndex", nx
		if dz["orient"] == "vertical" {
			key, n = "yAxisIndex", ny
		}
		if bound || n == 0 {
			continue
		}
		idx := make([]any, n)
		for i := range idx {
			idx[i] = json.Number(strconv.Itoa(i))
		}
		dz[key] = idx
	}
}

// checkHeatMapAxes rejects a heat map whose category axes have no
// categories: go-echarts 2.6.7 drops HeatMap.SetXAxis, so the categories
// must come through the axis options.
func checkHeatMapAxes(tree map[string]any) error {
	for _, s := range objects(tree["series"]) {
		if s["type"] != "heatmap" || (s["coordinateSystem"] != nil && s["coordinateSystem"] != "cartesian2d") {
			continue
		}
		const help = "heat map %q needs category names on its %s axis: set them with %s{Type: \"category\", Data: ...}) (go-echarts 2.6.7 ignores HeatMap.SetXAxis)"
		if !hasCategories(axisAt(tree["xAxis"], s["xAxisIndex"]), true) {
			return fmt.Errorf(help, s["name"], "x", "charts.WithXAxisOpts(opts.XAxis")
		}
		if !hasCategories(axisAt(tree["yAxis"], s["yAxisIndex"]), false) {
			return fmt.Errorf(help, s["name"], "y", "charts.WithYAxisOpts(opts.YAxis")
		}
	}
	return nil
}

// axisAt returns the axis a series' axis index points at (nil if none).
func axisAt(axes, index any) map[string]any {
	i := int64(0)
	if n, ok := index.(json.Number); ok {
		i, _ = n.Int64()
	}
	list := objects(axes)
	if i < 0 || i >= int64(len(list)) {
		return nil
	}
	return list[i]
}

// hasCategories tells whether axis is a category axis with categories;
// an axis without a type is one when categoryByDefault (ECharts' x axes).
func hasCategories(axis map[string]any, categoryByDefault bool) bool {
	typ, _ := axis["type"].(string)
	data, _ := axis["data"].([]any)
	return (typ == "category" || (typ == "" && categoryByDefault)) && len(data) > 0
}

// seriesNames lists the series' names in order ("" for unnamed ones).
func seriesNames(tree map[string]any) []string {
	var names []string
	for _, s := range objects(tree["series"]) {
		n, _ := s["name"].(string)
		names = append(names, n)
	}
	return names
}

// fixTitle gives the chart the figure's title when it has none and returns
// the title in effect.
func fixTitle(tree map[string]any, title string) string {
	ts := objects(tree["title"])
	if len(ts) == 0 {
		if title == "" {
			return ""
		}
		t := map[string]any{}
		tree["title"] = t
		ts = append(ts, t)
	}
	if text, _ := ts[0]["text"].(string); text != "" {
		if title == "" {
			return text
		}
		return title
	}
	if title != "" {
		ts[0]["text"] = title
	}
	return title
}

// fixColors sets the option's palette whatever the theme (go-echarts only
// writes it with its "white" theme): colours given to the chart with
// charts.WithColorsOpts win, otherwise each series gets its palette colour
// (the same as everywhere else: Palette.Color).
// ECharts hands palette entries out per distinct series name, in order.
func fixColors(tree map[string]any, chartColors []string, pal *Palette, series []string) {
	if len(chartColors) > 0 && !slices.Equal(chartColors, charts.NewBar().Colors) {
		tree["color"] = strings2any(chartColors)
		return
	}
	var keys []string
	seen := map[string]bool{}
	// A pie or funnel takes a palette colour per data item, not per series.
	for i, n := range legendNames(tree, map[string]any{}, series) {
		if n == "" {
			n = "series " + strconv.Itoa(i)
		}
		if !seen[n] {
			seen[n] = true
			keys = append(keys, n)
		}
	}
	if len(keys) == 0 {
		delete(tree, "color")
		return
	}
	tree["color"] = strings2any(pal.colors(keys))
}

func strings2any(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// staticTree is an option for images (SVG, PNG, PDF): everything that only
// works under a pointer goes — the toolbox, zoom sliders (an inside zoom
// draws nothing and stays), scrolling legends (they become plain, every
// entry shown), tooltips — and nothing animates. tree itself is unchanged.
func staticTree(tree map[string]any) map[string]any {
	out := make(map[string]any, len(tree))
	for k, v := range tree {
		out[k] = v
	}
	delete(out, "toolbox")
	delete(out, "tooltip")
	out["animation"] = false
	var zooms []any
	for _, dz := range objects(tree["dataZoom"]) {
		if dz["type"] == "inside" {
			zooms = append(zooms, dz)
		}
	}
	if zooms == nil {
		delete(out, "dataZoom")
	} else {
		out["dataZoom"] = zooms
	}
	var legends []any
	for _, l := range objects(tree["legend"]) {
		plain := make(map[string]any, len(l))
		for k, v := range l {
			plain[k] = v
		}
		plain["type"] = "plain"
		legends = append(legends, plain)
	}
	if legends != nil {
		out["legend"] = legends
	}
	return out
}
