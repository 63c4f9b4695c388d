package plot

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// servingComparison is three routers on chat, a scenario of the serving
// model, over three seeds.
func servingComparison(t testing.TB) *experiment.Comparison {
	t.Helper()
	scn, err := engine.BuiltinScenario("chat", engine.ScenarioRate("chat"), engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	return compare(t, scn, []engine.PolicySpec{engine.RoundRobin(), engine.LeastQueue(), engine.Adaptive(engine.DefaultAdaptiveParams())},
		experiment.DefaultSeeds(3), engine.Protocol{Warmup: 2000, Measure: 8000, SLO: engine.DefaultProtocol().SLO})
}

// A serving comparison's figure draws the serving model's panels, each
// from its metric's runs and medians: TTFT p99 and ITL p99 against the
// serving SLO's targets, the serving SLO's attainment and goodput. The
// end-to-end 50 ms SLO, which no LLM request meets, appears nowhere; a
// paper column keeps TTFT p99 and serving attainment.
func TestServingComparisonFigure(t *testing.T) {
	c := servingComparison(t)
	slo := c.Scenario.Serving.SLO
	if slo.TTFTMs == 0 || slo.ITLMs == 0 {
		t.Fatalf("test data: chat's serving SLO %+v lacks a TTFT or an ITL target", slo)
	}
	f, err := Comparison(c)
	if err != nil {
		t.Fatal(err)
	}
	o := optionOf(t, f)
	axes := objects(o["xAxis"])
	wantAxes := []string{"TTFT p99 (ms", "ITL p99 (ms", "attainment (%)", "goodput (req/s)"}
	if len(axes) != len(wantAxes) {
		t.Fatalf("%d panels, want %d (%v)", len(axes), len(wantAxes), wantAxes)
	}
	for i, want := range wantAxes {
		if name, _ := axes[i]["name"].(string); !strings.HasPrefix(strings.ReplaceAll(name, "\n", " "), want) {
			t.Errorf("panel %d's axis %q, want %q…", i, name, want)
		}
	}
	sub := subtitle(o)
	for _, want := range []string{c.SLOText(), "TTFT p99", "ITL p99", "serving SLO attainment", "serving goodput", "lowest median TTFT p99: ", "highest serving attainment: ", "dashed: serving SLO"} {
		if !strings.Contains(sub, want) {
			t.Errorf("title block has no %q: %q", want, sub)
		}
	}
	texts := strings.Join(placedTexts(t, o), "\n")
	for _, want := range []string{"TTFT ≤ 500 ms", "ITL ≤ 50 ms"} {
		if !strings.Contains(texts, want) {
			t.Errorf("no target label %q among %q", want, texts)
		}
	}
	for _, not := range []string{"SLO 50 ms", "p99 latency", "lost", "highest attainment", "lowest median p99"} {
		if strings.Contains(sub, not) || strings.Contains(texts, not) {
			t.Errorf("the serving figure shows the end-to-end figure's %q", not)
		}
	}
	for grid, target := range []float64{slo.TTFTMs, slo.ITLMs} {
		if got := markLineAt(o, grid); got != target {
			t.Errorf("panel %d's dashed target at %v, want %v", grid, got, target)
		}
	}

	// Every mark is its metric's, read from the runs and the summary.
	metric := func(key string) engine.Metric {
		m, err := engine.MetricByKey(key)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for i, p := range c.Policies {
		for grid, key := range []string{"ttft_p99_ms", "itl_p99_ms"} {
			m := metric(key)
			var runs []float64
			for _, r := range p.Runs {
				runs = append(runs, m.Of(&r.RunSummary))
			}
			lo, hi := engine.MinMax(runs)
			whiskers := seriesIn(o, grid, "custom", p.Name)
			if len(whiskers) != 1 {
				t.Fatalf("%s: %d whiskers in the %s panel", p.Name, len(whiskers), key)
			}
			got := whiskers[0]["data"].([]any)[0].(map[string]any)["value"].([]any)
			want := []any{float64(i), round(lo, 3), round(p.Summary.MedianOf(key), 3), round(hi, 3)}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %s whisker %v, want row, min, median, max %v", p.Name, key, got, want)
			}
			if dots := dotValues(seriesIn(o, grid, "scatter", p.Name)); !slices.Equal(dots, roundAll(runs, 1)) {
				t.Errorf("%s: %s markers %v, want each seed's %v", p.Name, key, dots, runs)
			}
		}
		for grid, key := range map[int]string{2: "serving_attainment", 3: "serving_goodput_rps"} {
			scale := 1.0
			if metric(key).Unit == "fraction" {
				scale = 100
			}
			var runs []float64
			for _, r := range p.Runs {
				runs = append(runs, metric(key).Of(&r.RunSummary))
			}
			if dots := dotValues(seriesIn(o, grid, "scatter", p.Name)); !slices.Equal(dots, roundAll(runs, scale)) {
				t.Errorf("%s: %s markers %v, want each seed's %v", p.Name, key, dots, runs)
			}
			bars := seriesIn(o, grid, "bar", p.Name)
			if len(bars) != 1 {
				t.Fatalf("%s: %d bars in the %s panel", p.Name, len(bars), key)
			}
			if got, want := bars[0]["data"].([]any)[i].(map[string]any)["value"], round(scale*p.Summary.MedianOf(key), 3); got != want {
				t.Errorf("%s: %s bar %v, want the median %v", p.Name, key, got, want)
			}
		}
	}

	col, err := Comparison(c, WithPaper(OneColumn))
	if err != nil {
		t.Fatal(err)
	}
	oc := optionOf(t, col)
	// On paper a panel's heading is its axis name, and the title block is
	// the caption, so every title component is a heading.
	var parts []string
	for _, h := range objects(oc["title"]) {
		parts = append(parts, strings.ReplaceAll(h["text"].(string), "\n", " "))
	}
	heads := strings.Join(parts, " · ")
	if n := len(objects(oc["xAxis"])); n != 2 || !strings.Contains(heads, "TTFT p99 (ms") || !strings.Contains(heads, "attainment (%)") ||
		strings.Contains(heads, "ITL p99 (ms") || strings.Contains(heads, "goodput (req/s)") {
		t.Errorf("one column: %d panels headed %q, want TTFT p99 and serving attainment", n, heads)
	}
	if cap := col.Caption(); !strings.Contains(cap, "ITL p99 and serving goodput: in the two-column figure and the table") {
		t.Errorf("one-column caption %q does not say where the other panels are", cap)
	}
}

// markLineAt is the value of the dashed line in grid; NaN for none.
func markLineAt(o map[string]any, grid int) float64 {
	for _, s := range objects(o["series"]) {
		ml, ok := s["markLine"].(map[string]any)
		if g, _ := s["xAxisIndex"].(float64); !ok || int(g) != grid {
			continue
		}
		for _, d := range objects(ml["data"]) {
			if v, ok := d["xAxis"].(float64); ok {
				return v
			}
		}
	}
	return math.NaN()
}

// dotValues are the x values of scatter series' markers, in order.
func dotValues(series []map[string]any) []float64 {
	var out []float64
	for _, s := range series {
		for _, d := range s["data"].([]any) {
			out = append(out, d.(map[string]any)["value"].([]any)[0].(float64))
		}
	}
	return out
}

// roundAll scales the defined values as a panel draws them.
func roundAll(xs []float64, scale float64) []float64 {
	var out []float64
	for _, x := range xs {
		if defined(x) {
			out = append(out, round(scale*x, 3))
		}
	}
	return out
}

// A serving comparison's paired figure draws its own metrics: each bar of
// the first panel is the per-seed difference of TTFT p99, of the second of
// serving attainment, and the axes and headings name them.
func TestServingPairedFigure(t *testing.T) {
	c := servingComparison(t)
	f, err := Paired(c, "round-robin", "least-queue")
	if err != nil {
		t.Fatal(err)
	}
	o := optionOf(t, f)
	axes := objects(o["yAxis"])
	for i, want := range []string{"Δ TTFT p99 (ms)", "Δ serving attainment (pp)"} {
		if name, _ := axes[i]["name"].(string); name != want {
			t.Errorf("panel %d's axis %q, want %q", i, name, want)
		}
	}
	if sub := subtitle(o); !strings.HasPrefix(sub, "TTFT p99: ") || !strings.Contains(sub, "serving attainment: ") {
		t.Errorf("subtitle %q does not name the serving metrics", sub)
	}
	a, b := c.Policies[0].Runs, c.Policies[1].Runs
	want := [2]func(k int) float64{
		func(k int) float64 { return b[k].Serving.TTFT.P99 - a[k].Serving.TTFT.P99 },
		func(k int) float64 { return 100 * (b[k].Serving.Attainment - a[k].Serving.Attainment) },
	}
	bars := 0
	for g := range 2 {
		for _, name := range []string{"round-robin", "least-queue"} {
			for _, ser := range seriesIn(o, g, "bar", name) {
				for k, d := range ser["data"].([]any) {
					if d == "-" {
						continue
					}
					bars++
					if got := d.(map[string]any)["value"].(float64); math.Abs(got-want[g](k)) > 1e-3 {
						t.Errorf("panel %d, seed %d: Δ %g, want %g", g, k+1, got, want[g](k))
					}
				}
			}
		}
	}
	if bars == 0 {
		t.Error("no bar drawn")
	}
}
