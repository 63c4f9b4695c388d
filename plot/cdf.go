package plot

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// maxCDFPoints bounds the points of each CDF series; the downsampling keeps
// the tail (see cdfRanks).
const maxCDFPoints = 250

// LatencyCDF draws each policy's latency distribution, pooled over the
// comparison's seeds: the CDF (share of requests completed within x) and
// the tail (share taking x or longer, log scale), side by side when the
// width allows, both on a log latency axis with the SLO marked and, on the
// tail, the 1% line whose crossing is the pooled p99. Each curve carries
// its policy's dash, and its marker at the pooled p50, p90 and p99.
// Policies whose runs completed no cohort request are left out and named
// in the subtitle.
func LatencyCDF(c *experiment.Comparison, options ...Option) (*Figure, error) {
	if err := checkComparison(c); err != nil {
		return nil, err
	}
	s, err := applyOptions(options, 1000)
	if err != nil {
		return nil, err
	}
	pools, none := pooledLatencies(c)
	if len(pools) == 0 {
		return nil, fmt.Errorf("plot: LatencyCDF of %q: no run has latencies (no completed cohort request, or runs made with SummaryOnly, which keep none)", c.Scenario.Name)
	}
	title := fmt.Sprintf("%s: latency distribution", c.Scenario.Name)
	return s.build(figure{kind: "latency-cdf", title: title, names: policyNames(c), chart: lineChart,
		draw: func(l *layout) (float64, error) { return drawCDF(l, c, pools, none, title) }})
}

// pooled is one policy's latencies over all its seeds, sorted.
type pooled struct {
	name string
	lat  []float64
}

func pooledLatencies(c *experiment.Comparison) (pools []pooled, none []string) {
	for _, p := range c.Policies {
		var all []float64
		for _, r := range p.Runs {
			all = append(all, r.Latencies...)
		}
		if len(all) == 0 {
			none = append(none, p.Name)
			continue
		}
		slices.Sort(all)
		pools = append(pools, pooled{p.Name, all})
	}
	return pools, none
}

// cdfPanels are the two panels' headings, axis names and ticks.
var (
	cdfHeads = [2]string{"CDF: requests completed within x", "tail: requests taking x or longer (log)"}
	cdfYName = [2]string{"requests (%)", "requests (%, log scale)"}
)

