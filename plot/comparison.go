package plot

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
)

// Comparison draws an experiment as four panels side by side, one row per
// policy, so that a row reads as one policy and a column as one metric:
// the p99 latency (median across seeds, each seed's p99 as a dot, the
// min–max range as a whisker, the SLO as a dashed line), SLO attainment,
// goodput, and the requests lost to shedding or still unfinished at the
// cutoff. Runs without a completed cohort request have no p99 and are left
// out of the latency panel, never drawn as zero. The subtitle names the
// policy with the lowest median p99 and the one with the highest attainment.
func Comparison(c *engine.Comparison, options ...Option) (*Figure, error) {
	if err := checkComparison(c); err != nil {
		return nil, err
	}
	n := len(c.Policies)
	// A third subtitle line (policies without a p99) moves the panels down.
	down := 0
	if slices.ContainsFunc(c.Policies, func(p engine.PolicyResult) bool { return p.Summary.LatencyRuns == 0 }) {
		down = 18
	}
	s, err := applyOptions(options, 1000, max(320, 164+44*n)+down)
	if err != nil {
		return nil, err
	}
	bar := charts.NewBar()
	names := policyNames(c)
	cv := newCanvas(bar, &bar.RectChart, "comparison", s, names)
	cv.legend(names, map[string]any{"bottom": "4"})
	cv.tooltip("item", itemTooltip)
	var panels []map[string]any
	var xAxes, yAxes []any
	var grids []opts.Grid
	heads := []string{"p99 latency: median, seeds, range", "SLO attainment", "goodput", "lost: shed + unfinished"}
	for g := range 4 {
		left := fmt.Sprintf("%.1f%%", 13+22*float64(g))
		grids = append(grids, opts.Grid{Left: left, Width: "19.5%", Top: strconv.Itoa(96 + down), Bottom: "72"})
		panels = append(panels, panelTitle(heads[g], left, 70+down))
		yAxes = append(yAxes, policyAxis(g, names, g == 0))
	}
	bar.SetGlobalOptions(charts.WithGridOpts(grids...))
	lat := latencyPanel(cv, c)
	xAxes = append(xAxes, lat.axis,
		valueAxis(1, "value", "attainment (%)", map[string]any{"min": 0, "max": 100, "nameGap": 26}),
		valueAxis(2, "value", "goodput (req/s)", map[string]any{"min": 0, "nameGap": 26}),
		valueAxis(3, "value", "lost (requests per run)", lostRange(c)))
	cv.raw["xAxis"], cv.raw["yAxis"] = xAxes, yAxes
	for i, p := range c.Policies {
		metricPanels(cv, i, n, p, c.Seeds)
	}
	cv.titles(fmt.Sprintf("%s: %s compared", c.Scenario.Name, plural(n, "policy", "policies")),
		setupLine(c)+"\n"+winnersLine(c)+lat.note, panels...)
	return cv.figure(fmt.Sprintf("%s: %s compared", c.Scenario.Name, plural(n, "policy", "policies")))
}

func checkComparison(c *engine.Comparison) error {
	if c == nil {
		return errors.New("plot: nil comparison")
	}
	if len(c.Policies) == 0 {
		return fmt.Errorf("plot: comparison of scenario %q has no policies", c.Scenario.Name)
	}
	for _, p := range c.Policies {
		if len(p.Runs) == 0 || len(p.Runs) != len(c.Seeds) {
			return fmt.Errorf("plot: policy %q of the comparison has %d runs for %d seeds; want one run per seed", p.Name, len(p.Runs), len(c.Seeds))
		}
		for k, r := range p.Runs {
			if r == nil {
				return fmt.Errorf("plot: policy %q has no run for seed %d", p.Name, c.Seeds[k])
			}
		}
	}
	return nil
}

func policyNames(c *engine.Comparison) []string {
	names := make([]string, len(c.Policies))
	for i, p := range c.Policies {
		names[i] = p.Name
	}
	return names
}

