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
// that a row reads as one policy and a panel as one metric. The
// specification's model shows the p99 latency (each seed's p99 as a
// marker, the min–max as a whisker, the median as a tick and a value, the
// SLO as a dashed line), SLO attainment, goodput, and the requests lost to
// shedding or still unfinished at the cutoff; a comparison of the serving
// model shows its own instead: TTFT p99 and ITL p99 drawn as the p99 is,
// with the serving SLO's targets, and the serving SLO's attainment and
// goodput (comparisonPanels lists both). The panels stand side by side when
// the width allows, else two by two, else one above the other. Runs without
// a value are left out of a panel, never drawn as zero. The subtitle names
// the policy with the lowest median of the first latency and the one with
// the highest attainment.
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
	set, err := comparisonPanels(c)
	if err != nil {
		return 0, err
	}
	l.heading(title, comparisonCaption(c, set, l.s.paperColumn()))
	if l.s.paperColumn() {
		// In a column the rows' names are the legend: every panel names them.
		l.raw["legend"] = map[string]any{"show": false}
	} else {
		l.legend(markerEntries(l.canvas, policyNames(c)), edge, l.w-2*edge)
	}
	g := newPanels(l, c, set)
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
func comparisonCaption(c *experiment.Comparison, set panelSet, column bool) string {
	lines := []string{setupLine(c), winnersLine(c, set.panels),
		"bars, ticks and values: medians across seeds · markers: single seeds · whiskers: p99 min–max across seeds (observed, not a confidence interval) · dashed: " + set.slo}
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
		var left []string
		for _, mp := range set.panels {
			if !mp.column {
				left = append(left, mp.short)
			}
		}
		lines = append(lines, strings.Join(left, " and ")+": in the two-column figure and the table")
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

// winnersLine names, for each panel that has a winner, the policy with
// the best median (the first of equals).
func winnersLine(c *experiment.Comparison, panels []metricPanel) string {
	var parts []string
	for _, mp := range panels {
		if mp.best == "" {
			continue
		}
		best, bestV := -1, math.NaN()
		for i, p := range c.Policies {
			if v := p.Summary.MedianOf(mp.key); defined(v) && (best < 0 || mp.metric.Better.Winner(v-bestV) > 0) {
				best, bestV = i, v
			}
		}
		if best >= 0 {
			parts = append(parts, fmt.Sprintf("%s: %s (%s)", mp.best, c.Policies[best].Name, mp.text(bestV)))
		}
	}
	return strings.Join(parts, " · ")
}

// panelKind is how a panel of the comparison draws its metric.
type panelKind int

const (
	// rangePanel draws each seed's value as a marker, the min–max as a
	// whisker, the median as a tick and a value, and the target as a dashed
	// line.
	rangePanel panelKind = iota
	// barPanel draws the median as a bar with its value and each seed as a
	// marker.
	barPanel
	// lostPanel draws the median shed and unfinished requests, stacked.
	lostPanel
)

// metricPanel is one panel of the comparison figure: the metric it reads
// by its record name from every run and summary, and how it shows it.
type metricPanel struct {
	kind       panelKind
	key        string                          // engine.Metrics; a lost panel reads shed and unfinished
	head       string                          // the heading
	axis       string                          // the axis name's quantity; the unit follows in brackets
	unit       string                          // the axis name's unit: "ms", "%", "req/s"
	stack      string                          // a bar's stack, one per panel
	target     float64                         // a range panel's SLO target, drawn dashed; 0 for none
	targetText string                          // the target's label: "SLO 50 ms"
	column     bool                            // drawn in a paper column's figure too
	best       string                          // names the winner in the subtitle ("lowest median p99"); "" for none
	short      string                          // names the panel in the column figure's note when left out
	more       func(experiment.Summary) string // a bar's tooltip after "median NAME VALUE"
	metric     engine.Metric
	bare       bool // values without their unit, which the axis name gives (a paper column's narrow panels)
}

// panelSet is what a comparison figure draws: four panels, two of them in
// a paper column, and the name of the SLO whose targets are dashed.
type panelSet struct {
	panels []metricPanel
	slo    string
}

// comparisonPanels are the panels of a comparison: the specification's
// (p99, attainment and goodput on the end-to-end SLO, lost requests), or
// the serving model's (TTFT and ITL p99 against the serving SLO's targets,
// its attainment and goodput).
func comparisonPanels(c *experiment.Comparison) (panelSet, error) {
	set := panelSet{slo: "SLO", panels: []metricPanel{
		{kind: rangePanel, key: "p99_ms", head: "p99 latency", axis: "p99", unit: "ms", target: c.Protocol.SLO, targetText: fmt.Sprintf("SLO %g ms", c.Protocol.SLO), column: true, best: "lowest median p99"},
		{kind: barPanel, key: "attainment", head: "SLO attainment", axis: "attainment", unit: "%", stack: "attainment", column: true, best: "highest attainment",
			more: func(s experiment.Summary) string {
				return " (on time / cohort arrivals)\nmedian SLO-miss rate " + pct(s.MedianOf("slo_miss_rate"))
			}},
		{kind: barPanel, key: "goodput_rps", head: "goodput", axis: "goodput", unit: "req/s", stack: "goodput", short: "goodput", more: throughputNote},
		{kind: lostPanel, key: "shed", head: "lost: shed (solid) + unfinished (light)", axis: "lost", unit: "requests per run", stack: "lost", short: "lost requests"},
	}}
	if srv := c.Scenario.Serving; srv != nil {
		set = panelSet{slo: "serving SLO", panels: []metricPanel{
			{kind: rangePanel, key: "ttft_p99_ms", head: "TTFT p99", axis: "TTFT p99", unit: "ms", target: srv.SLO.TTFTMs, targetText: fmt.Sprintf("TTFT ≤ %g ms", srv.SLO.TTFTMs), column: true, best: "lowest median TTFT p99"},
			{kind: rangePanel, key: "itl_p99_ms", head: "ITL p99", axis: "ITL p99", unit: "ms", target: srv.SLO.ITLMs, targetText: fmt.Sprintf("ITL ≤ %g ms", srv.SLO.ITLMs), short: "ITL p99"},
			{kind: barPanel, key: "serving_attainment", head: "serving SLO attainment", axis: "attainment", unit: "%", stack: "attainment", column: true, best: "highest serving attainment",
				more: func(experiment.Summary) string { return " (serving on time / cohort arrivals)" }},
			{kind: barPanel, key: "serving_goodput_rps", head: "serving goodput", axis: "goodput", unit: "req/s", stack: "goodput", short: "serving goodput", more: throughputNote},
		}}
	}
	for i := range set.panels {
		m, err := engine.MetricByKey(set.panels[i].key)
		if err != nil {
			return panelSet{}, fmt.Errorf("plot: comparison panel %q: %w", set.panels[i].head, err)
		}
		set.panels[i].metric = m
	}
	return set, nil
}

func throughputNote(s experiment.Summary) string {
	return fmt.Sprintf(" on time\nmedian throughput %.1f req/s", s.MedianOf("throughput_rps"))
}

// of is the panel's metric for a run; NaN for a run without it.
func (mp metricPanel) of(r *engine.RunResult) float64 {
	if !mp.metric.Has(&r.RunSummary) {
		return math.NaN()
	}
	return mp.metric.Of(&r.RunSummary)
}

// scale is what a value is multiplied by on the panel's axis: a fraction
// shows as a percentage.
func (mp metricPanel) scale() float64 {
	if mp.metric.Unit == "fraction" {
		return 100
	}
	return 1
}

// text is a value of the panel's metric for people, with its unit.
func (mp metricPanel) text(v float64) string {
	switch {
	case mp.bare && mp.metric.Unit == "ms":
		return strings.TrimSuffix(ms(v), " ms")
	case mp.bare:
		return mp.label(v)
	}
	switch mp.metric.Unit {
	case "ms":
		return ms(v)
	case "fraction":
		return pct(v)
	}
	return mp.label(v) + " " + mp.metric.Unit
}

// label is a bar's value: a percentage, or the value to one decimal.
func (mp metricPanel) label(v float64) string {
	text := strconv.FormatFloat(v, 'f', 1, 64)
	if mp.metric.Unit == "fraction" {
		text = pct(v)
	}
	if mp.bare { // a narrow panel: 100% and 12, not 100.0% and 12.0
		text = strings.Replace(text, ".0%", "%", 1)
		text = strings.TrimSuffix(text, ".0")
	}
	return text
}

// axisName is the panel's axis name with its unit.
func (mp metricPanel) axisName(log bool) string {
	if log {
		return fmt.Sprintf("%s (%s, log scale)", mp.axis, mp.unit)
	}
	return fmt.Sprintf("%s (%s)", mp.axis, mp.unit)
}

// extent is the observed min and max of the panel's metric over a
// policy's runs (NaN when no run has it), and how many runs have it.
func (mp metricPanel) extent(p experiment.PolicyResult) (lo, hi float64, n int) {
	xs := make([]float64, len(p.Runs))
	for k, r := range p.Runs {
		if xs[k] = mp.of(r); defined(xs[k]) {
			n++
		}
	}
	lo, hi = engine.MinMax(xs)
	return lo, hi, n
}

// panels is the geometry of the metric panels at the layout's width:
// how many stand side by side, the column of policy names, each panel's
// width and ticks, and the texts whose height the layout must reserve.
type panels struct {
	n, cols         int
	np              int           // panels drawn: 4, or the 2 of a paper column
	drawn           []metricPanel // the panels drawn, in order
	names           []string      // policy names, wrapped to the name column
	nameW           float64       // the name column, axis label margin included
	pw, gapX        float64       // panel width and the gap between panels
	x               []ticks
	heads, axisName [][]string
	lostLabels      []string
	minRow          float64
	col             []float64 // per panel, the value column right of its axis (0: none)
}

// axisW is the width of panel p's axis: the panel less its value column.
func (g *panels) axisW(p int) float64 { return g.pw - g.col[p] }

const minPanel = 72.0 // the narrowest panel worth drawing: "0 50 100" fits

func newPanels(l *layout, c *experiment.Comparison, set panelSet) *panels {
	g := &panels{n: len(c.Policies)}
	for _, mp := range set.panels {
		if mp.column || !l.s.paperColumn() {
			mp.bare = l.s.paperColumn()
			g.drawn = append(g.drawn, mp)
		}
	}
	g.np = len(g.drawn)
	g.x, g.heads, g.axisName, g.col = make([]ticks, g.np), make([][]string, g.np), make([][]string, g.np), make([]float64, g.np)
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
		// A value column may take panels off a row (the figure grows),
		// unless the height is fixed (a page, or WithSize): then it may
		// only narrow an axis, down to minPanel/2.
		if axisW := g.fit(l, c, room); axisW >= minPanel || (l.s.paper || l.h > 0) && g.pw >= minPanel {
			break
		}
	}
	for p, mp := range g.drawn {
		g.heads[p] = fontText.wrap(mp.head, g.pw)
		g.axisName[p] = fontText.wrap(mp.axisName(mp.kind == rangePanel && g.x[p].log), g.pw)
		if l.s.paper {
			// On paper the heading is the axis name: one line of text less.
			g.heads[p], g.axisName[p] = g.axisName[p], nil
		}
	}
	return g
}

