package plot

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// Comparison draws an experiment as four panels, one row per policy, so
// that a row reads as one policy and a panel as one metric: the p99 latency
// (each seed's p99 as a marker, the min–max as a whisker, the median as a
// tick and a value, the SLO as a dashed line), SLO attainment, goodput, and
// the requests lost to shedding or still unfinished at the cutoff. The
// panels stand side by side when the width allows, else two by two, else
// one above the other. Runs without a completed cohort request have no p99
// and are left out of the latency panel, never drawn as zero. The subtitle
// names the policy with the lowest median p99 and the one with the highest
// attainment.
func Comparison(c *experiment.Comparison, options ...Option) (*Figure, error) {
	if err := checkComparison(c); err != nil {
		return nil, err
	}
	s, err := applyOptions(options, 1000)
	if err != nil {
		return nil, err
	}
	title := fmt.Sprintf("%s: %s compared", c.Scenario.Name, plural(len(c.Policies), "policy", "policies"))
	return s.build(figure{kind: "comparison", title: title, names: policyNames(c), chart: barChart,
		draw: func(l *layout) (float64, error) { return drawComparison(l, c, title) }})
}

func checkComparison(c *experiment.Comparison) error {
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

func policyNames(c *experiment.Comparison) []string {
	names := make([]string, len(c.Policies))
	for i, p := range c.Policies {
		names[i] = p.Name
	}
	return names
}

// drawComparison lays the comparison out on l.
func drawComparison(l *layout, c *experiment.Comparison, title string) (float64, error) {
	l.heading(title, comparisonCaption(c, l.s.paperColumn()))
	if !l.s.paperColumn() {
		// In a column the rows' names are the legend: every panel names them.
		l.legend(markerEntries(l.canvas, policyNames(c)), edge, l.w-2*edge)
	}
	g := newPanels(l, c)
	rowH := g.rowHeight(l)
	if rowH < 0 {
		return g.height(l, g.minRow), nil
	}
	g.place(l, c, rowH)
	l.tooltip("item", itemTooltip)
	return g.height(l, rowH), nil
}

// comparisonCaption is the subtitle: what was run, who did best, and how
// to read the marks.
func comparisonCaption(c *experiment.Comparison, column bool) string {
	lines := []string{setupLine(c), winnersLine(c),
		"bars, ticks and values: medians across seeds · markers: single seeds · whiskers: p99 min–max across seeds (observed, not a confidence interval) · dashed: SLO"}
	var none []string
	for _, p := range c.Policies {
		if p.Summary.LatencyRuns == 0 {
			none = append(none, p.Name)
		}
	}
	if len(none) > 0 {
		lines = append(lines, "no p99 (no run completed a cohort request): "+strings.Join(none, ", "))
	}
	if column {
		lines = append(lines, "goodput and lost requests: in the two-column figure and the table")
	}
	return strings.Join(lines, "\n")
}

// markerEntries are legend entries showing each name's marker.
func markerEntries(cv *canvas, names []string) []legendEntry {
	out := make([]legendEntry, len(names))
	for i, n := range names {
		st := cv.style(n)
		out[i] = legendEntry{name: n, icon: string(st.Marker), fill: st.Color}
	}
	return out
}

// setupLine describes what was run.
func setupLine(c *experiment.Comparison) string {
	return fmt.Sprintf("%s · %s · %d seeds · %g s measured after %g s warm-up · %s",
		c.Scenario.Cluster(), c.Scenario.Traffic(), len(c.Seeds), c.Protocol.Measure/1000, c.Protocol.Warmup/1000, c.SLOText())
}

// winnersLine names the best median p99 and the best median attainment.
func winnersLine(c *experiment.Comparison) string {
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

// panels is the geometry of the four metric panels at the layout's width:
// how many stand side by side, the column of policy names, each panel's
// width and ticks, and the texts whose height the layout must reserve.
type panels struct {
	n, cols         int
	np              int      // panels drawn: 4, or 2 (p99, attainment) in a paper column
	names           []string // policy names, wrapped to the name column
	nameW           float64  // the name column, axis label margin included
	pw, gapX        float64  // panel width and the gap between panels
	x               [4]ticks
	heads, axisName [4][]string
	lostLabels      []string
	minRow          float64
}

// The panels' fixed texts.
var (
	panelHeads = [4]string{"p99 latency", "SLO attainment", "goodput", "lost: shed (solid) + unfinished (light)"}
	axisUnits  = [4]string{"p99 (ms)", "attainment (%)", "goodput (req/s)", "lost (requests per run)"}
)

const minPanel = 72.0 // the narrowest panel worth drawing: "0 50 100" fits

func newPanels(l *layout, c *experiment.Comparison) *panels {
	g := &panels{n: len(c.Policies), np: 4}
	if l.s.paperColumn() {
		g.np = 2
	}
	for _, p := range c.Policies {
		g.lostLabels = append(g.lostLabels, strconv.FormatFloat(lostOf(p.Summary), 'g', -1, 64))
	}
	room := l.w - 2*edge
	nameRoom := math.Min(fontText.widest(policyNames(c)), math.Max(80, 0.28*room))
	for _, n := range policyNames(c) {
		g.names = append(g.names, strings.Join(fontText.wrap(n, nameRoom), "\n"))
	}
	g.nameW = fontText.widest(strings.Split(strings.Join(g.names, "\n"), "\n")) + 8
	for _, cols := range []int{4, 2, 1} {
		if cols > g.np {
			continue
		}
		g.cols = cols
		if g.fit(l, c, room) >= minPanel {
			break
		}
	}
	for p := range g.np {
		g.heads[p] = fontText.wrap(panelHeads[p], g.pw)
		g.axisName[p] = fontText.wrap(g.unit(p), g.pw)
		if l.s.paper {
			// On paper the heading is the axis name: one line of text less.
			g.heads[p], g.axisName[p] = g.axisName[p], nil
		}
	}
	return g
}

// unit is panel p's axis name.
func (g *panels) unit(p int) string {
	if p == 0 && g.x[0].log {
		return "p99 (ms, log scale)"
	}
	return axisUnits[p]
}

// fit sizes the panels for g.cols columns. The gap between panels must
// hold half of each neighbour's end tick labels, and the right margin half
// of the last one; the ticks depend on the panel width, so the widths are
// settled in turns. It returns the panel width.
func (g *panels) fit(l *layout, c *experiment.Comparison, room float64) float64 {
	g.gapX = 24
	right := 0.0
	for range 6 {
		g.pw = (room - g.nameW - right - g.gapX*float64(g.cols-1)) / float64(g.cols)
		if g.pw < minPanel {
			return g.pw
		}
		g.x = [4]ticks{latencyTicks(l.s.latency, c, g.pw), attainmentTicks(g.pw), goodputTicks(c, g.pw), lostTicks(c, g.pw, g.lostLabels)}
		gapX, r := 24.0, 0.0
		for p := range g.np {
			if (p+1)%g.cols != 0 {
				gapX = math.Max(gapX, (g.x[p].last()+g.x[p+1].first())/2+14)
			} else {
				r = math.Max(r, g.x[p].last()/2)
			}
		}
		if gapX <= g.gapX && r <= right {
			break
		}
		g.gapX, right = math.Max(g.gapX, gapX), math.Max(right, r)
	}
	return g.pw
}

// panelRows is how many rows of panels there are.
func (g *panels) panelRows() int { return g.np / g.cols }

// rowHeight is the height of a policy's row: what its wrapped name needs,
// at least 30 px, more when a fixed figure height leaves room; -1 when
// not even the least fits.
func (g *panels) rowHeight(l *layout) float64 {
	lines := 1
	for _, n := range g.names {
		lines = max(lines, strings.Count(n, "\n")+1)
	}
	g.minRow = math.Max(30, float64(lines)*fontText.lineHeight()+10)
	if l.s.paper {
		// A page is read close up: rows need only hold their name and markers.
		g.minRow = math.Max(16, float64(lines)*fontText.lineHeight()+2)
	}
	if l.h == 0 {
		return g.minRow
	}
	fixed := g.height(l, 0)
	row := (l.h - fixed) / float64(g.n*g.panelRows())
	if row < g.minRow {
		return -1
	}
	return math.Min(row, 3*g.minRow)
}

// stripH is the band between a panel's heading and its plot that holds
// the SLO's label.
const stripH = 16.0

// blockHeight is one row of panels without its policy rows: heading, the
// SLO strip, tick labels and axis name.
func (g *panels) blockHeight(pr int) float64 {
	head, name := 0, 0
	for p := pr * g.cols; p < (pr+1)*g.cols; p++ {
		head, name = max(head, len(g.heads[p])), max(name, len(g.axisName[p]))
	}
	return float64(head)*fontText.lineHeight() + stripH + xFooter(name) + 2*gap
}

// height is the figure's height with rows of rowH.
func (g *panels) height(l *layout, rowH float64) float64 {
	h := l.y
	for pr := range g.panelRows() {
		h += g.blockHeight(pr) + float64(g.n)*rowH
	}
	return h + edge
}

// place writes the grids, axes, headings and series.
func (g *panels) place(l *layout, c *experiment.Comparison, rowH float64) {
	var grids []opts.Grid
	var xAxes, yAxes []any
	top := l.y
	for pr := range g.panelRows() {
		headH := 0.0
		for col := range g.cols {
			headH = math.Max(headH, float64(len(g.heads[pr*g.cols+col]))*fontText.lineHeight())
		}
		gridTop := top + headH + stripH
		for col := range g.cols {
			p := pr*g.cols + col
			left := edge + g.nameW + float64(col)*(g.pw+g.gapX)
			l.text(g.heads[p], fontText, left, top, "")
			grids = append(grids, gridAt(left, gridTop, g.pw, float64(g.n)*rowH, l.w))
			xAxes = append(xAxes, g.x[p].axis(p, strings.Join(g.axisName[p], "\n"), map[string]any{"nameGap": xNameGap()}))
			yAxes = append(yAxes, policyAxis(p, g.names, col == 0))
		}
		top += g.blockHeight(pr) + float64(g.n)*rowH
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"], l.raw["yAxis"] = xAxes, yAxes
	latencyPanel(l, c, g.x[0], g.pw, rowH)
	for i, p := range c.Policies {
		metricPanels(l, i, g.n, p, c.Seeds, rowH, g.np)
	}
	if g.np == 4 {
		lostLabels(l, c, g.lostLabels)
	}
}

// policyAxis lists the policies top to bottom, naming them when labels.
func policyAxis(grid int, names []string, labels bool) map[string]any {
	return map[string]any{"type": "category", "gridIndex": grid, "data": strings2any(names), "inverse": true,
		"axisLabel": map[string]any{"show": labels, "interval": 0, "fontSize": fontText.size, "lineHeight": fontText.lineHeight(), "margin": 8},
		"axisTick":  map[string]any{"show": false}}
}

// latencyTicks is the p99 axis: log when the p99s span ten times or more
// (ScaleAuto), from the SLO or the lowest p99 to the highest.
func latencyTicks(scale Scale, c *experiment.Comparison, pw float64) ticks {
	lo, hi := math.Inf(1), c.Protocol.SLO
	for _, p := range c.Policies {
		if p.Summary.LatencyRuns > 0 {
			lo, hi = math.Min(lo, p.Summary.P99Min), math.Max(hi, p.Summary.P99Max)
		}
	}
	if scale == ScaleAuto {
		scale = ScaleLinear
		if !math.IsInf(lo, 1) && lo > 0 && hi/lo >= 10 {
			scale = ScaleLog
		}
	}
	if scale == ScaleLog {
		bottom := math.Min(c.Protocol.SLO, lo)
		if math.IsInf(lo, 1) || lo <= 0 {
			bottom = c.Protocol.SLO
		}
		return logTicks(bottom, hi, pw, true)
	}
	return linearTicks(0, hi, pw, true, 6)
}

// medianLabel places a policy's median p99 on axis t of width pw: right of
// its whisker, else left of it, else above the whisker in its row, kept
// within the panel.
func medianLabel(t ticks, s experiment.Summary, row int, text string, pw, rowH float64) placed {
	w := fontValue.width(text)
	p := placed{x: s.P99Max, y: float64(row), dx: 8, dy: -fontValue.lineHeight() / 2, lines: []string{text}, font: fontValue, align: "left"}
	switch {
	case t.px(s.P99Max, pw)+8+w <= pw:
	case t.px(s.P99Min, pw)-8-w >= 0:
		p.x, p.dx, p.align = s.P99Min, -8, "right"
	default:
		p.x, p.dx, p.dy = s.MedianP99, 0, -rowH/2+1
		p.align = anchor(t.px(s.MedianP99, pw), w, 0, pw)
	}
	return p
}

func attainmentTicks(pw float64) ticks { return linearTicks(0, 100, pw, true, 5) }

func goodputTicks(c *experiment.Comparison, pw float64) ticks {
	var hi float64
	for _, p := range c.Policies {
		for _, r := range p.Runs {
			hi = math.Max(hi, r.GoodputRPS)
		}
	}
	return linearTicks(0, math.Max(hi, 1), pw, true, 5)
}

func lostOf(s experiment.Summary) float64 { return s.MedianShed + s.MedianUnfinished }

// lostTicks leaves room right of each lost-requests bar for its count.
func lostTicks(c *experiment.Comparison, pw float64, labels []string) ticks {
	top := 1.0
	for i, p := range c.Policies {
		top = math.Max(top, lostOf(p.Summary)*pw/math.Max(pw-fontValue.width(labels[i])-10, 1))
	}
	t := linearTicks(0, top, pw, true, 5)
	if t.interval < 1 { // whole requests
		t = linearTicks(0, top, pw, true, int(math.Max(1, math.Floor(top))))
	}
	return t
}

// latencyPanel adds the SLO line and its label, and per policy the p99
// whisker, median tick and value, and seed markers.
func latencyPanel(l *layout, c *experiment.Comparison, x ticks, pw, rowH float64) {
	slo := c.Protocol.SLO
	l.add(marks(0, func(s *charts.SingleSeries) { s.MarkLines = rule("xAxis", slo) }))
	text := fmt.Sprintf("SLO %g ms", slo)
	align := anchor(x.px(slo, pw), fontSmallest.width(text), 0, pw)
	l.labels(0, []placed{{x: slo, y: 0, top: true, dy: -stripH + 1, lines: []string{text}, font: fontSmallest, align: align, color: neutral}})
	var medians []placed
	for i, p := range c.Policies {
		if p.Summary.LatencyRuns == 0 {
			continue
		}
		latencyRow(l, i, p, c.Seeds, rowH)
		label := medianLabel(x, p.Summary, i, ms(p.Summary.MedianP99), pw, rowH)
		label.color = l.color(p.Name)
		medians = append(medians, label)
	}
	l.labels(0, medians)
}

// whisker draws [category, lo, median, hi] items as a horizontal min–max
// range with end caps and a taller tick at the median, in the series'
// colour.
const whisker = `function (params, api) {
  var y = api.value(0), a = api.coord([api.value(1), y]), m = api.coord([api.value(2), y]), b = api.coord([api.value(3), y]);
  var h = api.size([0, 1])[1] * 0.3, st = {stroke: api.visual("color"), lineWidth: 1.5};
  return {type: "group", children: [
    {type: "line", shape: {x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, style: st},
    {type: "line", shape: {x1: a[0], y1: a[1] - h / 2, x2: a[0], y2: a[1] + h / 2}, style: st},
    {type: "line", shape: {x1: b[0], y1: b[1] - h / 2, x2: b[0], y2: b[1] + h / 2}, style: st},
    {type: "rect", shape: {x: m[0] - 2, y: m[1] - h, width: 4, height: 2 * h}, style: {fill: api.visual("color")}}]};
}`

func latencyRow(l *layout, i int, p experiment.PolicyResult, seeds []uint64, rowH float64) {
	s := p.Summary
	st := l.style(p.Name)
	of := fmt.Sprintf("%d of %d runs", s.LatencyRuns, s.Runs)
	if s.LatencyRuns == s.Runs {
		of = fmt.Sprintf("%d runs", s.Runs)
	}
	tip := fmt.Sprintf("median p99 %s\np99 range %s – %s across %s", ms(s.MedianP99), ms(s.P99Min), ms(s.P99Max), of)
	l.add(charts.SingleSeries{Name: p.Name, Type: "custom", XAxisIndex: 0, YAxisIndex: 0,
		RenderItem: opts.FuncOpts(whisker), Encode: &opts.Encode{X: []int{1, 2, 3}, Y: 0},
		ItemStyle: &opts.ItemStyle{Color: st.Color},
		Data:      []any{item([]any{i, round(s.P99Min, 3), round(s.MedianP99, 3), round(s.P99Max, 3)}, tip)}})
	var dots []any
	for k, r := range p.Runs {
		if r.Latency.Count == 0 {
			continue
		}
		d := item([]any{round(r.Latency.P99, 3), i}, fmt.Sprintf("seed %d: p99 %s", seeds[k], ms(r.Latency.P99)))
		d["symbolOffset"] = []any{0, jitter(k, len(p.Runs), rowH)}
		dots = append(dots, d)
	}
	l.add(seedDots(p.Name, st, 0, dots))
}

// jitter spreads the markers of a row vertically, in seed order, so equal
// values stay visible (deterministic, within the row's middle half).
func jitter(k, n int, rowH float64) float64 {
	if n < 2 {
		return 0
	}
	half := rowH/2 - 8
	step := math.Min(4, 2*half/float64(n-1))
	return round((float64(k)-float64(n-1)/2)*step, 1)
}

func seedDots(name string, st style, grid int, data []any) charts.SingleSeries {
	return charts.SingleSeries{Name: name, Type: "scatter", XAxisIndex: grid, YAxisIndex: grid,
		Symbol: string(st.Marker), SymbolSize: 7, ItemStyle: &opts.ItemStyle{Color: st.Color, Opacity: opts.Float(0.9)}, Data: data}
}

// metricPanels adds a policy's attainment, goodput and lost-request bars
// (the attainment only, with np 2 panels).
// Each policy's bar is its own series with values only in its own row, and
// all bars of a panel share a stack, so each row holds one centred bar in
// the policy's colour.
func metricPanels(l *layout, i, n int, p experiment.PolicyResult, seeds []uint64, rowH float64, np int) {
	s, color := p.Summary, l.color(p.Name)
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
			Label: &opts.Label{Show: opts.Bool(label != ""), Position: "insideLeft", Formatter: label, FontSize: float32(fontValue.size),
				FontWeight: "bold", Color: color},
			Data: row(v, tip)}
	}
	st := l.style(p.Name)
	cv := l.canvas
	cv.add(bar(1, "attainment", round(100*s.MedianAttainment, 3), pct(s.MedianAttainment),
		fmt.Sprintf("median attainment %s (on time / cohort arrivals)\nmedian SLO-miss rate %s", pct(s.MedianAttainment), pct(s.MedianSLOMissRate)), 0.12))
	cv.add(seedDots(p.Name, st, 1, runDots(p, seeds, i, rowH, func(r *engine.RunResult) (float64, string) {
		return 100 * r.Attainment, pct(r.Attainment)
	})))
	if np < 4 {
		return
	}
	cv.add(bar(2, "goodput", round(s.MedianGoodput, 3), strconv.FormatFloat(s.MedianGoodput, 'f', 1, 64),
		fmt.Sprintf("median goodput %.1f req/s on time\nmedian throughput %.1f req/s", s.MedianGoodput, s.MedianThroughput), 0.12))
	cv.add(seedDots(p.Name, st, 2, runDots(p, seeds, i, rowH, func(r *engine.RunResult) (float64, string) {
		return r.GoodputRPS, strconv.FormatFloat(r.GoodputRPS, 'f', 1, 64) + " req/s"
	})))
	lost := fmt.Sprintf("median shed %g, unfinished %g of %g cohort arrivals", s.MedianShed, s.MedianUnfinished, s.MedianCohort)
	cv.add(bar(3, "lost", s.MedianShed, "", "shed (no eligible replica)\n"+lost, 0.8))
	cv.add(bar(3, "lost", s.MedianUnfinished, "", "unfinished at the cutoff\n"+lost, 0.12))
}

// lostLabels writes each policy's lost count right of its bar.
func lostLabels(l *layout, c *experiment.Comparison, texts []string) {
	var out []placed
	for i, p := range c.Policies {
		out = append(out, placed{x: lostOf(p.Summary), y: float64(i), dx: 6, dy: -fontValue.lineHeight() / 2,
			lines: []string{texts[i]}, font: fontValue, align: "left", color: l.color(p.Name)})
	}
	l.labels(3, out)
}

// runDots are a policy's per-seed values in a panel; runs where value is
// undefined are left out.
func runDots(p experiment.PolicyResult, seeds []uint64, row int, rowH float64, value func(*engine.RunResult) (float64, string)) []any {
	var dots []any
	for k, r := range p.Runs {
		v, text := value(r)
		if !defined(v) {
			continue
		}
		d := item([]any{round(v, 3), row}, fmt.Sprintf("seed %d: %s", seeds[k], text))
		d["symbolOffset"] = []any{0, jitter(k, len(p.Runs), rowH)}
		dots = append(dots, d)
	}
	return dots
}