// policyAxis lists the policies top to bottom, naming them when labels.
func policyAxis(grid int, names []string, labels bool) map[string]any {
	return map[string]any{"type": "category", "gridIndex": grid, "data": strings2any(names), "inverse": true,
		"axisLabel": map[string]any{"show": labels, "interval": 0, "width": 118, "overflow": "truncate", "fontSize": 12},
		"axisTick":  map[string]any{"show": false}}
}

// setupLine describes what was run.
func setupLine(c *engine.Comparison) string {
	return fmt.Sprintf("%s · %s · %d seeds · %g s measured after %g s warm-up · SLO %g ms",
		c.Scenario.Cluster(), c.Scenario.Traffic(), len(c.Seeds), c.Protocol.Measure/1000, c.Protocol.Warmup/1000, c.Protocol.SLO)
}

// winnersLine names the best median p99 and the best median attainment.
func winnersLine(c *engine.Comparison) string {
	bestLat, bestAtt := -1, -1
	for i, p := range c.Policies {
		s := p.Summary
		if defined(s.MedianP99) && (bestLat < 0 || s.MedianP99 < c.Policies[bestLat].Summary.MedianP99) {
			bestLat = i
		}
		if defined(s.MedianAttainment) && (bestAtt < 0 || s.MedianAttainment > c.Policies[bestAtt].Summary.MedianAttainment) {
			bestAtt = i
		}
	}
	var parts []string
	if bestLat >= 0 {
		parts = append(parts, fmt.Sprintf("lowest median p99: %s (%s)", c.Policies[bestLat].Name, ms(c.Policies[bestLat].Summary.MedianP99)))
	}
	if bestAtt >= 0 {
		parts = append(parts, fmt.Sprintf("highest attainment: %s (%s)", c.Policies[bestAtt].Name, pct(c.Policies[bestAtt].Summary.MedianAttainment)))
	}
	return strings.Join(parts, " · ")
}

// latency is the p99 panel's axis and what the subtitle must say about it.
type latency struct {
	axis map[string]any
	note string
}

// latencyPanel adds the SLO line and, per policy, the p99 whisker, median
// and seed dots.
func latencyPanel(cv *canvas, c *engine.Comparison) latency {
	lo, hi := math.Inf(1), math.Inf(-1)
	var none []string
	for _, p := range c.Policies {
		if p.Summary.LatencyRuns == 0 {
			none = append(none, p.Name)
			continue
		}
		lo, hi = math.Min(lo, p.Summary.P99Min), math.Max(hi, p.Summary.P99Max)
	}
	slo := c.Protocol.SLO
	scale := cv.s.latency
	if scale == ScaleAuto {
		scale = ScaleLinear
		if !math.IsInf(lo, 1) && lo > 0 && hi/lo >= 10 {
			scale = ScaleLog
		}
	}
	var axis map[string]any
	if scale == ScaleLog {
		top := math.Max(hi, slo)
		bottom := math.Min(slo, lo)
		if math.IsInf(lo, 1) || lo <= 0 {
			bottom = slo
		}
		axis = valueAxis(0, "log", "p99 (ms, log scale)", map[string]any{"nameGap": 26,
			"min": math.Pow(10, math.Floor(math.Log10(bottom))), "max": math.Pow(10, math.Ceil(math.Log10(top)))})
	} else {
		top := slo
		if !math.IsInf(hi, -1) {
			top = math.Max(hi, slo)
		}
		axis = valueAxis(0, "value", "p99 (ms)", map[string]any{"nameGap": 26, "min": 0, "max": niceCeil(top * 1.05)})
	}
	cv.add(marks(0, func(s *charts.SingleSeries) { s.MarkLines = refLine("xAxis", slo, "SLO", "start") }))
	for i, p := range c.Policies {
		latencyRow(cv, i, p, c.Seeds)
	}
	var note string
	if len(none) > 0 {
		note = "\nno p99 (no run completed a cohort request): " + strings.Join(none, ", ")
	}
	return latency{axis: axis, note: note}
}

