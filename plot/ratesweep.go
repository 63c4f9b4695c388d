package plot

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
)

// RateSweep draws a sweep against its x value (the arrival rate for
// engine.RateSweep points): above, each policy's median p99 on a log axis
// with the SLO, the queueing hockey stick; below, its median attainment.
// A shaded band spans the min–max across seeds in both panels. Points
// where a policy has no latency figure leave a gap.
func RateSweep(sw *engine.SweepResult, options ...Option) (*Figure, error) {
	order, xs, err := sweepOrder(sw)
	if err != nil {
		return nil, err
	}
	s, err := applyOptions(options, 1000, 630)
	if err != nil {
		return nil, err
	}
	first := sw.Comparisons[0]
	names := policyNames(first)
	line := charts.NewLine()
	cv := newCanvas(line, &line.RectChart, "rate-sweep", s, names)
	line.SetGlobalOptions(charts.WithGridOpts(
		opts.Grid{Left: "80", Right: "40", Top: "100", Height: "250"},
		opts.Grid{Left: "80", Right: "40", Top: "402", Height: "160"}))
	xname := sw.XLabel
	if xname == "" {
		xname = "arrival rate (req/s)"
	}
	var lo, hi, attLo float64 = math.Inf(1), first.Protocol.SLO, 100
	var lines []charts.SingleSeries
	for pi, name := range names { // bands first, so that no band covers a line
		p99, att := sweepSeries(sw, order, xs, pi)
		cv.add(band(name, cv.color(name), 0, p99.band))
		cv.add(band(name, cv.color(name), 1, att.band))
		lines = append(lines, medianLine(name, cv.color(name), 0, p99.median), medianLine(name, cv.color(name), 1, att.median))
		lo, hi, attLo = math.Min(lo, p99.lo), math.Max(hi, p99.hi), math.Min(attLo, att.lo)
	}
	for _, l := range lines {
		cv.add(l)
	}
	if math.IsInf(lo, 1) {
		lo = hi / 10
	}
	slo := first.Protocol.SLO
	cv.add(marks(0, func(ss *charts.SingleSeries) { ss.MarkLines = refLine("yAxis", slo, "SLO", "insideEndTop") }))
	cv.raw["xAxis"] = []any{
		valueAxis(0, "value", "", map[string]any{"scale": true}),
		valueAxis(1, "value", xname, map[string]any{"scale": true, "nameGap": 26}),
	}
	cv.raw["yAxis"] = []any{
		valueAxis(0, "log", "p99 (ms, log scale)", map[string]any{"nameGap": 50,
			"min": math.Pow(10, math.Floor(math.Log10(lo))), "max": math.Pow(10, math.Ceil(math.Log10(hi)))}),
		valueAxis(1, "value", "attainment (%)", map[string]any{"nameGap": 50, "max": 100,
			"min": attMin(attLo)}),
	}
	cv.legend(names, map[string]any{"top": "50", "right": "40"})
	cv.tooltip("axis", axisTooltip)
	cv.raw["axisPointer"] = map[string]any{"link": []any{map[string]any{"xAxisIndex": "all"}}}
	title := fmt.Sprintf("%s: p99 and attainment against %s", first.Scenario.Name, xname)
	sub := fmt.Sprintf("medians across %d seeds · shaded: min–max across seeds · SLO %g ms · %d replicas",
		len(first.Seeds), slo, first.Scenario.Replicas())
	cv.titles(title, sub,
		panelTitle("p99 latency", "80", 78), panelTitle("SLO attainment", "80", 380))
	return cv.figure(title)
}