// fit sizes the panels for g.cols columns. The gap between panels must
// hold half of each neighbour's end tick labels, and the right margin half
// of the last one; the ticks depend on the panel width, so the widths are
// settled in turns. It returns the narrowest axis: the panel width less
// the widest value column a panel needs.
func (g *panels) fit(l *layout, c *experiment.Comparison, room float64) (axisW float64) {
	g.gapX = 24
	right := 0.0
	for range 6 {
		g.pw = (room - g.nameW - right - g.gapX*float64(g.cols-1)) / float64(g.cols)
		if g.pw < minPanel {
			return g.pw
		}
		axisW = g.pw
		for p, mp := range g.drawn {
			g.col[p] = 0
			g.x[p] = mp.ticks(l.s.latency, c, g.pw, g.lostLabels)
			if w := mp.columnFor(c, g.x[p], g.pw); w > 0 {
				// Some value fits neither beside its marks nor inside its
				// bar: the panel's values get a column right of its axis,
				// if the axis left is wide enough to be worth drawing.
				axisW = math.Min(axisW, g.pw-w-labelGap)
				if g.pw-w-labelGap >= minPanel/2 {
					g.col[p] = w + labelGap
					g.x[p] = mp.ticks(l.s.latency, c, g.axisW(p), g.lostLabels)
				}
			}
		}
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
	return axisW
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
			grids = append(grids, gridAt(left, gridTop, g.axisW(p), float64(g.n)*rowH, l.w))
			xAxes = append(xAxes, g.x[p].axis(p, strings.Join(g.axisName[p], "\n"), map[string]any{"nameGap": xNameGap()}))
			yAxes = append(yAxes, policyAxis(p, g.names, col == 0))
		}
		top += g.blockHeight(pr) + float64(g.n)*rowH
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"], l.raw["yAxis"] = xAxes, yAxes
	for p, mp := range g.drawn {
		if mp.kind == rangePanel {
			rangePanelSeries(l, c, p, mp, g.x[p], g.axisW(p), g.col[p] > 0, rowH)
		}
	}
	values := map[int][]placed{}
	for i, p := range c.Policies {
		metricPanels(l, i, g.n, p, c.Seeds, rowH, g, values)
	}
	for p := range g.drawn {
		l.labels(p, values[p])
	}
	for p, mp := range g.drawn {
		if mp.kind == lostPanel {
			lostLabels(l, c, p, g.lostLabels)
		}
	}
}