// whisker draws [category, lo, hi] items as a horizontal min–max range
// with end caps, in the series' colour.
const whisker = `function (params, api) {
  var y = api.value(0), a = api.coord([api.value(1), y]), b = api.coord([api.value(2), y]);
  var h = api.size([0, 1])[1] * 0.32, st = {stroke: api.visual("color"), lineWidth: 1.5};
  return {type: "group", children: [
    {type: "line", shape: {x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, style: st},
    {type: "line", shape: {x1: a[0], y1: a[1] - h / 2, x2: a[0], y2: a[1] + h / 2}, style: st},
    {type: "line", shape: {x1: b[0], y1: b[1] - h / 2, x2: b[0], y2: b[1] + h / 2}, style: st}]};
}`

func latencyRow(cv *canvas, i int, p engine.PolicyResult, seeds []uint64) {
	s := p.Summary
	if s.LatencyRuns == 0 {
		return
	}
	color := cv.color(p.Name)
	of := fmt.Sprintf("%d of %d runs", s.LatencyRuns, s.Runs)
	if s.LatencyRuns == s.Runs {
		of = fmt.Sprintf("%d runs", s.Runs)
	}
	rangeTip := fmt.Sprintf("p99 range %s – %s across %s", ms(s.P99Min), ms(s.P99Max), of)
	cv.add(charts.SingleSeries{Name: p.Name, Type: "custom", XAxisIndex: 0, YAxisIndex: 0,
		RenderItem: opts.FuncOpts(whisker), Encode: &opts.Encode{X: []int{1, 2}, Y: 0},
		ItemStyle: &opts.ItemStyle{Color: color},
		Data:      []any{item([]any{i, round(s.P99Min, 3), round(s.P99Max, 3)}, rangeTip)}})
	cv.add(charts.SingleSeries{Name: p.Name, Type: "scatter", XAxisIndex: 0, YAxisIndex: 0,
		Symbol: "rect", SymbolSize: []int{4, 26}, ItemStyle: &opts.ItemStyle{Color: color},
		Label: &opts.Label{Show: opts.Bool(true), Position: "top", Formatter: ms(s.MedianP99), FontSize: 11},
		Data:  []any{item([]any{round(s.MedianP99, 3), i}, fmt.Sprintf("median p99 %s\n%s", ms(s.MedianP99), rangeTip))}})
	var dots []any
	for k, r := range p.Runs {
		if r.Latency.Count == 0 {
			continue
		}
		d := item([]any{round(r.Latency.P99, 3), i}, fmt.Sprintf("seed %d: p99 %s", seeds[k], ms(r.Latency.P99)))
		d["symbolOffset"] = []any{0, jitter(k, len(p.Runs))}
		dots = append(dots, d)
	}
	cv.add(seedDots(p.Name, color, 0, dots))
}

// jitter spreads the dots of a row vertically, in seed order, so equal
// values stay visible (deterministic, at most ±12 px).
func jitter(k, n int) float64 {
	if n < 2 {
		return 0
	}
	step := math.Min(4, 24/float64(n-1))
	return round((float64(k)-float64(n-1)/2)*step, 1)
}

func seedDots(name, color string, grid int, data []any) charts.SingleSeries {
	return charts.SingleSeries{Name: name, Type: "scatter", XAxisIndex: grid, YAxisIndex: grid,
		SymbolSize: 6, ItemStyle: &opts.ItemStyle{Color: color, Opacity: opts.Float(0.9)}, Data: data}
}

