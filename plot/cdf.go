package plot

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
)

// maxCDFPoints bounds the points of each CDF series; the downsampling keeps
// the tail (see cdfRanks).
const maxCDFPoints = 400

// LatencyCDF draws each policy's latency distribution, pooled over the
// comparison's seeds: on the left the CDF (share of requests completed
// within x), on the right the tail (share taking x or longer, log scale),
// both on a log latency axis with the SLO marked and, on the tail, the 1%
// line whose crossing is the pooled p99. Policies whose runs completed no
// cohort request are left out and named in the subtitle.
func LatencyCDF(c *engine.Comparison, options ...Option) (*Figure, error) {
	if err := checkComparison(c); err != nil {
		return nil, err
	}
	s, err := applyOptions(options, 1000, 480)
	if err != nil {
		return nil, err
	}
	type pooled struct {
		name string
		lat  []float64
	}
	var pools []pooled
	var none, drawn []string
	lo, hi, most := math.Inf(1), c.Protocol.SLO, 0
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
		drawn = append(drawn, p.Name)
		lo, hi, most = math.Min(lo, all[0]), math.Max(hi, all[len(all)-1]), max(most, len(all))
	}
	if len(pools) == 0 {
		return nil, fmt.Errorf("plot: LatencyCDF of %q: no run has latencies (no completed cohort request, or runs made with SummaryOnly, which keep none)", c.Scenario.Name)
	}
	line := charts.NewLine()
	cv := newCanvas(line, &line.RectChart, "latency-cdf", s, policyNames(c))
	top := "96"
	if len(none) > 0 { // a third subtitle line
		top = "114"
	}
	line.SetGlobalOptions(charts.WithGridOpts(
		opts.Grid{Left: "7%", Width: "40%", Top: top, Bottom: "84"},
		opts.Grid{Left: "57%", Width: "40%", Top: top, Bottom: "84"}))
	xmin, xmax := math.Pow(10, math.Floor(math.Log10(math.Max(lo, 0.01)))), math.Pow(10, math.Ceil(math.Log10(hi)))
	ymin := math.Pow(10, math.Floor(math.Log10(100/float64(most))))
	cv.raw["xAxis"] = []any{
		valueAxis(0, "log", "latency (ms, log scale)", map[string]any{"min": xmin, "max": xmax, "nameGap": 26}),
		valueAxis(1, "log", "latency (ms, log scale)", map[string]any{"min": xmin, "max": xmax, "nameGap": 26}),
	}
	cv.raw["yAxis"] = []any{
		valueAxis(0, "value", "requests within x (%)", map[string]any{"min": 0, "max": 100, "nameGap": 38}),
		valueAxis(1, "log", "requests taking x or longer (%, log)", map[string]any{"min": ymin, "max": 100, "nameGap": 44}),
	}
	slo := c.Protocol.SLO
	cv.add(marks(0, func(s *charts.SingleSeries) { s.MarkLines = refLine("xAxis", slo, "SLO", "end") }))
	tail := refLine("xAxis", slo, "SLO", "end")
	tail.Data = append(tail.Data, map[string]any{"yAxis": 1, "name": "1% (p99)",
		"label": map[string]any{"position": "insideEndTop"}})
	cv.add(marks(1, func(s *charts.SingleSeries) { s.MarkLines = tail }))
	var p99s []string
	for _, p := range pools {
		cdf, ccdf := cdfPoints(p.lat)
		style := func(grid int, id string, data []any) charts.SingleSeries {
			return charts.SingleSeries{Name: p.name, Id: id, Type: "line", XAxisIndex: grid, YAxisIndex: grid,
				ShowSymbol: opts.Bool(false), Symbol: "none", Data: data,
				ItemStyle: &opts.ItemStyle{Color: cv.color(p.name)}, LineStyle: &opts.LineStyle{Color: cv.color(p.name), Width: 2}}
		}
		cv.add(style(0, "cdf "+p.name, cdf))
		cv.add(style(1, "tail "+p.name, ccdf))
		p99s = append(p99s, fmt.Sprintf("%s %s", p.name, ms(engine.NearestRank(p.lat, 99))))
	}
	cv.legend(drawn, map[string]any{"bottom": "4"})
	cv.tooltip("axis", cdfTooltip)
	cv.raw["axisPointer"] = map[string]any{"link": []any{map[string]any{"xAxisIndex": "all"}}}
	sub := fmt.Sprintf("pooled over %d seeds · %s · SLO %g ms\npooled p99: %s", len(c.Seeds), c.Scenario.Traffic(), slo, strings.Join(p99s, " · "))
	if len(none) > 0 {
		sub += "\nno completed cohort request: " + strings.Join(none, ", ")
	}
	title := fmt.Sprintf("%s: latency distribution", c.Scenario.Name)
	cv.titles(title, sub)
	return cv.figure(title)
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
    out.push(p.marker + esc(p.seriesName) + ": " + (+v[1].toPrecision(4)) + "% " + (tail ? "take ≥ " : "within ") + (+v[0].toPrecision(4)) + " ms");
  }
  return out.join("<br>");
}`

// cdfPoints returns the CDF ([latency, % within]) and the tail
// ([latency, % at or above]) of sorted latencies at the ranks cdfRanks
// picks.
func cdfPoints(sorted []float64) (cdf, ccdf []any) {
	n := float64(len(sorted))
	for _, k := range cdfRanks(len(sorted), maxCDFPoints) {
		x := round(sorted[k-1], 3)
		cdf = append(cdf, []any{x, round(100*float64(k)/n, 4)})
		ccdf = append(ccdf, []any{x, round(100*(n-float64(k)+1)/n, 6)})
	}
	return cdf, ccdf
}

// cdfRanks picks at most limit ranks (1-based, increasing) of n sorted
// values: 60% evenly spaced in probability up to the 99th percentile, the
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
	body := limit * 3 / 5
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
