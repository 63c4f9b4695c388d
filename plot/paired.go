package plot

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// Paired draws the per-seed differences b − a between two policies of a
// comparison. Every seed gives both policies the same workload (common
// random numbers), so each difference is the policies' effect alone. Above,
// the difference in p99 (ms; negative: b faster); below, in attainment
// (percentage points; positive: b better). A comparison of the serving
// model draws its own: TTFT p99 and the serving SLO's attainment. Each bar takes the colour of the
// policy that did better on that seed (a's bars solid, b's outlined, so
// they differ in greyscale too), and a dashed line marks the median
// difference. A panel where the two policies are equal on every seed says
// so. Seeds where either run has no latency figure are left out of the p99
// panel, and the subtitle says which.
func Paired(c *experiment.Comparison, a, b string, options ...Option) (*Figure, error) {
	if err := checkComparison(c); err != nil {
		return nil, err
	}
	pa, pb := c.Policy(a), c.Policy(b)
	have := strings.Join(quoted(policyNames(c)), ", ")
	switch {
	case pa == nil || pb == nil:
		return nil, fmt.Errorf("plot: Paired needs two policies of the comparison (%s); got %q and %q", have, a, b)
	case pa == pb:
		return nil, fmt.Errorf("plot: Paired needs two different policies; got %q twice (the comparison has %s)", a, have)
	}
	s, err := applyOptions(options, 1000)
	if err != nil {
		return nil, err
	}
	title := fmt.Sprintf("%s − %s, seed by seed (%s)", pb.Name, pa.Name, c.Scenario.Name)
	return s.build(figure{kind: "paired", title: title, names: policyNames(c), chart: barChart,
		draw: func(l *layout) (float64, error) { return drawPaired(l, c, pa, pb, title) }})
}

func drawPaired(l *layout, c *experiment.Comparison, pa, pb *experiment.PolicyResult, title string) (float64, error) {
	m, err := pairedMetrics(c.Scenario.Serving != nil)
	if err != nil {
		return 0, err
	}
	lat := pairedDiffs(pa, pb, c.Seeds, diff{experiment.PairSeeds(m.latency, pa, pb), 1, ms}, "ms")
	att := pairedDiffs(pa, pb, c.Seeds, diff{experiment.PairSeeds(m.attainment, pa, pb), 100, pct}, "pp")
	a, b := pa.Name, pb.Name
	sub := fmt.Sprintf("%s: %s · %s: %s", m.latencyName, lat.summary(b, "faster"), m.attainmentName, att.summary(b, "better"))
	if len(lat.missing) > 0 {
		sub += fmt.Sprintf("\nleft out of Δ %s (a run without completed requests): seeds %s", m.latencyName, strings.Join(lat.missing, ", "))
	}
	l.heading(title, sub)
	sa, sb := l.style(a), l.style(b)
	l.legend([]legendEntry{{name: a, text: a + " did better", icon: "rect", fill: sa.Color},
		{name: b, text: b + " did better", icon: "rect", fill: tint(sb.Color, 0.25)}}, edge, l.w-2*edge)
	heads := [2]string{
		fmt.Sprintf("%[1]s of %[2]s − %[1]s of %[3]s (below zero: %[2]s faster)%[4]s", m.latencyName, b, a, lat.medianNote()),
		fmt.Sprintf("%[1]s of %[2]s − %[1]s of %[3]s (above zero: %[2]s better)%[4]s", m.attainmentName, b, a, att.medianNote()),
	}
	axes := [2]string{"Δ " + m.latencyName + " (ms)", "Δ " + m.attainmentName + " (pp)"}
	if l.s.paper {
		// The caption (the title block) says the differences in full.
		heads = [2]string{fmt.Sprintf("below zero: %s faster", b), fmt.Sprintf("above zero: %s better", b)}
		return pairedPaper(l, c.Seeds, [2]paired{lat, att}, heads, axes)
	}
	return pairedPanels(l, c.Seeds, [2]paired{lat, att}, heads, axes)
}