// metricPanels adds a policy's attainment, goodput and lost-request bars.
// Each policy's bar is its own series with values only in its own row, and
// all bars of a panel share a stack, so each row holds one centred bar in
// the policy's colour.
func metricPanels(cv *canvas, i, n int, p engine.PolicyResult, seeds []uint64) {
	s, color := p.Summary, cv.color(p.Name)
	row := func(v float64, tip string) []any {
		data := make([]any, n)
		for k := range data {
			data[k] = "-"
		}
		if defined(v) {
			data[i] = map[string]any{"value": v, "tip": tip}
		}
		return data
	}
	// Bars are tinted with an outline, and labelled in the policy's colour,
	// which reads on light and dark pages alike.
	bar := func(grid int, stack string, v float64, label, tip string, fill float64) charts.SingleSeries {
		return charts.SingleSeries{Name: p.Name, Type: "bar", XAxisIndex: grid, YAxisIndex: grid, Stack: stack,
			BarWidth: "56%", ItemStyle: &opts.ItemStyle{Color: tint(color, fill), BorderColor: color, BorderWidth: 1},
			Label: &opts.Label{Show: opts.Bool(label != ""), Position: "insideLeft", Formatter: label, FontSize: 11,
				FontWeight: "bold", Color: color},
			Data: row(v, tip)}
	}
	cv.add(bar(1, "attainment", round(100*s.MedianAttainment, 3), pct(s.MedianAttainment),
		fmt.Sprintf("median attainment %s (on time / cohort arrivals)\nmedian SLO-miss rate %s", pct(s.MedianAttainment), pct(s.MedianSLOMissRate)), 0.12))
	cv.add(seedDots(p.Name, color, 1, runDots(p, seeds, i, func(r *engine.RunResult) (float64, string) {
		return 100 * r.Attainment, pct(r.Attainment)
	})))
	cv.add(bar(2, "goodput", round(s.MedianGoodput, 3), strconv.FormatFloat(s.MedianGoodput, 'f', 1, 64),
		fmt.Sprintf("median goodput %.1f req/s on time\nmedian throughput %.1f req/s", s.MedianGoodput, s.MedianThroughput), 0.12))
	cv.add(seedDots(p.Name, color, 2, runDots(p, seeds, i, func(r *engine.RunResult) (float64, string) {
		return r.GoodputRPS, strconv.FormatFloat(r.GoodputRPS, 'f', 1, 64) + " req/s"
	})))
	lost := fmt.Sprintf("median shed %g, unfinished %g of %g cohort arrivals", s.MedianShed, s.MedianUnfinished, s.MedianCohort)
	cv.add(bar(3, "lost", s.MedianShed, "", "shed (no eligible replica)\n"+lost, 0.8))
	total := bar(3, "lost", s.MedianUnfinished, strconv.FormatFloat(s.MedianShed+s.MedianUnfinished, 'g', -1, 64),
		"unfinished at the cutoff\n"+lost, 0.12)
	total.Label.Position = "right"
	cv.add(total)
}

// runDots are a policy's per-seed values in a panel; runs where value is
// undefined are left out.
func runDots(p engine.PolicyResult, seeds []uint64, row int, value func(*engine.RunResult) (float64, string)) []any {
	var dots []any
	for k, r := range p.Runs {
		v, text := value(r)
		if !defined(v) {
			continue
		}
		d := item([]any{round(v, 3), row}, fmt.Sprintf("seed %d: %s", seeds[k], text))
		d["symbolOffset"] = []any{0, jitter(k, len(p.Runs))}
		dots = append(dots, d)
	}
	return dots
}

// lostRange leaves room right of the longest lost-requests bar for its
// label.
func lostRange(c *engine.Comparison) map[string]any {
	r := map[string]any{"min": 0, "nameGap": 26, "minInterval": 1}
	var most float64
	for _, p := range c.Policies {
		most = math.Max(most, p.Summary.MedianShed+p.Summary.MedianUnfinished)
	}
	if most > 0 {
		r["max"] = niceCeil(most * 1.25)
	}
	return r
}

// niceCeil rounds x up to a round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6
// or 8 times a power of ten).
func niceCeil(x float64) float64 {
	if x <= 0 || !defined(x) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}