func drawCDF(l *layout, c *experiment.Comparison, pools []pooled, none []string, title string) (float64, error) {
	slo := c.Protocol.SLO
	var p99s, drawn []string
	lo, hi, most := math.Inf(1), slo, 0
	for _, p := range pools {
		drawn = append(drawn, p.name)
		p99s = append(p99s, fmt.Sprintf("%s %s", p.name, ms(engine.NearestRank(p.lat, 99))))
		lo, hi, most = math.Min(lo, p.lat[0]), math.Max(hi, p.lat[len(p.lat)-1]), max(most, len(p.lat))
	}
	sub := fmt.Sprintf("pooled over %d seeds · %s · SLO %g ms · markers: pooled p50, p90, p99\npooled p99: %s", len(c.Seeds), c.Scenario.Traffic(), slo, strings.Join(p99s, " · "))
	if len(none) > 0 {
		sub += "\nno completed cohort request: " + strings.Join(none, ", ")
	}
	l.heading(title, sub)
	l.legend(lineEntries(drawn), edge, l.w-2*edge)
	if l.s.paperColumn() {
		return drawTailOnly(l, slo, lo, hi, most, pools)
	}
	cols := 2
	yt := [2]ticks{linearTicks(0, 100, 160, false, 5), logTicks(math.Pow(10, math.Floor(math.Log10(100/float64(most)))), 100, 160, false)}
	gutter := math.Max(yGutter(yt[0]), yGutter(yt[1]))
	xFor := func(pw float64) ticks { return logTicks(math.Max(lo, 0.01), hi, pw, true) }
	x, pw := fitX(l.w, edge+2*gutter+24, xFor)
	pw /= 2
	if pw < 200 {
		cols = 1
		x, pw = fitX(l.w, edge+gutter, xFor)
	}
	heads := [2][]string{fontText.wrap(cdfHeads[0], pw), fontText.wrap(cdfHeads[1], pw)}
	headH := float64(max(len(heads[0]), len(heads[1]))) * fontText.lineHeight()
	ph := 220.0
	fixed := l.y + float64(3-cols)*(headH+stripH+xFooter(1)+gap) + edge
	if l.h > 0 {
		ph = (l.h - fixed) / float64(3-cols)
		if ph < 120 {
			return fixed + 120*float64(3-cols), nil
		}
	}
	var grids []opts.Grid
	var xAxes, yAxes []any
	for g := range 2 {
		left, top := edge+gutter, l.y+float64(g)*(headH+stripH+ph+xFooter(1)+gap)
		if cols == 2 {
			left, top = edge+gutter+float64(g)*(pw+24+gutter), l.y
		}
		l.text(heads[g], fontText, left, top, "")
		grids = append(grids, gridAt(left, top+headH+stripH, pw, ph, l.w))
		xAxes = append(xAxes, x.axis(g, "latency (ms, log scale)", map[string]any{"nameGap": xNameGap()}))
		yAxes = append(yAxes, yt[g].axis(g, cdfYName[g], map[string]any{"nameGap": yNameGap(yt[g])}))
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"], l.raw["yAxis"] = xAxes, yAxes
	cdfMarks(l, slo, x, pw, yt, pools)
	for _, p := range pools {
		cdfCurves(l, p)
	}
	l.tooltip("axis", cdfTooltip)
	l.raw["axisPointer"] = map[string]any{"link": []any{map[string]any{"xAxisIndex": "all"}}}
	return fixed + float64(3-cols)*ph, nil
}

// drawTailOnly is the CDF figure for a paper's column, which has room for
// one panel: the tail, where the pooled p99 is read (the caption names the
// figure's panels as its title block does).
func drawTailOnly(l *layout, slo, lo, hi float64, most int, pools []pooled) (float64, error) {
	yt := logTicks(math.Pow(10, math.Floor(math.Log10(100/float64(most)))), 100, 120, false)
	gutter := yGutter(yt)
	x, pw := fitX(l.w, edge+gutter, func(pw float64) ticks { return logTicks(math.Max(lo, 0.01), hi, pw, true) })
	head := fontText.wrap(cdfHeads[1], pw)
	headH := float64(len(head)) * fontText.lineHeight()
	fixed := l.y + headH + stripH + xFooter(1) + edge
	ph := math.Max(l.h-fixed, 100)
	left, top := edge+gutter, l.y
	l.text(head, fontText, left, top, "")
	l.rect.SetGlobalOptions(charts.WithGridOpts(gridAt(left, top+headH+stripH, pw, ph, l.w)))
	l.raw["xAxis"] = []any{x.axis(0, "latency (ms, log scale)", map[string]any{"nameGap": xNameGap()})}
	l.raw["yAxis"] = []any{yt.axis(0, cdfYName[1], map[string]any{"nameGap": yNameGap(yt)})}
	text := fmt.Sprintf("SLO %g ms", slo)
	l.add(marks(0, func(s *charts.SingleSeries) { s.MarkLines = rule("xAxis", slo) }))
	l.labels(0, []placed{{x: slo, y: yt.min, top: true, dy: -stripH + 1, lines: []string{text}, font: fontSmallest,
		align: anchor(x.px(slo, pw), fontSmallest.width(text), 0, pw), color: neutral}})
	l.add(marks(0, func(s *charts.SingleSeries) { s.MarkLines = rule("yAxis", 1) }))
	l.labels(0, []placed{onePercentLabel("1%: pooled p99", x, pw, pools)})
	for _, p := range pools {
		st := l.style(p.name)
		_, ccdf := cdfPoints(p.lat)
		l.addLine(charts.SingleSeries{Name: p.name, Id: "tail " + p.name, Type: "line", ShowSymbol: opts.Bool(false),
			Symbol: string(st.Marker), SymbolSize: 7, Data: ccdf,
			ItemStyle: &opts.ItemStyle{Color: st.Color}, LineStyle: &opts.LineStyle{Color: st.Color, Width: 2}}, st.Dash)
		n := float64(len(p.lat))
		var tail []any
		for _, q := range []float64{50, 90, 99} {
			k := math.Ceil(q / 100 * n)
			tail = append(tail, []any{round(engine.NearestRank(p.lat, q), 3), round(100*(n-k+1)/n, 6)})
		}
		l.add(seedDots(p.name, st, 0, tail))
	}
	l.tooltip("axis", cdfTooltip)
	return fixed + ph, nil
}

// lineEntries are legend entries drawn as each series' own line icon
// (its dash and marker).
func lineEntries(names []string) []legendEntry {
	out := make([]legendEntry, len(names))
	for i, n := range names {
		out[i] = legendEntry{name: n}
	}
	return out
}

// cdfMarks draws the SLO on both panels and the 1% line on the tail, with
// their labels: the SLO's above the plot, the 1% line's under its left
// end (onePercentLabel).
func cdfMarks(l *layout, slo float64, x ticks, pw float64, yt [2]ticks, pools []pooled) {
	text := fmt.Sprintf("SLO %g ms", slo)
	align := anchor(x.px(slo, pw), fontSmallest.width(text), 0, pw)
	for g := range 2 {
		l.add(marks(g, func(s *charts.SingleSeries) { s.MarkLines = rule("xAxis", slo) }))
		l.labels(g, []placed{{x: slo, y: yt[g].min, top: true, dy: -stripH + 1, lines: []string{text}, font: fontSmallest, align: align, color: neutral}})
	}
	l.add(marks(1, func(s *charts.SingleSeries) { s.MarkLines = rule("yAxis", 1) }))
	l.labels(1, []placed{onePercentLabel("1%: pooled p99 where a curve crosses", x, pw, pools)})
}

// onePercentLabel is the 1% line's label on a tail panel (axis x of width
// pw): under the line at its left end, wrapped to end left of the first
// curve's p99 marker. A tail curve falls below 1% only right of its p99,
// so no curve passes under the line left of that marker.
func onePercentLabel(text string, x ticks, pw float64, pools []pooled) placed {
	end := pw
	for _, p := range pools {
		if len(p.lat) > 0 {
			end = math.Min(end, x.px(engine.NearestRank(p.lat, 99), pw)-markerRadius-3)
		}
	}
	return placed{x: x.min, y: 1, dx: 4, dy: 2, lines: fontSmallest.wrap(text, math.Max(end-4, 1)),
		font: fontSmallest, align: "left", color: neutral}
}

// cdfCurves adds a policy's two curves and its percentile markers.
func cdfCurves(l *layout, p pooled) {
	st := l.style(p.name)
	cdf, ccdf := cdfPoints(p.lat)
	curve := func(grid int, id string, data []any) charts.SingleSeries {
		return charts.SingleSeries{Name: p.name, Id: id, Type: "line", XAxisIndex: grid, YAxisIndex: grid,
			ShowSymbol: opts.Bool(false), Symbol: string(st.Marker), SymbolSize: 7, Data: data,
			ItemStyle: &opts.ItemStyle{Color: st.Color}, LineStyle: &opts.LineStyle{Color: st.Color, Width: 2}}
	}
	l.addLine(curve(0, "cdf "+p.name, cdf), st.Dash)
	l.addLine(curve(1, "tail "+p.name, ccdf), st.Dash)
	n := float64(len(p.lat))
	var within, tail []any
	for _, q := range []float64{50, 90, 99} {
		v := engine.NearestRank(p.lat, q)
		k := math.Ceil(q / 100 * n)
		within = append(within, []any{round(v, 3), round(100*k/n, 4)})
		tail = append(tail, []any{round(v, 3), round(100*(n-k+1)/n, 6)})
	}
	l.add(seedDots(p.name, st, 0, within))
	l.add(seedDots(p.name, st, 1, tail))
}

// cdfTooltip reads each series' point under the pointer: the share within
// x on the left panel, the share at or above x on the right.
const cdfTooltip = `function (ps) {
  var esc = function (s) { return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
  var out = [];
  for (var i = 0; i < ps.length; i++) {
    var p = ps[i], v = p.value;
    if (!p.seriesName || !v) continue;
    var tail = String(p.seriesId).indexOf("tail ") === 0;
    out.push(p.Marker + esc(p.seriesName) + ": " + (+v[1].toPrecision(4)) + "% " + (tail ? "take ≥ " : "within ") + (+v[0].toPrecision(4)) + " ms");
  }
  return out.join("<br>");
}`

// cdfPoints returns the CDF ([latency, % within]) and the tail
// ([latency, % at or above]) of sorted latencies at the ranks cdfRanks
// picks: latencies and tail shares to the 4 significant digits the
// tooltip shows (on log axes, 0.05 % of a decade at most), CDF shares to
// 0.01 points (a few hundredths of a pixel).
func cdfPoints(sorted []float64) (cdf, ccdf []any) {
	n := float64(len(sorted))
	for _, k := range cdfRanks(len(sorted), maxCDFPoints) {
		x := significant(sorted[k-1], 4)
		cdf = append(cdf, []any{x, round(100*float64(k)/n, 2)})
		ccdf = append(ccdf, []any{x, significant(100*(n-float64(k)+1)/n, 4)})
	}
	return cdf, ccdf
}

// cdfRanks picks at most limit ranks (1-based, increasing) of n sorted
// values: 40% evenly spaced in probability up to the 99th percentile, the
// rest spaced evenly in log(1−p) from there to the maximum (or every rank
// of the tail when there are few enough), so the tail is drawn as finely as
// the body. The minimum and maximum are always included.
func cdfRanks(n, limit int) []int {
	if n <= limit {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	body := limit * 2 / 5
	tail := limit - body - 1
	ranks := []int{1}
	add := func(p float64) {
		k := min(max(int(math.Ceil(p*float64(n))), 1), n)
		if k > ranks[len(ranks)-1] {
			ranks = append(ranks, k)
		}
	}
	for j := 1; j <= body; j++ {
		add(0.99 * float64(j) / float64(body))
	}
	if last := ranks[len(ranks)-1]; n-last <= tail {
		for k := last + 1; k <= n; k++ { // few enough: every rank of the tail
			ranks = append(ranks, k)
		}
		return ranks
	}
	// 1−p from 1% down to 1/n.
	span := math.Log(0.01 * float64(n))
	for j := 1; j <= tail; j++ {
		add(1 - 0.01*math.Exp(-span*float64(j)/float64(tail)))
	}
	add(1)
	return ranks
}
