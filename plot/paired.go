package plot

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
)

// Paired draws the per-seed differences b − a between two policies of a
// comparison. Every seed gives both policies the same workload (common
// random numbers), so each difference is the policies' effect alone. Above,
// the difference in p99 (ms; negative: b faster); below, in attainment
// (percentage points; positive: b better). Each bar takes the colour of the
// policy that did better on that seed, and a dashed line marks the median
// difference. Seeds where either run has no latency figure are left out of
// the p99 panel, and the subtitle says which.
func Paired(c *engine.Comparison, a, b string, options ...Option) (*Figure, error) {
	if err := checkComparison(c); err != nil {
		return nil, err
	}
	pa, pb := c.Policy(a), c.Policy(b)
	if pa == nil || pb == nil || a == b {
		return nil, fmt.Errorf("plot: Paired needs two different policies of the comparison (%s); got %q and %q",
			strings.Join(quoted(policyNames(c)), ", "), a, b)
	}
	s, err := applyOptions(options, 1000, 616)
	if err != nil {
		return nil, err
	}
	bar := charts.NewBar()
	cv := newCanvas(bar, &bar.RectChart, "paired", s, policyNames(c))
	seeds := make([]string, len(c.Seeds))
	for i, sd := range c.Seeds {
		seeds[i] = fmt.Sprintf("seed %d", sd)
	}
	p99, attainment, err := pairedMetrics()
	if err != nil {
		return nil, err
	}
	lat := pairedPanel(cv, 0, pa, pb, c.Seeds, diff{engine.PairSeeds(p99, pa, pb), 1, ms}, "ms")
	att := pairedPanel(cv, 1, pa, pb, c.Seeds, diff{engine.PairSeeds(attainment, pa, pb), 100, pct}, "pp")
	down := 0 // a second subtitle line (seeds left out) moves the rest down
	if len(lat.missing) > 0 {
		down = 16
	}
	bar.SetGlobalOptions(charts.WithGridOpts(
		opts.Grid{Left: "80", Right: "40", Top: strconv.Itoa(120 + down), Height: "170"},
		opts.Grid{Left: "80", Right: "40", Top: strconv.Itoa(354 + down), Height: "170"}))
	cv.raw["xAxis"] = []any{
		map[string]any{"type": "category", "gridIndex": 0, "data": strings2any(seeds), "axisTick": map[string]any{"alignWithLabel": true}},
		map[string]any{"type": "category", "gridIndex": 1, "data": strings2any(seeds), "axisTick": map[string]any{"alignWithLabel": true},
			"name": "seed (same workload for both policies)", "nameLocation": "middle", "nameGap": 28},
	}
	cv.raw["yAxis"] = []any{
		valueAxis(0, "value", "Δ p99 (ms)", map[string]any{"nameGap": 48}),
		valueAxis(1, "value", "Δ attainment (pp)", map[string]any{"nameGap": 48}),
	}
	cv.legend([]string{a, b}, map[string]any{"top": strconv.Itoa(64 + down), "formatter": "{name} did better"})
	cv.tooltip("item", itemTooltip)
	title := fmt.Sprintf("%s − %s, seed by seed (%s)", b, a, c.Scenario.Name)
	sub := fmt.Sprintf("p99: %s · attainment: %s", lat.summary(b, "faster"), att.summary(b, "better"))
	if len(lat.missing) > 0 {
		sub += fmt.Sprintf("\nleft out of Δ p99 (a run without completed requests): seeds %s", strings.Join(lat.missing, ", "))
	}
	cv.titles(title, sub,
		panelTitle(fmt.Sprintf("p99 of %s − p99 of %s (below zero: %s faster)%s", b, a, b, lat.medianNote()), "80", 96+down),
		panelTitle(fmt.Sprintf("attainment of %s − attainment of %s (above zero: %s better)%s", b, a, b, att.medianNote()), "80", 330+down))
	return cv.figure(title)
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

// diff is what a panel draws: one metric's per-seed differences b − a as
// the engine computes them (engine.PairSeeds), the scale of a bar (100: a
// fraction in percentage points) and how a value reads in a tooltip.
type diff struct {
	pairs  []engine.SeedPair
	scale  float64
	format func(float64) string
}

// pairedMetrics are the engine's metrics the two panels draw.
func pairedMetrics() (p99, attainment engine.Metric, err error) {
	if p99, err = engine.MetricByKey("p99_ms"); err == nil {
		attainment, err = engine.MetricByKey("attainment")
	}
	return p99, attainment, err
}

// paired is what a panel found: counts for the subtitle and the seeds left
// out.
type paired struct {
	bWins, aWins, ties, n int
	median                float64
	unit                  string
	missing               []string
}

func (p paired) summary(b, better string) string {
	if p.n == 0 {
		return "no seed with both values"
	}
	return fmt.Sprintf("%s %s on %d of %d seeds, median Δ %s %s", b, better, p.bWins, p.n, signed(p.median), p.unit)
}

// medianNote explains the panel's dashed line.
func (p paired) medianNote() string {
	if p.n == 0 {
		return " · no seed where both runs have a value"
	}
	return fmt.Sprintf(" · dashed: median %s %s", signed(p.median), p.unit)
}

// pairedPanel adds a panel's bars (one series per policy, holding the
// seeds that policy won) and its median line.
func pairedPanel(cv *canvas, grid int, pa, pb *engine.PolicyResult, seeds []uint64, f diff, unit string) paired {
	res := paired{unit: unit}
	wins := map[string][]any{pa.Name: make([]any, len(seeds)), pb.Name: make([]any, len(seeds))}
	var ds []float64
	for k := range seeds {
		wins[pa.Name][k], wins[pb.Name][k] = "-", "-"
		p := f.pairs[k]
		if math.IsNaN(p.Diff) {
			res.missing = append(res.missing, fmt.Sprint(seeds[k]))
			continue
		}
		d := f.scale * p.Diff
		res.n++
		ds = append(ds, d)
		winner := pa.Name
		switch p.Winner {
		case 0:
			res.ties++
		case 1:
			res.bWins++
			winner = pb.Name
		default:
			res.aWins++
		}
		tip := fmt.Sprintf("seed %d: %s %s, %s %s\nΔ %s %s", seeds[k], pa.Name, f.format(p.Baseline), pb.Name, f.format(p.Policy), signed(d), unit)
		wins[winner][k] = map[string]any{"value": round(d, 3), "tip": tip}
	}
	res.median = engine.Median(ds)
	for _, name := range []string{pa.Name, pb.Name} {
		color := cv.color(name)
		cv.add(charts.SingleSeries{Name: name, Type: "bar", XAxisIndex: grid, YAxisIndex: grid, Stack: fmt.Sprintf("diff%d", grid),
			BarWidth: "60%", ItemStyle: &opts.ItemStyle{Color: color}, Data: wins[name]})
	}
	if res.n > 0 {
		cv.add(marks(grid, func(s *charts.SingleSeries) {
			s.MarkLines = refLine("yAxis", round(res.median, 3), "", "end")
			s.MarkLines.Label = &opts.Label{Show: opts.Bool(false)}
		}))
	}
	return res
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