// policyAxis lists the policies top to bottom, naming them when labels.
func policyAxis(grid int, names []string, labels bool) map[string]any {
	return map[string]any{"type": "category", "gridIndex": grid, "data": strings2any(names), "inverse": true,
		"axisLabel": map[string]any{"show": labels, "interval": 0, "fontSize": fontText.size, "lineHeight": fontText.lineHeight(), "margin": 8},
		"axisTick":  map[string]any{"show": false}}
}

// ticks is the panel's axis at width pw: a fraction from 0 to 100 %, a
// range panel's as rangeTicks, a bar's from 0 to the largest run's value,
// the lost requests with room for their counts.
func (mp metricPanel) ticks(scale Scale, c *experiment.Comparison, pw float64, lost []string) ticks {
	switch {
	case mp.kind == lostPanel:
		return lostTicks(c, pw, lost)
	case mp.metric.Unit == "fraction":
		return linearTicks(0, 100, pw, true, 5)
	case mp.kind == rangePanel:
		return mp.rangeTicks(scale, c, pw)
	}
	var hi float64
	var ends []valueEnd
	for _, p := range c.Policies {
		if bottom, top, n := mp.extent(p); n > 0 {
			hi = math.Max(hi, top)
			med := p.Summary.MedianOf(mp.key)
			lo, label := mp.scale()*math.Min(bottom, med), mp.label(med)
			ends = append(ends, valueEnd{math.Max(top, med), fontValue.width(label), func(t ticks) bool {
				return insideFits(t, pw, mp.scale()*med, lo, label)
			}})
		}
	}
	return withLabelRoom(ends, pw, func(top float64) ticks { return linearTicks(0, math.Max(top, 1), pw, true, 5) }, math.Max(hi, 1))
}

