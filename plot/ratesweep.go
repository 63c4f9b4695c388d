package plot

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// RateSweep draws a sweep against its x value (the arrival rate for
// experiment.RateSweep points): above, each policy's median p99 on a log axis
// with the SLO, the queueing hockey stick; below, its median attainment.
// At each point a whisker in the policy's colour spans the min–max across
// seeds (whiskers of different policies side by side, so nothing blends).
// A rate sweep marks the cluster's capacity, and the caption explains the
// plateau at the top: once a policy overloads a replica (for round-robin,
// below capacity), requests still queued at the cutoff have no latency, so
// p99 stops growing with the backlog. Points where a policy has no latency
// figure leave a gap.
func RateSweep(sw *experiment.SweepResult, options ...Option) (*Figure, error) {
	order, xs, err := sweepOrder(sw)
	if err != nil {
		return nil, err
	}
	s, err := applyOptions(options, 1000)
	if err != nil {
		return nil, err
	}
	first := sw.Comparisons[0]
	xname := sw.XLabel
	if xname == "" {
		xname = "arrival rate (req/s)"
	}
	title := fmt.Sprintf("%s: p99 and attainment against %s", first.Scenario.Name, xname)
	sw2 := sweep{sw: sw, order: order, xs: xs, xname: xname, rates: isRateSweep(sw)}
	return s.build(figure{kind: "rate-sweep", title: title, names: policyNames(first), chart: lineChart,
		draw: func(l *layout) (float64, error) { return sw2.draw(l, title) }})
}

// sweep is a checked sweep: its points in x order, and whether x is the
// arrival rate (then capacity means something on it).
type sweep struct {
	sw    *experiment.SweepResult
	order []int
	xs    []float64
	xname string
	rates bool
}