// pairedPaper lays the panels out for a paper's page height: side by side
// across two columns, and in one column the latency panel alone.
func pairedPaper(l *layout, seeds []uint64, ps [2]paired, heads, axes [2]string) (float64, error) {
	np := 2
	if l.s.paperColumn() {
		np = 1
	}
	yt := [2]ticks{ps[0].ticks(), ps[1].ticks()}
	gutter := math.Max(yGutter(yt[0]), yGutter(yt[1]))
	pw := (l.w - 2*edge - float64(np)*gutter - float64(np-1)*24) / float64(np)
	var lines [2][]string
	headH := 0.0
	for g := range np {
		lines[g] = fontText.wrap(heads[g], pw)
		headH = max(headH, float64(len(lines[g]))*fontText.lineHeight())
	}
	fixed := l.y + headH + 10 + xFooter(1) + edge
	ph := math.Max(l.h-fixed, 80)
	cats, every := seedCategories(seeds, pw)
	var grids []opts.Grid
	var xAxes, yAxes []any
	for g := range np {
		left := edge + gutter + float64(g)*(pw+24+gutter)
		l.text(lines[g], fontText, left, l.y, "")
		grids = append(grids, gridAt(left, l.y+headH+10, pw, ph, l.w))
		xAxes = append(xAxes, map[string]any{"type": "category", "gridIndex": g, "data": strings2any(cats),
			"axisTick": map[string]any{"alignWithLabel": true}, "name": "seed", "nameLocation": "middle", "nameGap": xNameGap(),
			"axisLabel": map[string]any{"interval": every - 1, "fontSize": fontText.size, "lineHeight": fontText.lineHeight()}})
		yAxes = append(yAxes, yt[g].axis(g, axes[g], map[string]any{"nameGap": yNameGap(yt[g])}))
		ps[g].draw(l, g, len(seeds))
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"], l.raw["yAxis"] = xAxes, yAxes
	l.tooltip("item", itemTooltip)
	return fixed + ph, nil
}

// pairedPanels stacks the two panels of differences.
func pairedPanels(l *layout, seeds []uint64, ps [2]paired, heads, axes [2]string) (float64, error) {
	yt := [2]ticks{ps[0].ticks(), ps[1].ticks()}
	gutter := math.Max(yGutter(yt[0]), yGutter(yt[1]))
	left, pw := edge+gutter, l.w-2*edge-gutter
	var lines [2][]string
	fixed := l.y + edge
	for g := range 2 {
		lines[g] = fontText.wrap(heads[g], pw)
		fixed += float64(len(lines[g]))*fontText.lineHeight() + 6 + xFooter(1) + gap
	}
	ph := 170.0
	if l.h > 0 {
		if ph = (l.h - fixed) / 2; ph < 80 {
			return fixed + 160, nil
		}
	}
	cats, every := seedCategories(seeds, pw)
	var grids []opts.Grid
	var xAxes, yAxes []any
	for g := range 2 {
		l.block(lines[g], fontText, left, "")
		grids = append(grids, gridAt(left, l.y+6, pw, ph, l.w))
		xAxes = append(xAxes, map[string]any{"type": "category", "gridIndex": g, "data": strings2any(cats),
			"axisTick": map[string]any{"alignWithLabel": true}, "name": "seed (same workload for both policies)",
			"nameLocation": "middle", "nameGap": xNameGap(),
			"axisLabel": map[string]any{"interval": every - 1, "fontSize": fontText.size, "lineHeight": fontText.lineHeight()}})
		yAxes = append(yAxes, yt[g].axis(g, axes[g], map[string]any{"nameGap": yNameGap(yt[g])}))
		l.y += 6 + ph + xFooter(1) + gap
		ps[g].draw(l, g, len(seeds))
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"], l.raw["yAxis"] = xAxes, yAxes
	l.tooltip("item", itemTooltip)
	return l.y + edge, nil
}

// seedCategories are the seeds as axis categories, and how often a label
// fits (every one, every second, ...).
func seedCategories(seeds []uint64, pw float64) ([]string, int) {
	cats := make([]string, len(seeds))
	for i, sd := range seeds {
		cats[i] = strconv.FormatUint(sd, 10)
	}
	band := pw / float64(max(len(seeds), 1))
	every := 1
	for every < len(seeds) && fontText.widest(cats)+8 > band*float64(every) {
		every++
	}
	return cats, every
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

// diff is what a panel draws: one metric's per-seed differences b − a as
// the engine computes them (experiment.PairSeeds), the scale of a bar (100: a
// fraction in percentage points) and how a value reads in a tooltip.
type diff struct {
	pairs  []experiment.SeedPair
	scale  float64
	format func(float64) string
}

// pairedMetric names the engine's metrics the two panels draw.
type pairedMetric struct {
	latency, attainment         engine.Metric
	latencyName, attainmentName string
}

// pairedMetrics are the panels' metrics: end-to-end p99 and attainment on
// the specification's model, TTFT p99 and serving attainment with serving.
func pairedMetrics(serving bool) (m pairedMetric, err error) {
	lat, att := "p99_ms", "attainment"
	m.latencyName, m.attainmentName = "p99", "attainment"
	if serving {
		lat, att = "ttft_p99_ms", "serving_attainment"
		m.latencyName, m.attainmentName = "TTFT p99", "serving attainment"
	}
	if m.latency, err = engine.MetricByKey(lat); err == nil {
		m.attainment, err = engine.MetricByKey(att)
	}
	return m, err
}

// paired is what a panel found: the per-seed bars of each policy, counts
// for the subtitle, and the seeds left out.
type paired struct {
	a, b                  string
	bars                  map[string][]any
	bWins, aWins, ties, n int
	lo, hi, median        float64
	unit                  string
	missing               []string
}

func (p paired) summary(b, better string) string {
	if p.n == 0 {
		return "no seed with both values"
	}
	if p.ties == p.n {
		return "identical on every seed"
	}
	ties := ""
	if p.ties > 0 {
		ties = fmt.Sprintf(" (equal on %d)", p.ties)
	}
	return fmt.Sprintf("%s %s on %d of %d seeds%s, median Δ %s %s", b, better, p.bWins, p.n, ties, signed(p.median), p.unit)
}

// medianNote explains the panel's dashed line.
func (p paired) medianNote() string {
	if p.n == 0 || p.ties == p.n {
		return ""
	}
	return fmt.Sprintf(" · dashed: median %s %s", signed(p.median), p.unit)
}

// ticks is the panel's value axis: zero and every difference, in round
// steps; ±1 when every difference is zero.
func (p paired) ticks() ticks {
	lo, hi := math.Min(p.lo, 0), math.Max(p.hi, 0)
	if lo == hi {
		lo, hi = -1, 1
	}
	return linearTicks(lo, hi, 170, false, 6)
}

// pairedDiffs computes b − a per seed and sorts each seed's bar to the
// policy that did better.
func pairedDiffs(pa, pb *experiment.PolicyResult, seeds []uint64, f diff, unit string) paired {
	res := paired{a: pa.Name, b: pb.Name, unit: unit, bars: map[string][]any{pa.Name: make([]any, len(seeds)), pb.Name: make([]any, len(seeds))}}
	var ds []float64
	for k := range seeds {
		res.bars[pa.Name][k], res.bars[pb.Name][k] = "-", "-"
		p := f.pairs[k]
		if math.IsNaN(p.Diff) {
			res.missing = append(res.missing, fmt.Sprint(seeds[k]))
			continue
		}
		d := f.scale * p.Diff
		res.n++
		ds = append(ds, d)
		res.lo, res.hi = math.Min(res.lo, d), math.Max(res.hi, d)
		winner := pa.Name
		switch p.Winner {
		case 0: // a tie has no bar and no winner
			res.ties++
			continue
		case 1:
			res.bWins++
			winner = pb.Name
		default:
			res.aWins++
		}
		tip := fmt.Sprintf("seed %d: %s %s, %s %s\nΔ %s %s", seeds[k], pa.Name, f.format(p.Baseline), pb.Name, f.format(p.Policy), signed(d), unit)
		res.bars[winner][k] = map[string]any{"value": round(d, 3), "tip": tip}
	}
	res.median = engine.Median(ds)
	return res
}

// draw adds the panel's bars (one series per policy, holding the seeds
// that policy won), its median line, and a note when there is nothing to
// compare.
func (p paired) draw(l *layout, grid, seeds int) {
	for i, name := range []string{p.a, p.b} {
		color := l.color(name)
		fill := color
		if i == 1 {
			fill = tint(color, 0.25)
		}
		l.add(charts.SingleSeries{Name: name, Type: "bar", XAxisIndex: grid, YAxisIndex: grid, Stack: fmt.Sprintf("diff%d", grid),
			BarWidth: "60%", ItemStyle: &opts.ItemStyle{Color: fill, BorderColor: color, BorderWidth: 1.5}, Data: p.bars[name]})
	}
	note := ""
	switch {
	case p.n == 0:
		note = "no seed where both runs have a value"
	case p.ties == p.n:
		note = "identical on every seed"
	default:
		median := round(p.median, 3)
		l.add(marks(grid, func(s *charts.SingleSeries) { s.MarkLines = rule("yAxis", median) }))
	}
	if note != "" {
		l.labels(grid, []placed{{x: float64(seeds-1) / 2, y: 0, dy: -fontText.lineHeight() - 6,
			lines: []string{note}, font: fontText, align: "center", color: neutral}})
	}
}

// signed formats a difference with its sign and a precision fitting its
// size.
func signed(x float64) string {
	switch a := math.Abs(x); {
	case a >= 100:
		return fmt.Sprintf("%+.0f", x)
	case a >= 10:
		return fmt.Sprintf("%+.1f", x)
	}
	return fmt.Sprintf("%+.2f", x)
}