// maxSqueeze is the least fraction of a panel's axis that making room for
// value labels may leave the data.
const maxSqueeze = 0.6

// valueEnd is where a row's marks end on a panel's axis, the width of
// the value label drawn right of them, and whether on axis t the label
// fits left of the marks (or inside its bar) instead.
type valueEnd struct {
	x, w     float64
	fitsLeft func(t ticks) bool
}

// labelGap is the room between a row's last mark and its value label.
const labelGap = 8.0

// withLabelRoom returns the ticks axis(top) gives for the least top, from
// hi up, that leaves room right of each row's marks for its value label,
// labelGap from the marks' end, within the panel of width pw: the labels
// go beside the data, never on it. Rows whose label fits left of their
// marks (or inside their bar) are not made room for, nor those whose label
// would leave the data less than maxSqueeze of the panel: their panel
// gets a value column instead (columnFor).
func withLabelRoom(ends []valueEnd, pw float64, axis func(top float64) ticks, hi float64) ticks {
	t := axis(hi)
	for range 8 {
		top := t.max
		for _, e := range ends {
			room := pw - labelGap - e.w - 2
			if room < maxSqueeze*pw || t.px(e.x, pw) <= room || e.fitsLeft(t) {
				continue
			}
			// The end at fraction room/pw of the axis.
			f := room / pw
			if t.log {
				lo := math.Log10(t.min)
				top = math.Max(top, math.Pow(10, lo+(math.Log10(e.x)-lo)/f))
			} else {
				top = math.Max(top, t.min+(e.x-t.min)/f)
			}
		}
		if top <= t.max {
			break
		}
		t = axis(top)
	}
	return t
}