// sweepOrder checks a sweep and returns its points in increasing x, with
// x the point's X, or the scenario's rate when no point has an X.
func sweepOrder(sw *engine.SweepResult) ([]int, []float64, error) {
	if sw == nil {
		return nil, nil, errors.New("plot: nil sweep")
	}
	if len(sw.Comparisons) == 0 || len(sw.Comparisons) != len(sw.Points) {
		return nil, nil, fmt.Errorf("plot: sweep has %d points and %d comparisons; want at least one of each, equally many", len(sw.Points), len(sw.Comparisons))
	}
	useRate := true
	for _, p := range sw.Points {
		useRate = useRate && p.X == 0
	}
	names := policyNames(sw.Comparisons[0])
	xs := make([]float64, len(sw.Points))
	order := make([]int, len(sw.Points))
	for i, p := range sw.Points {
		xs[i], order[i] = p.X, i
		if useRate {
			xs[i] = p.Scenario.Rate
		}
		if err := checkComparison(sw.Comparisons[i]); err != nil {
			return nil, nil, fmt.Errorf("sweep point %q: %w", p.Label, err)
		}
		if !slices.Equal(policyNames(sw.Comparisons[i]), names) {
			return nil, nil, fmt.Errorf("plot: sweep point %q compares %v, the first point %v; every point needs the same policies", p.Label, policyNames(sw.Comparisons[i]), names)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(xs[a], xs[b]) })
	for k := 1; k < len(order); k++ {
		if xs[order[k]] == xs[order[k-1]] {
			return nil, nil, fmt.Errorf("plot: sweep points %q and %q are both at x = %g; each point needs its own x", sw.Points[order[k-1]].Label, sw.Points[order[k]].Label, xs[order[k]])
		}
	}
	return order, xs, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// curve is one policy's medians and min–max band along the sweep, and the
// band's lowest and highest values.
type curve struct {
	median, band []any
	lo, hi       float64
}

func sweepSeries(sw *engine.SweepResult, order []int, xs []float64, pi int) (p99, att curve) {
	p99.lo, p99.hi, att.lo, att.hi = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	var prevP, prevA []float64
	for _, i := range order {
		pr := sw.Comparisons[i].Policies[pi]
		x, sm := xs[i], pr.Summary
		var atts []float64
		for _, r := range pr.Runs {
			atts = append(atts, 100*r.Attainment)
		}
		aLo, aHi := engine.MinMax(atts)
		p99.add(x, sm.MedianP99, sm.P99Min, sm.P99Max, &prevP,
			fmt.Sprintf("p99 %s (range %s – %s)", ms(sm.MedianP99), ms(sm.P99Min), ms(sm.P99Max)))
		att.add(x, 100*sm.MedianAttainment, aLo, aHi, &prevA,
			fmt.Sprintf("attainment %s (range %s – %s)", pct(sm.MedianAttainment), pct(aLo/100), pct(aHi/100)))
	}
	return p99, att
}

// add appends a point: the median (a gap when undefined) and the band
// segment from the previous defined point.
func (c *curve) add(x, median, lo, hi float64, prev *[]float64, tip string) {
	if !defined(median) {
		c.median = append(c.median, []any{x, "-"})
		*prev = nil
		return
	}
	c.median = append(c.median, item([]any{x, round(median, 3)}, tip))
	c.lo, c.hi = math.Min(c.lo, lo), math.Max(c.hi, hi)
	if *prev != nil {
		p := *prev
		c.band = append(c.band, []any{p[0], round(p[1], 3), round(p[2], 3), x, round(lo, 3), round(hi, 3)})
	}
	*prev = []float64{x, lo, hi}
}

// bandSegment fills the quadrilateral between two consecutive points'
// min–max ranges ([x0, lo0, hi0, x1, lo1, hi1]) in the series' colour.
const bandSegment = `function (params, api) {
  var a = api.coord([api.value(0), api.value(1)]), b = api.coord([api.value(3), api.value(4)]);
  var c = api.coord([api.value(3), api.value(5)]), d = api.coord([api.value(0), api.value(2)]);
  return {type: "polygon", shape: {points: [a, b, c, d]}, style: {fill: api.visual("color"), opacity: 0.16}, silent: true};
}`

func band(name, color string, grid int, data []any) charts.SingleSeries {
	return charts.SingleSeries{Name: name, Type: "custom", XAxisIndex: grid, YAxisIndex: grid,
		RenderItem: opts.FuncOpts(bandSegment), Encode: &opts.Encode{X: []int{0, 3}, Y: []int{1, 2, 4, 5}},
		ItemStyle: &opts.ItemStyle{Color: color}, Data: data}
}

func medianLine(name, color string, grid int, data []any) charts.SingleSeries {
	return charts.SingleSeries{Name: name, Type: "line", XAxisIndex: grid, YAxisIndex: grid, Data: data,
		Symbol: "circle", SymbolSize: 7, ItemStyle: &opts.ItemStyle{Color: color},
		LineStyle: &opts.LineStyle{Color: color, Width: 2}}
}

// attMin is the attainment axis' lower end: zero unless every value is
// high, then a multiple of ten below them.
func attMin(lo float64) float64 {
	if lo < 50 || !defined(lo) {
		return 0
	}
	return math.Min(90, 10*math.Floor(lo/10))
}
