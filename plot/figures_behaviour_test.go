package plot

import (
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// seriesIn returns the series named name in grid (xAxisIndex) of type typ.
func seriesIn(o map[string]any, grid int, typ, name string) []map[string]any {
	var out []map[string]any
	for _, s := range objects(o["series"]) {
		g := 0
		if n, ok := s["xAxisIndex"].(float64); ok {
			g = int(n)
		}
		if g == grid && s["type"] == typ && s["name"] == name {
			out = append(out, s)
		}
	}
	return out
}

// subtitle is every text a figure writes through title components after
// its title (subtitle, panel headings), lines joined by spaces as they were
// before wrapping.
func subtitle(o map[string]any) string {
	var parts []string
	for _, t := range objects(o["title"])[1:] {
		s, _ := t["text"].(string)
		parts = append(parts, strings.ReplaceAll(s, "\n", " "))
	}
	return strings.Join(parts, " ")
}

// Runs without a completed cohort request have no p99: the latency panel
// shows one dot per run that has one, none drawn at zero, and a policy
// without any is named in the subtitle and has no latency marks at all.
func TestComparisonLeavesOutUndefinedLatency(t *testing.T) {
	for _, c := range []*experiment.Comparison{sparseComparison(t), halfDeadComparison(t)} {
		f, err := Comparison(c)
		if err != nil {
			t.Fatal(err)
		}
		o := optionOf(t, f)
		for _, p := range c.Policies {
			var dots []any
			for _, s := range seriesIn(o, 0, "scatter", p.Name) {
				dots = append(dots, s["data"].([]any)...)
			}
			if len(dots) != p.Summary.LatencyRuns {
				t.Errorf("%s/%s: %d p99 dots for %d runs with a latency", c.Scenario.Name, p.Name, len(dots), p.Summary.LatencyRuns)
			}
			for _, d := range dots {
				if v := d.(map[string]any)["value"].([]any)[0].(float64); v <= 0 {
					t.Errorf("%s: p99 dot at %g", p.Name, v)
				}
			}
			none := p.Summary.LatencyRuns == 0
			if marks := len(seriesIn(o, 0, "custom", p.Name)); (marks == 0) != none {
				t.Errorf("%s: %d whiskers with %d latency runs", p.Name, marks, p.Summary.LatencyRuns)
			}
			if strings.Contains(subtitle(o), "no p99") != slices.ContainsFunc(c.Policies, func(p experiment.PolicyResult) bool { return p.Summary.LatencyRuns == 0 }) {
				t.Errorf("subtitle %q", subtitle(o))
			}
		}
	}
	c := halfDeadComparison(t)
	if c.Policies[0].Summary.LatencyRuns != 0 {
		t.Fatal("test data: round-robin should have no latency")
	}
	f, _ := Comparison(c)
	if sub := subtitle(optionOf(t, f)); !strings.Contains(sub, "no p99 (no run completed a cohort request): round-robin") {
		t.Errorf("subtitle %q does not name round-robin", sub)
	}
}

func TestComparisonLatencyScale(t *testing.T) {
	scale := func(c *experiment.Comparison, opts ...Option) any {
		f, err := Comparison(c, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return objects(optionOf(t, f)["xAxis"])[0]["type"]
	}
	straggler, steady := testComparison(t, "straggler"), testComparison(t, "steady")
	if got := scale(straggler); got != "log" {
		t.Errorf("straggler p99s span 100× but the axis is %v", got)
	}
	if got := scale(steady); got != "value" {
		t.Errorf("steady p99s span less than 10× but the axis is %v", got)
	}
	if got := scale(straggler, WithLatencyScale(ScaleLinear)); got != "value" {
		t.Errorf("forced linear: %v", got)
	}
	if got := scale(steady, WithLatencyScale(ScaleLog)); got != "log" {
		t.Errorf("forced log: %v", got)
	}
}

func TestLatencyCDFLeavesOutPoliciesWithoutLatency(t *testing.T) {
	f, err := LatencyCDF(halfDeadComparison(t))
	if err != nil {
		t.Fatal(err)
	}
	o := optionOf(t, f)
	if len(seriesIn(o, 0, "line", "round-robin")) != 0 || !strings.Contains(subtitle(o), "no completed cohort request: round-robin") {
		t.Errorf("round-robin drawn or not named: %q", subtitle(o))
	}
	if _, err := LatencyCDF(deadComparison(t)); err == nil || !strings.Contains(err.Error(), "no run has latencies") {
		t.Errorf("a comparison without latencies: err = %v", err)
	}
}

// The CDF's points are bounded, monotone, and keep the tail: the pooled
// maximum and ranks beyond the 99th percentile are drawn.
func TestCDFDownsampling(t *testing.T) {
	for _, n := range []int{1, 2, 399, 400, 401, 12_000, 1_000_000} {
		ranks := cdfRanks(n, maxCDFPoints)
		if len(ranks) > maxCDFPoints || ranks[0] != 1 || ranks[len(ranks)-1] != n {
			t.Errorf("n=%d: %d ranks from %d to %d", n, len(ranks), ranks[0], ranks[len(ranks)-1])
		}
		if !slices.IsSorted(ranks) || len(slices.Compact(slices.Clone(ranks))) != len(ranks) {
			t.Errorf("n=%d: ranks not strictly increasing", n)
		}
		tail := 0
		for _, k := range ranks {
			if float64(k) > 0.99*float64(n) {
				tail++
			}
		}
		if want := min(n-int(0.99*float64(n)), 100); tail < want {
			t.Errorf("n=%d: %d ranks above the 99th percentile, want at least %d", n, tail, want)
		}
	}
	c := testComparison(t, "steady")
	f, _ := LatencyCDF(c)
	for _, s := range objects(optionOf(t, f)["series"]) {
		data, _ := s["data"].([]any)
		for i := 1; i < len(data); i++ {
			a, b := data[i-1].([]any), data[i].([]any)
			if a[0].(float64) > b[0].(float64) {
				t.Fatalf("series %v: latency decreases at point %d", s["id"], i)
			}
		}
	}
}

// The marks drawn on a timeline are the protocol's warm-up and its run's
// events: one shaded interval per fail/recover, slow/restore or traffic
// change, on every panel, labelled once, above the top one.
func TestTimelineEventMarks(t *testing.T) {
	for _, c := range []struct {
		scenario, label string
		start, end      float64
	}{
		{"failure", "replica 2 down 6–10 s", 6, 10},
		{"straggler", "replica 1 ×5 slower 5–10 s", 5, 10},
		{"burst", "traffic ×2 6–9 s", 6, 9},
	} {
		r := testRun(t, c.scenario, engine.LeastQueue())
		f, err := Timeline(r)
		if err != nil {
			t.Fatal(err)
		}
		o := optionOf(t, f)
		var areas int
		for _, s := range objects(o["series"]) {
			ma, ok := s["markArea"].(map[string]any)
			if !ok {
				continue
			}
			areas++
			var spans [][2]any
			for _, d := range ma["data"].([]any) {
				pair := d.([]any)
				spans = append(spans, [2]any{pair[0].(map[string]any)["xAxis"], pair[1].(map[string]any)["xAxis"]})
			}
			if want := [][2]any{{0.0, 3.0}, {c.start, c.end}}; !slices.Equal(spans, want) {
				t.Errorf("%s: shaded %v, want the warm-up and the event %v", c.scenario, spans, want)
			}
		}
		if areas != 4 {
			t.Errorf("%s: %d panels with the event, want 4", c.scenario, areas)
		}
		labels := placedTexts(t, o)
		for _, want := range []string{"warm-up 0–3 s", "measured 3–15 s", c.label} {
			if n := slices.Index(labels, want); n < 0 || slices.Index(labels[n+1:], want) >= 0 {
				t.Errorf("%s: label %q not placed exactly once: %q", c.scenario, want, labels)
			}
		}
		if !strings.Contains(subtitle(o), "events (darker shading, dashed lines): "+c.label) {
			t.Errorf("%s: subtitle %q", c.scenario, subtitle(o))
		}
	}
}

// placedTexts are the texts of a figure's label series (layout.labels),
// read back from their render functions.
func placedTexts(t *testing.T, o map[string]any) []string {
	t.Helper()
	var out []string
	for _, s := range objects(o["series"]) {
		src, _ := s["renderItem"].(string)
		start := strings.Index(src, "var L = ")
		if start < 0 {
			continue
		}
		src = src[start+len("var L = "):]
		var specs []struct{ Text string }
		if err := json.NewDecoder(strings.NewReader(src)).Decode(&specs); err != nil {
			t.Fatalf("label series: %v", err)
		}
		for _, sp := range specs {
			out = append(out, sp.Text)
		}
	}
	return out
}

func TestTimelineEventPairing(t *testing.T) {
	evs := []engine.Event{
		{At: 1000, Kind: engine.EventFail, Replica: 1},
		{At: 2000, Kind: engine.EventSlow, Replica: 2, Value: 3},
		{At: 3000, Kind: engine.EventScaleRate, Value: 2},
		{At: 4000, Kind: engine.EventSlow, Replica: 2, Value: 1},
		{At: 5000, Kind: engine.EventSetRate, Value: 300},
		{At: 6000, Kind: engine.EventRecover, Replica: 1},
		{At: 7000, Kind: engine.EventScaleRate, Value: 1},
		{At: 8000, Kind: engine.EventFail, Replica: 3},
	}
	got := timelineEvents(evs)
	want := []Event{
		{"replica 1 down 1–6 s", 1, 6},
		{"replica 2 ×3 slower 2–4 s", 2, 4},
		{"traffic ×2 3–5 s", 3, 5},
		{"rate 300 req/s 5–7 s", 5, 7},
		{"replica 3 down at 8 s", 8, 0},
	}
	if !slices.Equal(got, want) {
		t.Errorf("events\n got %v\nwant %v", got, want)
	}
}

func TestTimelineErrorsAndBounds(t *testing.T) {
	scn, _ := engine.BuiltinScenario("burst", 175, engine.DefaultHeterogeneity)
	run := func(every float64) *engine.RunResult {
		r, err := engine.Run(context.Background(), engine.RunSpec{Scenario: scn, Policy: engine.RoundRobin(), Seed: 3,
			Protocol: engine.DefaultProtocol(), SampleEvery: every})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if _, err := Timeline(run(0)); err == nil || !strings.Contains(err.Error(), "SampleEvery") {
		t.Errorf("run without timeline: err = %v", err)
	}
	if _, err := Timeline(nil); err == nil {
		t.Error("nil run: no error")
	}
	f, err := Timeline(run(2)) // 7501 samples
	if err != nil {
		t.Fatal(err)
	}
	o := optionOf(t, f)
	for _, s := range objects(o["series"]) {
		if n := len(s["data"].([]any)); n > maxTimelinePoints {
			t.Errorf("series %v: %d points", s["id"], n)
		}
	}
	if sub := subtitle(o); !strings.Contains(sub, "each point merges 19 samples") {
		t.Errorf("subtitle %q does not say samples were merged", sub)
	}
	// Shares of one window add up to 100%.
	var sum [3]float64
	for i, name := range []string{"replica 1", "replica 2", "replica 3"} {
		s := seriesIn(o, 3, "line", name)[0]
		pt := s["data"].([]any)[10].([]any)
		sum[i] = pt[1].(float64)
	}
	if total := sum[0] + sum[1] + sum[2]; math.Abs(total-100) > 0.05 {
		t.Errorf("shares add up to %g%%", total)
	}
}

func TestRateSweepChecks(t *testing.T) {
	sw := testSweep(t)
	f, err := RateSweep(sw)
	if err != nil {
		t.Fatal(err)
	}
	o := optionOf(t, f)
	// The median line follows the sweep's rates, in order.
	line := seriesIn(o, 0, "line", "adaptive")[0]["data"].([]any)
	var xs []float64
	for _, d := range line {
		xs = append(xs, d.(map[string]any)["value"].([]any)[0].(float64))
	}
	if !slices.Equal(xs, []float64{100, 150, 200, 230, 260}) {
		t.Errorf("x values %v", xs)
	}
	whiskers := seriesIn(o, 0, "custom", "adaptive")
	if len(whiskers) != 1 || len(whiskers[0]["data"].([]any)) != 5 {
		t.Fatalf("whiskers: %v", whiskers)
	}
	// Each whisker carries the min–max and, inside it, the median's interval.
	for _, d := range whiskers[0]["data"].([]any) {
		v := d.([]any)
		if len(v) != 5 || !(v[1].(float64) <= v[3].(float64) && v[3].(float64) <= v[4].(float64) && v[4].(float64) <= v[2].(float64)) {
			t.Errorf("whisker %v: want [x, min, max, ciLo, ciHi] with min ≤ ciLo ≤ ciHi ≤ max", v)
		}
	}
	if sub := subtitle(o); !strings.Contains(sub, "boxes: ") || !strings.Contains(sub, "% interval of each median (order statistics)") {
		t.Errorf("caption does not say what the boxes are: %q", sub)
	}
	// Capacity at the default speeds, 8, 11 and 16 ms per reference
	// request: 1000/8 + 1000/11 + 1000/16 = 278.4 req/s.
	if labels := placedTexts(t, o); !slices.Contains(labels, "capacity 278 req/s") {
		t.Errorf("capacity not marked: %q", labels)
	}
	if sub := subtitle(o); !strings.Contains(sub, "capacity 278 req/s") || !strings.Contains(sub, "artefact of the 12 s window with no draining") {
		t.Errorf("caption does not explain capacity and the plateau: %q", sub)
	}
	dup := *sw
	dup.Points = slices.Clone(sw.Points)
	dup.Points[1].X = dup.Points[0].X
	if _, err := RateSweep(&dup); err == nil || !strings.Contains(err.Error(), "both at x = 100") {
		t.Errorf("duplicate x: err = %v", err)
	}
	if _, err := RateSweep(nil); err == nil {
		t.Error("nil sweep: no error")
	}
}

func TestStudyHeatmapCells(t *testing.T) {
	st := testStudy(t)
	f, err := StudyHeatmap(st)
	if err != nil {
		t.Fatal(err)
	}
	o := optionOf(t, f)
	var cells []any
	for _, s := range objects(o["series"]) {
		if s["type"] == "heatmap" {
			cells = s["data"].([]any)
		}
	}
	conds := st.Config.Conditions()
	if want := (len(conds) + 1) * len(st.Config.Weights); len(cells) != want {
		t.Fatalf("%d cells, want %d", len(cells), want)
	}
	sel := slices.Index(st.Config.Weights, st.SelectedC)
	var scores []string
	for _, c := range cells {
		m := c.(map[string]any)
		v := m["value"].([]any)
		col, row, att := int(v[0].(float64)), int(v[1].(float64)), v[2].(float64)
		if _, outlined := m["itemStyle"]; outlined != (col == sel) {
			t.Errorf("cell %v: outlined %v, selected column %d", v, outlined, sel)
		}
		if row == 0 {
			if want := round(100*st.Weights[col].MeanAttainment, 4); att != want {
				t.Errorf("score of weight %d: %g, want %g", col, att, want)
			}
			scores = append(scores, m["label"].(map[string]any)["formatter"].(string))
		}
	}
	// The selected weight's score reads differently from every other.
	for i, sc := range scores {
		if i != sel && sc == scores[sel] {
			t.Errorf("scores %q: the selected weight's is not told apart", scores)
		}
	}
	if _, err := StudyHeatmap(&experiment.StudyResult{}); err == nil {
		t.Error("empty study: no error")
	}
}

func TestPairedDifferences(t *testing.T) {
	c := halfDeadComparison(t)
	f, err := Paired(c, "round-robin", "adaptive")
	if err != nil {
		t.Fatal(err)
	}
	o := optionOf(t, f)
	for _, name := range []string{"round-robin", "adaptive"} {
		for _, s := range seriesIn(o, 0, "bar", name) {
			for _, d := range s["data"].([]any) {
				if d != "-" {
					t.Errorf("%s: Δ p99 %v drawn for a run without latency", name, d)
				}
			}
		}
	}
	if sub := subtitle(o); !strings.Contains(sub, "left out of Δ p99 (a run without completed requests): seeds 1, 2, 3, 4") {
		t.Errorf("subtitle %q", sub)
	}
	// Attainment is defined for every seed: each bar is b − a in points.
	s := testComparison(t, "steady")
	f, _ = Paired(s, "round-robin", "least-queue")
	var n int
	for _, name := range []string{"round-robin", "least-queue"} {
		for _, ser := range seriesIn(optionOf(t, f), 1, "bar", name) {
			for k, d := range ser["data"].([]any) {
				if d == "-" {
					continue
				}
				n++
				want := 100 * (s.Policies[1].Runs[k].Attainment - s.Policies[0].Runs[k].Attainment)
				if got := d.(map[string]any)["value"].(float64); math.Abs(got-want) > 1e-3 {
					t.Errorf("seed %d: Δ %g, want %g", k+1, got, want)
				}
			}
		}
	}
	ties := 0
	for k := range s.Seeds {
		if s.Policies[1].Runs[k].Attainment == s.Policies[0].Runs[k].Attainment {
			ties++
		}
	}
	if n+ties != len(s.Seeds) {
		t.Errorf("%d attainment bars and %d ties for %d seeds", n, ties, len(s.Seeds))
	}
	for _, pair := range [][2]string{{"adaptive", "adaptive"}, {"adaptive", "nope"}} {
		if _, err := Paired(s, pair[0], pair[1]); err == nil || !strings.Contains(err.Error(), `"least-queue"`) {
			t.Errorf("Paired(%q, %q): err = %v", pair[0], pair[1], err)
		}
	}
	if _, err := Paired(s, "adaptive", "adaptive"); err == nil || !strings.Contains(err.Error(), `two different policies; got "adaptive" twice`) {
		t.Errorf("Paired of one policy with itself: err = %v", err)
	}
}

// Two policies that route alike differ on no seed: each panel says so, and
// no bar claims a winner.
func TestPairedIdentical(t *testing.T) {
	c := compare(t, mustScenario(t, "steady"), twins(), testSeeds(), testProtocol())
	f, err := Paired(c, twinNames[0], twinNames[1])
	if err != nil {
		t.Fatal(err)
	}
	o := optionOf(t, f)
	if labels := placedTexts(t, o); !slices.Equal(labels, []string{"identical on every seed", "identical on every seed"}) {
		t.Errorf("panel notes %q", labels)
	}
	if sub := subtitle(o); !strings.Contains(sub, "p99: identical on every seed · attainment: identical on every seed") {
		t.Errorf("subtitle %q", sub)
	}
	for _, s := range objects(o["series"]) {
		if s["type"] != "bar" {
			continue
		}
		for _, d := range s["data"].([]any) {
			if d != "-" {
				t.Errorf("%v: a bar %v for a tie", s["name"], d)
			}
		}
	}
}

// Options, palettes, renderers, pages and specs say what they are; none
// shows as a function pointer.
func TestValuesSayWhatTheyAre(t *testing.T) {
	pal, _ := DefaultPalette().With("mine", "#123456")
	cases := map[string]fmt.Stringer{
		`plot.WithTitle("p99 <b>")`: WithTitle("p99 <b>"),
		`plot.WithSize(1200, 500)`:  WithSize(1200, 500),
		`plot.WithSLO(50)`:          WithSLO(50),
		`plot.Option{} (no effect)`: Option{},
		`plot.WithPalette(palette: adaptive #e8590c, latency-aware #9285f8, least-queue #35a593, mine #123456, p2c #b9556b, random #8d484a, round-robin #313df9, weighted-rr #8a6491; 12 further colours)`: WithPalette(pal),
		`plot.WithWidth(317)`: WithWidth(317),
		`plot.WithPaper(3.3)`: WithPaper(OneColumn),
		`plot.WithProtocol(engine.Protocol{Warmup: 3000, Measure: 12000, SLO: 50})`: WithProtocol(engine.DefaultProtocol()),
		`plot.WithRenderer(SVG renderer keeping up to 2 JavaScript runtimes)`:       WithRenderer(NewSVGRenderer(2)),
		`page "runs" with 0 figures`: NewPage("runs"),
		`figure spec "f": title "", theme "", 0×0 (0: the chart's own or 900×500); no palette; no SVG renderer (one-off runtimes)`: Spec{ID: "f"},
	}
	for want, v := range cases {
		if got := v.String(); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
	// The zero option is skipped, as a nil option was before options had names.
	if _, err := Comparison(testComparison(t, "steady"), Option{}); err != nil {
		t.Errorf("zero option: %v", err)
	}
}

func TestOptionErrors(t *testing.T) {
	c := testComparison(t, "steady")
	for _, o := range []Option{WithTheme("blue"), WithSize(10, 10), WithPalette(nil), WithLatencyScale("cubic"), WithSLO(-1), WithID("no spaces")} {
		if _, err := Comparison(c, o); err == nil {
			t.Errorf("option accepted")
		} else if !strings.Contains(err.Error(), "plot:") {
			t.Errorf("unclear error %v", err)
		}
	}
	pal, _ := DefaultPalette().With("adaptive", "#123456")
	f, err := Comparison(c, WithID("mine"), WithTitle("My title"), WithTheme(ThemeDark), WithSize(1200, 500), WithPalette(pal))
	if err != nil {
		t.Fatal(err)
	}
	w, h := f.Size()
	if f.ID() != "mine" || f.Title() != "My title" || f.Theme() != ThemeDark || w != 1200 || h != 500 {
		t.Errorf("options not applied: %v", f)
	}
	if !strings.Contains(string(f.OptionJSON()), `"#123456"`) {
		t.Error("custom palette not used")
	}
	if _, err := Comparison(nil); err == nil {
		t.Error("nil comparison: no error")
	}
	short := *c
	short.Seeds = c.Seeds[:2]
	for _, build := range []func() (*Figure, error){
		func() (*Figure, error) { return Comparison(&short) },
		func() (*Figure, error) { return LatencyCDF(&short) },
		func() (*Figure, error) { return Paired(&short, "adaptive", "least-queue") },
	} {
		if _, err := build(); err == nil || !strings.Contains(err.Error(), "4 runs for 2 seeds") {
			t.Errorf("runs without seeds: err = %v", err)
		}
	}
}

func TestComparisonTable(t *testing.T) {
	c := halfDeadComparison(t)
	tab := ComparisonTable(c)
	doc := parseXHTML(t, tab)
	if len(doc.rows) != len(c.Policies) {
		t.Fatalf("%d rows for %d policies", len(doc.rows), len(c.Policies))
	}
	for i, row := range doc.rows {
		if len(row) != 12 || row[0] != c.Policies[i].Name {
			t.Errorf("row %d: %q", i, row)
		}
	}
	// round-robin has no latency: em dashes, not numbers or NaN.
	if rr := doc.rows[0]; rr[2] != "—" || rr[4] != "—" || rr[5] != "—" || rr[6] != "—" {
		t.Errorf("round-robin row %q", rr)
	}
	if strings.Contains(tab, "NaN") {
		t.Error("NaN in the table")
	}
	// The note on em dashes is there when a cell is undefined, and only then.
	if !strings.Contains(tab, "— : undefined") {
		t.Error("a table with undefined cells does not say what — means")
	}
	if full := ComparisonTable(testComparison(t, "steady")); strings.Contains(full, "— : undefined") {
		t.Error("a table without undefined cells explains —")
	}
	// The best p99 is bold: adaptive's or latency-aware's, whichever is lower.
	best := slices.MinFunc(c.Policies[1:], func(a, b experiment.PolicyResult) int { return cmp.Compare(a.Summary.MedianP99, b.Summary.MedianP99) })
	if !doc.bold[best.Name+"/4"] || len(doc.bold) < 5 {
		t.Errorf("bold cells %v; the best p99 is %s's", doc.bold, best.Name)
	}
	if got := ComparisonTable(injectionComparison(t)); strings.Contains(got, "<b>") || !strings.Contains(got, "&lt;/script&gt;&lt;b&gt;x") {
		t.Errorf("injection not escaped:\n%s", got)
	}
}

func TestReport(t *testing.T) {
	c := testComparison(t, "burst")
	r, err := Report(c, WithID("burst"))
	if err != nil {
		t.Fatal(err)
	}
	figs := r.Figures()
	if len(figs) != 2 || figs[0].ID() != "burst-comparison" || figs[1].ID() != "burst-latency-cdf" {
		t.Fatalf("figures %v", figs)
	}
	h := r.HTML()
	lib := libraryGzipBase64()
	if strings.Count(h, lib) != 1 || !strings.HasPrefix(h, r.Table()) || !strings.Contains(h, figs[1].LightFragment()) {
		t.Error("notebook output: want the table, one full fragment, then light ones")
	}
	page, err := r.Render()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), "<script"); n != 3 {
		t.Errorf("%d scripts in the page, want the library and one per figure", n)
	}
	dead, err := Report(deadComparison(t))
	if err != nil || len(dead.Figures()) != 1 {
		t.Errorf("report without latencies: %v, %v", dead, err)
	}
}

// xhtmlTable is what TestComparisonTable reads from the table.
type xhtmlTable struct {
	rows [][]string
	bold map[string]bool
}

func parseXHTML(t *testing.T, s string) xhtmlTable {
	t.Helper()
	var tab struct {
		Body []struct {
			Cells []struct {
				Style string `xml:"style,attr"`
				Text  string `xml:",chardata"`
			} `xml:"td"`
		} `xml:"table>tbody>tr"`
	}
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	if err := dec.Decode(&tab); err != nil {
		t.Fatalf("table is not well-formed: %v", err)
	}
	out := xhtmlTable{bold: map[string]bool{}}
	for _, r := range tab.Body {
		var row []string
		for i, c := range r.Cells {
			row = append(row, strings.TrimSpace(c.Text))
			if strings.Contains(c.Style, "font-weight:700") {
				out.bold[fmt.Sprintf("%s/%d", strings.TrimSpace(r.Cells[0].Text), i)] = true
			}
		}
		out.rows = append(out.rows, row)
	}
	return out
}

// The boxes of a sweep are distribution-free intervals of the median, by
// hand: with 10 values the ranks 2 and 9 (coverage 1 − 2·11/1024 =
// 97.85 %; ranks 3 and 8 would cover only 89.06 %), with 5 the range
// (93.75 %, all five can give), with 20 the ranks 6 and 15 (1 − 2·P(B ≤ 5)
// = 1 − 2·21700/1048576 = 95.86 %).
func TestMedianInterval(t *testing.T) {
	seq := func(n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = float64(n - i) // unsorted on purpose
		}
		return out
	}
	for _, c := range []struct {
		n             int
		lo, hi, cover float64
	}{
		{10, 2, 9, 1 - 2*11.0/1024},
		{5, 1, 5, 1 - 2.0/32},
		{20, 6, 15, 1 - 2*21700.0/1048576},
		{1, 1, 1, 0},
	} {
		got := medianInterval(seq(c.n))
		if got.lo != c.lo || got.hi != c.hi || math.Abs(got.coverage-c.cover) > 1e-12 {
			t.Errorf("n = %d: %+v, want [%g, %g] covering %.6f", c.n, got, c.lo, c.hi, c.cover)
		}
	}
	if got := medianInterval(nil); !math.IsNaN(got.lo) {
		t.Errorf("no values: %+v", got)
	}
}

// A serving comparison's thirteen metric columns would scroll in a notebook
// 1000 px wide: they are two tables, latencies (ms) then the rest, each
// with every policy, the runs in the first; the specification's ten stay
// one table.
func TestServingTableIsTwoTables(t *testing.T) {
	c := servingComparison(t)
	tab := ComparisonTable(c)
	if n := strings.Count(tab, "<table"); n != 2 {
		t.Fatalf("%d tables, want 2", n)
	}
	doc := parseXHTML(t, tab)
	if len(doc.rows) != 2*len(c.Policies) {
		t.Fatalf("%d rows for %d policies in two tables", len(doc.rows), len(c.Policies))
	}
	for i, row := range doc.rows {
		want := 2 + 6
		if i >= len(c.Policies) {
			want = 1 + 7
		}
		if len(row) != want || row[0] != c.Policies[i%len(c.Policies)].Name {
			t.Errorf("row %d: %q, want %d cells starting with %q", i, row, want, c.Policies[i%len(c.Policies)].Name)
		}
	}
	for _, col := range tableColumns(c) {
		if !strings.Contains(tab, ">"+strings.Replace(col.Head, " ", "<br/>", 1)) && !strings.Contains(tab, ">"+col.Head+"<br/>") {
			t.Errorf("no column %q", col.Head)
		}
	}
	if n := strings.Count(ComparisonTable(testComparison(t, "straggler")), "<table"); n != 1 {
		t.Errorf("the specification's table is %d tables", n)
	}
}