// rangeTicks is a range panel's axis: log when its values span ten times
// or more (ScaleAuto), from the target or the lowest value to the highest.
func (mp metricPanel) rangeTicks(scale Scale, c *experiment.Comparison, pw float64) ticks {
	lo, hi := math.Inf(1), mp.target
	for _, p := range c.Policies {
		if plo, phi, n := mp.extent(p); n > 0 {
			lo, hi = math.Min(lo, plo), math.Max(hi, phi)
		}
	}
	if scale == ScaleAuto {
		scale = ScaleLinear
		if !math.IsInf(lo, 1) && lo > 0 && hi/lo >= 10 {
			scale = ScaleLog
		}
	}
	bottom := lo
	if mp.target > 0 && (math.IsInf(lo, 1) || lo <= 0 || mp.target < lo) {
		bottom = mp.target
	}
	var ends []valueEnd
	for _, p := range c.Policies {
		if plo, phi, n := mp.extent(p); n > 0 {
			w := fontValue.width(mp.text(p.Summary.MedianOf(mp.key)))
			ends = append(ends, valueEnd{phi, w, func(t ticks) bool { return t.px(plo, pw)-labelGap-w >= 0 }})
		}
	}
	if scale == ScaleLog && bottom > 0 && !math.IsInf(bottom, 1) {
		return withLabelRoom(ends, pw, func(top float64) ticks { return logTicks(bottom, top, pw, true) }, hi)
	}
	return withLabelRoom(ends, pw, func(top float64) ticks { return linearTicks(0, top, pw, true, 6) }, hi)
}

// medianLabel places a policy's median on axis t of width pw, given the
// min–max of its seeds: right of its whisker, else left of it, else above
// the whisker in its row, kept within the panel; with a value column
// (column), in that column right of the axis rather than above.
func medianLabel(t ticks, lo, med, hi float64, row int, text string, pw float64, column bool, rowH float64) placed {
	w := fontValue.width(text)
	p := placed{x: hi, y: float64(row), dx: labelGap, dy: -fontValue.lineHeight() / 2, lines: []string{text}, font: fontValue, align: "left"}
	switch {
	case t.px(hi, pw)+labelGap+w <= pw:
	case t.px(lo, pw)-labelGap-w >= 0:
		p.x, p.dx, p.align = lo, -labelGap, "right"
	case column:
		p.x = t.max
	default:
		p.x, p.dx, p.dy = med, 0, -rowH/2+1
		p.align = anchor(t.px(med, pw), w, 0, pw)
	}
	return p
}

func lostOf(s experiment.Summary) float64 { return s.MedianOf("shed") + s.MedianOf("unfinished") }

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