func (sw sweep) draw(l *layout, title string) (float64, error) {
	first := sw.sw.Comparisons[0]
	names := policyNames(first)
	capRate, hasCap := 0.0, false
	if sw.rates {
		capRate, hasCap = capacity(first.Scenario)
	}
	l.heading(title, sw.caption(capRate, hasCap))
	l.legend(lineEntries(names), edge, l.w-2*edge)
	curves := make([][2]curve, len(names))
	lo, hi, attLo := math.Inf(1), first.Protocol.SLO, 100.0
	for pi := range names {
		p99, att := sweepSeries(sw.sw, sw.order, sw.xs, pi)
		curves[pi] = [2]curve{p99, att}
		lo, hi, attLo = math.Min(lo, p99.lo), math.Max(hi, p99.hi), math.Min(attLo, att.lo)
	}
	if math.IsInf(lo, 1) {
		lo = hi / 10
	}
	yt := [2]ticks{logTicks(math.Min(lo, first.Protocol.SLO), hi, 200, false), linearTicks(attMin(attLo), 100, 140, false, 5)}
	gutter := math.Max(yGutter(yt[0]), yGutter(yt[1]))
	left := edge + gutter
	xlo, xhi := sw.xs[sw.order[0]], sw.xs[sw.order[len(sw.order)-1]]
	if hasCap {
		xlo, xhi = math.Min(xlo, capRate), math.Max(xhi, capRate)
	}
	pad := 0.04 * math.Max(xhi-xlo, 1)
	xFor := func(pw float64) ticks { return linearTicks(xlo-pad, xhi+pad, pw, true, 8) }
	if l.s.paper {
		return sw.drawPaper(l, names, curves, xFor, yt, gutter, capRate, hasCap)
	}
	x, pw := fitX(l.w, left, xFor)
	panels := [2]string{"p99 latency", "SLO attainment"}
	fixed := l.y + 2*(fontText.lineHeight()+stripH+gap) + xFooter(0) + xFooter(1) + edge
	ph := [2]float64{250, 160}
	if l.h > 0 {
		k := (l.h - fixed) / 410
		if k < 0.5 {
			return fixed + 205, nil
		}
		ph = [2]float64{250 * k, 160 * k}
	}
	var grids []opts.Grid
	for g := range 2 {
		l.block([]string{panels[g]}, fontText, left, "")
		grids = append(grids, gridAt(left, l.y+stripH, pw, ph[g], l.w))
		l.y += stripH + ph[g] + xFooter(g) + gap
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"] = []any{x.axis(0, "", nil), x.axis(1, sw.xname, map[string]any{"nameGap": xNameGap()})}
	l.raw["yAxis"] = []any{yt[0].axis(0, "p99 (ms, log scale)", map[string]any{"nameGap": yNameGap(yt[0])}),
		yt[1].axis(1, "attainment (%)", map[string]any{"nameGap": yNameGap(yt[1])})}
	sw.series(l, names, curves, x, pw, yt, ph[0], capRate, hasCap, 2)
	l.tooltip("axis", axisTooltip)
	l.raw["axisPointer"] = map[string]any{"link": []any{map[string]any{"xAxisIndex": "all"}}}
	return l.y - gap + edge, nil
}

// drawPaper lays the sweep out for a paper's page height: its two panels
// side by side across two columns, and in one column the p99 panel alone
// (attainment is in the caption's data, and a second panel would leave
// each a finger wide).
func (sw sweep) drawPaper(l *layout, names []string, curves [][2]curve, xFor func(float64) ticks, yt [2]ticks, gutter, capRate float64, hasCap bool) (float64, error) {
	np := 2
	if l.s.paperColumn() {
		np = 1
	}
	x, pw := fitX(l.w, edge+float64(np)*gutter+float64(np-1)*24, xFor)
	pw /= float64(np)
	fixed := l.y + fontText.lineHeight() + stripH + xFooter(1) + edge
	ph := math.Max(l.h-fixed, 100)
	panels := [2]string{"p99 latency", "SLO attainment"}
	yNames := [2]string{"p99 (ms, log scale)", "attainment (%)"}
	var grids []opts.Grid
	var xAxes, yAxes []any
	for g := range np {
		left := edge + gutter + float64(g)*(pw+24+gutter)
		l.text([]string{panels[g]}, fontText, left, l.y, "")
		grids = append(grids, gridAt(left, l.y+fontText.lineHeight()+stripH, pw, ph, l.w))
		xAxes = append(xAxes, x.axis(g, sw.xname, map[string]any{"nameGap": xNameGap()}))
		yAxes = append(yAxes, yt[g].axis(g, yNames[g], map[string]any{"nameGap": yNameGap(yt[g])}))
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"], l.raw["yAxis"] = xAxes, yAxes
	sw.series(l, names, curves, x, pw, yt, ph, capRate, hasCap, np)
	l.tooltip("axis", axisTooltip)
	if np > 1 {
		l.raw["axisPointer"] = map[string]any{"link": []any{map[string]any{"xAxisIndex": "all"}}}
	}
	return fixed + ph, nil
}

// caption says what the marks are and, for rate sweeps, where capacity is
// and why p99 flattens beyond it.
func (sw sweep) caption(capRate float64, hasCap bool) string {
	first := sw.sw.Comparisons[0]
	lines := []string{fmt.Sprintf("markers and lines: medians across %d seeds · whiskers: min–max across seeds · boxes: %s of each median (order statistics) · SLO %g ms · %s",
		len(first.Seeds), medianInterval(make([]float64, len(first.Seeds))).name(), first.Protocol.SLO, first.Scenario.Cluster())}
	if hasCap {
		lines = append(lines, fmt.Sprintf("capacity %.0f req/s: the replicas' service rates summed, for requests of the %g ms reference demand", capRate, engine.ReferenceDemand),
			fmt.Sprintf("a plateau at the top is an artefact of the %g s window with no draining: once a policy overloads a replica, requests still queued there at the cutoff have no latency (they count as unfinished), so p99 stops growing with the backlog",
				first.Protocol.Measure/1000))
	}
	return strings.Join(lines, "\n")
}

// series adds the whiskers, median lines and reference marks.
func (sw sweep) series(l *layout, names []string, curves [][2]curve, x ticks, pw float64, yt [2]ticks, ph0, capRate float64, hasCap bool, np int) {
	for i, name := range names { // lines first: the legend draws a name as its first series
		st := l.style(name)
		for g := range np {
			l.addLine(medianLine(name, st, g, curves[i][g].median), st.Dash)
		}
	}
	for i, name := range names {
		for g := range np {
			l.extra[len(l.rect.MultiSeries)] = map[string]any{"z": 1} // under the lines
			l.add(whiskers(name, l.color(name), g, curves[i][g].band, float64(i)-float64(len(names)-1)/2))
		}
	}
	slo := sw.sw.Comparisons[0].Protocol.SLO
	l.add(marks(0, func(s *charts.SingleSeries) { s.MarkLines = rule("yAxis", slo) }))
	yPx := func(v float64) float64 { return ph0 - yt[0].px(v, ph0) }
	var ms pxMarks
	for i := range names {
		c := curves[i][0]
		slot := 5 * (float64(i) - float64(len(names)-1)/2) // whiskerAt's offset
		for k, p := range c.pts {
			if !defined(p[1]) {
				continue
			}
			px, py := x.px(p[0], pw), yPx(p[1])
			ms.boxes = append(ms.boxes, [4]float64{px - 4, py - 4, px + 4, py + 4}) // the marker
			if k > 0 && defined(c.pts[k-1][1]) {
				ms.segs = append(ms.segs, [4]float64{x.px(c.pts[k-1][0], pw), yPx(c.pts[k-1][1]), px, py})
			}
		}
		for _, r := range c.ranges {
			px := x.px(r[0], pw) + slot
			ms.boxes = append(ms.boxes, [4]float64{px - 3, yPx(r[2]), px + 3, yPx(r[1])})
		}
	}
	l.labels(0, []placed{ruleLabel(fmt.Sprintf("SLO %g ms", slo), x, slo, yPx(slo), pw, ms)})
	if !hasCap {
		return
	}
	for g := range np {
		l.add(marks(g, func(s *charts.SingleSeries) { s.MarkLines = rule("xAxis", round(capRate, 2)) }))
	}
	text := fmt.Sprintf("capacity %.0f req/s", capRate)
	align := anchor(x.px(capRate, pw), fontSmallest.width(text), 0, pw)
	l.labels(0, []placed{{x: capRate, y: yt[0].min, top: true, dy: -stripH + 1,
		lines: []string{text}, font: fontSmallest, align: align, color: neutral}})
}

// isRateSweep tells whether the sweep's x is the arrival rate (each
// point's X is its rate, as experiment.RateSweep makes them, or unset) over one
// cluster (every point has the same replicas and demand), so that one
// capacity holds for all of it.
func isRateSweep(sw *experiment.SweepResult) bool {
	first := sw.Points[0].Scenario
	for _, p := range sw.Points {
		if (p.X != 0 && p.X != p.Scenario.Rate) || !slices.Equal(p.Scenario.Speeds, first.Speeds) || p.Scenario.Demand != first.Demand {
			return false
		}
	}
	return true
}

// capacity is the cluster's service capacity (req/s): the sum over
// replicas of the rate at which
// each serves requests of the mean demand (the reference demand, 11 ms, for
// the token model, which is calibrated to it). It is what the queueing
// hockey stick bends at.
func capacity(s engine.Scenario) (float64, bool) {
	mean := engine.ReferenceDemand
	if s.Demand.Kind != engine.TokenDemand && s.Demand.Mean > 0 {
		mean = s.Demand.Mean
	}
	var total float64
	for _, speed := range s.Speeds {
		if speed <= 0 {
			return 0, false
		}
		total += 1000 / (speed * mean / engine.ReferenceDemand)
	}
	return total, len(s.Speeds) > 0
}

// sweepOrder checks a sweep and returns its points in increasing x, with
// x the point's X, or the scenario's rate when no point has an X.
func sweepOrder(sw *experiment.SweepResult) ([]int, []float64, error) {
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
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	for k := 1; k < len(order); k++ {
		if xs[order[k]] == xs[order[k-1]] {
			return nil, nil, fmt.Errorf("plot: sweep points %q and %q are both at x = %g; each point needs its own x", sw.Points[order[k-1]].Label, sw.Points[order[k]].Label, xs[order[k]])
		}
	}
	return order, xs, nil
}

// curve is one policy's medians and min–max whiskers along the sweep, and
// the whiskers' lowest and highest values.
type curve struct {
	median, band []any
	lo, hi       float64
	pts          [][2]float64 // x, median (NaN: none)
	ranges       [][3]float64 // x, lo, hi of each whisker
}

func sweepSeries(sw *experiment.SweepResult, order []int, xs []float64, pi int) (p99, att curve) {
	p99.lo, p99.hi, att.lo, att.hi = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, i := range order {
		pr := sw.Comparisons[i].Policies[pi]
		x, sm := xs[i], pr.Summary
		var atts, p99s []float64
		for _, r := range pr.Records {
			atts = append(atts, 100*r.Attainment)
			if r.Latency.Count > 0 {
				p99s = append(p99s, r.Latency.P99)
			}
		}
		aLo, aHi := engine.MinMax(atts)
		pci, aci := medianInterval(p99s), medianInterval(atts)
		p99.add(x, sm.MedianP99, sm.P99Min, sm.P99Max, pci,
			fmt.Sprintf("p99 %s (range %s – %s; %s of the median %s – %s)", ms(sm.MedianP99), ms(sm.P99Min), ms(sm.P99Max), pci.name(), ms(pci.lo), ms(pci.hi)))
		att.add(x, 100*sm.MedianAttainment, aLo, aHi, aci,
			fmt.Sprintf("attainment %s (range %s – %s; %s of the median %s – %s)", pct(sm.MedianAttainment), pct(aLo/100), pct(aHi/100), aci.name(), pct(aci.lo/100), pct(aci.hi/100)))
	}
	return p99, att
}

// interval is a distribution-free confidence interval of a median: order
// statistics of the sample and the coverage they give.
type interval struct {
	lo, hi, coverage float64
}

func (c interval) name() string { return fmt.Sprintf("%.1f %% interval", 100*c.coverage) }

// medianInterval is the narrowest interval [x(k), x(n+1−k)] of the sorted
// sample whose coverage of the median, 1 − 2·P(B ≤ k−1) with B ~
// Binomial(n, ½), is at least 95 %; with too few values for that (n ≤ 5)
// it is the whole range, with the coverage it has. NaN with no values.
func medianInterval(xs []float64) interval {
	n := len(xs)
	if n == 0 {
		return interval{math.NaN(), math.NaN(), math.NaN()}
	}
	sorted := slices.Sorted(slices.Values(xs))
	k := 1
	for m := 1; m+1 <= n/2 && 1-2*binomialHalfCDF(n, m) >= 0.95; m++ {
		k = m + 1 // ranks m+1 and n−m cover the median with 1 − 2·P(B ≤ m)
	}
	return interval{sorted[k-1], sorted[n-k], 1 - 2*binomialHalfCDF(n, k-1)}
}

// binomialHalfCDF is P(B ≤ m) for B ~ Binomial(n, ½).
func binomialHalfCDF(n, m int) float64 {
	sum, term := 0.0, math.Pow(0.5, float64(n))
	for j := 0; j <= m; j++ {
		sum += term
		term *= float64(n-j) / float64(j+1)
	}
	return sum
}

// add appends a point: the median (a gap when undefined), its min–max
// whisker and the confidence interval of the median.
func (c *curve) add(x, median, lo, hi float64, ci interval, tip string) {
	if !defined(median) {
		c.median = append(c.median, []any{x, "-"})
		c.pts = append(c.pts, [2]float64{x, math.NaN()})
		return
	}
	c.pts = append(c.pts, [2]float64{x, median})
	c.ranges = append(c.ranges, [3]float64{x, lo, hi})
	c.median = append(c.median, item([]any{x, round(median, 3)}, tip))
	c.lo, c.hi = math.Min(c.lo, lo), math.Max(c.hi, hi)
	c.band = append(c.band, []any{x, round(lo, 3), round(hi, 3), round(ci.lo, 3), round(ci.hi, 3)})
}

// whiskerAt draws [x, lo, hi, ciLo, ciHi] items as a vertical min–max
// range with end caps and, over it, a box spanning the median's confidence
// interval, shifted sideways by the series' offset (px), in its colour.
const whiskerAt = `function (params, api) {
  var dx = %g, a = api.coord([api.value(0), api.value(1)]), b = api.coord([api.value(0), api.value(2)]);
  var c = api.coord([api.value(0), api.value(3)]), d = api.coord([api.value(0), api.value(4)]);
  var st = {stroke: api.visual("color"), lineWidth: 1.5}, x = a[0] + dx;
  return {type: "group", silent: true, children: [
    {type: "line", shape: {x1: x, y1: a[1], x2: x, y2: b[1]}, style: st},
    {type: "line", shape: {x1: x - 3, y1: a[1], x2: x + 3, y2: a[1]}, style: st},
    {type: "line", shape: {x1: x - 3, y1: b[1], x2: x + 3, y2: b[1]}, style: st},
    {type: "rect", shape: {x: x - 2.5, y: Math.min(c[1], d[1]), width: 5, height: Math.max(Math.abs(d[1] - c[1]), 1)},
     style: {fill: api.visual("color"), opacity: 0.45, stroke: api.visual("color"), lineWidth: 1}}]};
}`

// whiskers are a policy's min–max ranges, offset by slot × 5 px so the
// policies' whiskers stand side by side.
func whiskers(name, color string, grid int, data []any, slot float64) charts.SingleSeries {
	return charts.SingleSeries{Name: name, Type: "custom", XAxisIndex: grid, YAxisIndex: grid,
		RenderItem: opts.FuncOpts(fmt.Sprintf(whiskerAt, 5*slot)), Encode: &opts.Encode{X: []int{0}, Y: []int{1, 2}},
		ItemStyle: &opts.ItemStyle{Color: color}, Data: data}
}

func medianLine(name string, st style, grid int, data []any) charts.SingleSeries {
	return charts.SingleSeries{Name: name, Type: "line", XAxisIndex: grid, YAxisIndex: grid, Data: data,
		Symbol: string(st.Marker), SymbolSize: 8, ItemStyle: &opts.ItemStyle{Color: st.Color},
		LineStyle: &opts.LineStyle{Color: st.Color, Width: 2}}
}

// attMin is the attainment axis' lower end: zero unless every value is
// high, then a multiple of ten below them.
func attMin(lo float64) float64 {
	if lo < 50 || !defined(lo) {
		return 0
	}
	return math.Min(90, 10*math.Floor(lo/10))
}