// rangePanelSeries adds range panel mp's target line and its label, in
// grid, and per policy the whisker, median tick and value, and seed
// markers.
func rangePanelSeries(l *layout, c *experiment.Comparison, grid int, mp metricPanel, x ticks, pw float64, column bool, rowH float64) {
	if slo := mp.target; slo > 0 {
		l.add(marks(grid, func(s *charts.SingleSeries) { s.MarkLines = rule("xAxis", slo) }))
		text := mp.targetText
		align := anchor(x.px(slo, pw), fontSmallest.width(text), 0, pw)
		l.labels(grid, []placed{{x: slo, y: 0, top: true, dy: -stripH + 1, lines: []string{text}, font: fontSmallest, align: align, color: neutral}})
	}
	var medians []placed
	for i, p := range c.Policies {
		lo, hi, n := mp.extent(p)
		if n == 0 {
			continue
		}
		med := p.Summary.MedianOf(mp.key)
		rangeRow(l, grid, mp, i, p, c.Seeds, [3]float64{lo, med, hi}, n, rowH)
		label := medianLabel(x, lo, med, hi, i, mp.text(med), pw, column, rowH)
		label.color = l.color(p.Name)
		medians = append(medians, label)
	}
	l.labels(grid, medians)
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

// rangeRow draws policy p's whisker (lmh: min, median, max across its n
// seeds with the metric) and seed markers in row i of grid.
func rangeRow(l *layout, grid int, mp metricPanel, i int, p experiment.PolicyResult, seeds []uint64, lmh [3]float64, n int, rowH float64) {
	st := l.style(p.Name)
	of := fmt.Sprintf("%d of %d runs", n, len(p.Runs))
	if n == len(p.Runs) {
		of = fmt.Sprintf("%d runs", n)
	}
	name := mp.metric.Name
	tip := fmt.Sprintf("median %s %s\n%s range %s – %s across %s", name, ms(lmh[1]), name, ms(lmh[0]), ms(lmh[2]), of)
	l.add(charts.SingleSeries{Name: p.Name, Type: "custom", XAxisIndex: grid, YAxisIndex: grid,
		RenderItem: opts.FuncOpts(whisker), Encode: &opts.Encode{X: []int{1, 2, 3}, Y: 0},
		ItemStyle: &opts.ItemStyle{Color: st.Color},
		Data:      []any{item([]any{i, round(lmh[0], 3), round(lmh[1], 3), round(lmh[2], 3)}, tip)}})
	var dots []any
	for k, r := range p.Runs {
		v := mp.of(r)
		if !defined(v) {
			continue
		}
		d := item([]any{round(v, 3), i}, fmt.Sprintf("seed %d: %s %s", seeds[k], name, ms(v)))
		d["symbolOffset"] = []any{0, jitter(k, len(p.Runs), rowH)}
		dots = append(dots, d)
	}
	l.add(seedDots(p.Name, st, grid, dots))
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

// metricPanels adds a policy's bars in the bar and lost panels drawn.
// Each policy's bar is its own series with values only in its own row, and
// all bars of a panel share a stack, so each row holds one centred bar in
// the policy's colour.
//
// A bar's value sits inside it, at its left, when it ends before the
// bar's first seed marker; else right of the bar and its markers (added to
// values, by panel), where the panel's axis leaves room for it.
func metricPanels(l *layout, i, n int, p experiment.PolicyResult, seeds []uint64, rowH float64, g *panels, values map[int][]placed) {
	drawn := g.drawn
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
	for grid, mp := range drawn {
		switch mp.kind {
		case barPanel:
			med := s.MedianOf(mp.key)
			label := mp.label(med)
			if defined(med) && !valueInside(g.x[grid], g.axisW(grid), g.col[grid] > 0, mp, p, med, label) {
				values[grid] = append(values[grid], valueBeside(g.x[grid], g.axisW(grid), mp, p, i, med, label, color))
				label = ""
			}
			cv.add(bar(grid, mp.stack, round(mp.scale()*med, 3), label, "median "+mp.metric.Name+" "+mp.text(med)+mp.more(s), 0.12))
			cv.add(seedDots(p.Name, st, grid, runDots(p, seeds, i, rowH, func(r *engine.RunResult) (float64, string) {
				v := mp.of(r)
				return mp.scale() * v, mp.text(v)
			})))
		case lostPanel:
			shed, unfinished := s.MedianOf("shed"), s.MedianOf("unfinished")
			lost := fmt.Sprintf("median shed %g, unfinished %g of %g cohort arrivals", shed, unfinished, s.MedianOf("cohort_arrivals"))
			cv.add(bar(grid, mp.stack, shed, "", "shed (no eligible replica)\n"+lost, 0.8))
			cv.add(bar(grid, mp.stack, unfinished, "", "unfinished at the cutoff\n"+lost, 0.12))
		}
	}
}

// barLabelInset is how far ECharts sets an insideLeft bar label in from
// the bar's start; markerRadius is half a seed marker's size.
const (
	barLabelInset = 5.0
	markerRadius  = 3.5
)

// valueInside reports whether the value label of policy p's bar of median
// med fits inside the bar, at its left, clear of every seed marker: else
// it goes beside them (valueBeside). When neither fits in the panel it
// stays inside.
func valueInside(t ticks, pw float64, column bool, mp metricPanel, p experiment.PolicyResult, med float64, label string) bool {
	lo, hi, n := mp.extent(p)
	if n == 0 {
		lo, hi = med, med
	}
	if insideFits(t, pw, mp.scale()*med, mp.scale()*math.Min(lo, med), label) {
		return true
	}
	return !column && t.px(mp.scale()*math.Max(hi, med), pw)+labelGap+fontValue.width(label) > pw+1
}

// insideFits reports whether label fits inside a bar of value v, at its
// left, ending before the first seed marker, at first, on axis t of width
// pw.
func insideFits(t ticks, pw, v, first float64, label string) bool {
	end := barLabelInset + fontValue.width(label) + 1
	return t.px(v, pw) >= end+2 && t.px(first, pw)-markerRadius >= end
}

// valueBeside is the value label of policy p's bar in row i, right of the
// bar and its seed markers, or in the panel's value column when it does
// not fit there.
func valueBeside(t ticks, pw float64, mp metricPanel, p experiment.PolicyResult, i int, med float64, label, color string) placed {
	_, hi, n := mp.extent(p)
	if n == 0 {
		hi = med
	}
	x := mp.scale() * math.Max(hi, med)
	if t.px(x, pw)+labelGap+fontValue.width(label) > pw {
		x = t.max
	}
	return placed{x: x, y: float64(i), dx: labelGap, dy: -fontValue.lineHeight() / 2,
		lines: []string{label}, font: fontValue, align: "left", color: color}
}

// columnFor is the width of the value column panel mp needs on axis t of
// width pw: the widest of its values when one of them fits neither beside
// its marks nor (a bar's) inside its bar; 0 when all fit.
func (mp metricPanel) columnFor(c *experiment.Comparison, t ticks, pw float64) float64 {
	if mp.kind == lostPanel {
		return 0
	}
	widest, misfit := 0.0, false
	for _, p := range c.Policies {
		lo, hi, n := mp.extent(p)
		med := p.Summary.MedianOf(mp.key)
		if n == 0 || !defined(med) {
			continue
		}
		if mp.kind == rangePanel {
			text := mp.text(med)
			w := fontValue.width(text)
			widest = math.Max(widest, w)
			misfit = misfit || (t.px(hi, pw)+labelGap+w > pw && t.px(lo, pw)-labelGap-w < 0)
			continue
		}
		label := mp.label(med)
		w := fontValue.width(label)
		widest = math.Max(widest, w)
		misfit = misfit || !insideFits(t, pw, mp.scale()*med, mp.scale()*math.Min(lo, med), label) &&
			t.px(mp.scale()*math.Max(hi, med), pw)+labelGap+w > pw
	}
	if !misfit {
		return 0
	}
	return widest
}

// lostLabels writes each policy's lost count right of its bar in grid.
func lostLabels(l *layout, c *experiment.Comparison, grid int, texts []string) {
	var out []placed
	for i, p := range c.Policies {
		out = append(out, placed{x: lostOf(p.Summary), y: float64(i), dx: 6, dy: -fontValue.lineHeight() / 2,
			lines: []string{texts[i]}, font: fontValue, align: "left", color: l.color(p.Name)})
	}
	l.labels(grid, out)
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
