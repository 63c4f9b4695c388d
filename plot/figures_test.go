package plot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// figureKind is one figure builder (draw) applied to real engine results
// (data), and the policies or series whose palette colours it must show.
type figureKind struct {
	name     string
	data     func(t testing.TB) any
	draw     func(data any) (*Figure, error)
	policies []string
}

func (k figureKind) build(t testing.TB) (*Figure, error) { return k.draw(k.data(t)) }

func specNames() []string { return []string{"round-robin", "least-queue", "latency-aware", "adaptive"} }

func figureKinds() []figureKind {
	comparison := func(scenario string) func(testing.TB) any {
		return func(t testing.TB) any { return testComparison(t, scenario) }
	}
	return []figureKind{
		{"comparison", comparison("straggler"),
			func(d any) (*Figure, error) { return Comparison(d.(*experiment.Comparison)) }, specNames()},
		{"comparison-sparse", func(t testing.TB) any { return sparseComparison(t) },
			func(d any) (*Figure, error) { return Comparison(d.(*experiment.Comparison)) }, specNames()},
		{"latency-cdf", comparison("failure"),
			func(d any) (*Figure, error) { return LatencyCDF(d.(*experiment.Comparison)) }, specNames()},
		{"timeline", func(t testing.TB) any { return testRun(t, "failure", engine.Adaptive(engine.DefaultAdaptiveParams())) },
			func(d any) (*Figure, error) { return Timeline(d.(*engine.RunResult)) },
			[]string{"replica 1", "replica 2", "replica 3", "adaptive"}},
		{"rate-sweep", func(t testing.TB) any { return testSweep(t) },
			func(d any) (*Figure, error) { return RateSweep(d.(*experiment.SweepResult)) }, specNames()},
		{"study", func(t testing.TB) any { return testStudy(t) },
			func(d any) (*Figure, error) { return StudyHeatmap(d.(*experiment.StudyResult)) }, specNames()},
		{"paired", comparison("straggler"),
			func(d any) (*Figure, error) { return Paired(d.(*experiment.Comparison), "least-queue", "adaptive") },
			[]string{"least-queue", "adaptive"}},
	}
}

func buildKind(t testing.TB, name string) *Figure {
	t.Helper()
	for _, k := range figureKinds() {
		if k.name == name {
			f, err := k.build(t)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return f
		}
	}
	t.Fatalf("no figure kind %q", name)
	return nil
}

// TestFigureGolden pins each figure kind's option JSON, built from fixed
// engine seeds; run with -update after a deliberate change (of a builder
// or of the engine) and review the diff.
func TestFigureGolden(t *testing.T) {
	for _, k := range figureKinds() {
		t.Run(k.name, func(t *testing.T) {
			f := buildKind(t, k.name)
			got, err := compactIndent(f.OptionJSON())
			if err != nil {
				t.Fatalf("OptionJSON is not JSON: %v", err)
			}
			path := filepath.Join("testdata", k.name+".golden.json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./plot -run TestFigureGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("option of %s differs from %s; run with -update if the change is intended", k.name, path)
			}
		})
	}
}

// TestFigureInvariants holds beside the golden files, whatever the numbers.
func TestFigureInvariants(t *testing.T) {
	for _, k := range figureKinds() {
		t.Run(k.name, func(t *testing.T) {
			f := buildKind(t, k.name)
			o := optionOf(t, f)
			checkPolicyColors(t, o, k.policies)
			checkSeriesData(t, o)
			checkAxisUnits(t, o)
			checkComponents(t, f, o)
			again := buildKind(t, k.name)
			if !bytes.Equal(f.OptionJSON(), again.OptionJSON()) || f.ID() != again.ID() {
				t.Error("the same data gave a different figure")
			}
			if kind := strings.TrimSuffix(k.name, "-sparse"); !strings.HasPrefix(f.ID(), kind+"-") {
				t.Errorf("id %q does not name the kind %q", f.ID(), kind)
			}
			assertScriptSafe(t, f.OptionJS())
		})
	}
}

// wantColor is a series' colour: a replica's grey, else its palette colour.
func wantColor(name string) string {
	var id int
	if _, err := fmt.Sscanf(name, "replica %d", &id); err == nil {
		return replicaStyle(id).Color
	}
	return DefaultPalette().Color(name)
}

// checkPolicyColors: every policy has series, all drawn in its palette
// colour, and the legend lists it.
func checkPolicyColors(t *testing.T, o map[string]any, policies []string) {
	t.Helper()
	seen := map[string]int{}
	for _, s := range objects(o["series"]) {
		name, _ := s["name"].(string)
		if name == "" || s["type"] == "heatmap" {
			continue
		}
		seen[name]++
		want := wantColor(name)
		for _, style := range []string{"itemStyle", "lineStyle"} {
			st, _ := s[style].(map[string]any)
			if c, ok := st["color"].(string); ok && c != want && !strings.HasPrefix(c, strings.TrimSuffix(tint(want, 1), "1)")) {
				t.Errorf("series %q (%v) has %s colour %v, its palette colour is %s", name, s["type"], style, c, want)
			}
			if st == nil && style == "itemStyle" {
				t.Errorf("series %q (%v) has no explicit colour", name, s["type"])
			}
		}
	}
	for _, p := range policies {
		if seen[p] == 0 {
			t.Errorf("policy %q has no series (series: %v)", p, seen)
		}
	}
	if l, _ := o["legend"].(map[string]any); l["show"] == true {
		var listed []string
		for _, d := range objects(l["data"]) {
			listed = append(listed, d["name"].(string))
		}
		for _, p := range policies {
			if !slices.Contains(listed, p) {
				t.Errorf("legend %v lacks %q", listed, p)
			}
		}
	}
}

// checkSeriesData: bounded point counts (a CDF's or a timeline's), no null (an undefined value must
// be "-" or left out), no zero drawn for an undefined latency.
func checkSeriesData(t *testing.T, o map[string]any) {
	t.Helper()
	for _, s := range objects(o["series"]) {
		data, _ := s["data"].([]any)
		if limit := max(maxCDFPoints, maxTimelinePoints); len(data) > limit {
			t.Errorf("series %q has %d points, more than %d", s["name"], len(data), limit)
		}
		if strings.Contains(mustJSON(t, data), "null") {
			t.Errorf("series %q has null data", s["name"])
		}
	}
}

// unitName is an axis name with its unit in parentheses.
var unitName = regexp.MustCompile(`\S \(.+\)$`)

// checkAxisUnits: every value or log axis is named with its unit, except
// an x axis of a panel stacked above another that shares it (the last x
// axis, named, of the same type).
func checkAxisUnits(t *testing.T, o map[string]any) {
	t.Helper()
	for _, dim := range []string{"xAxis", "yAxis"} {
		axes := objects(o[dim])
		for i, a := range axes {
			if a["type"] == "category" {
				continue
			}
			name, _ := a["name"].(string)
			name = strings.ReplaceAll(name, "\n", " ") // wrapped to its panel
			if last := axes[len(axes)-1]; dim == "xAxis" && name == "" && i < len(axes)-1 && last["type"] == a["type"] && unitName.MatchString(last["name"].(string)) {
				continue
			}
			if !unitName.MatchString(name) {
				t.Errorf("%s[%d] (%v) is named %q, without a unit", dim, i, a["type"], name)
			}
		}
	}
}

// checkComponents: a title, a save-as-image toolbox and a tooltip.
func checkComponents(t *testing.T, f *Figure, o map[string]any) {
	t.Helper()
	if f.Title() == "" || objects(o["title"])[0]["text"] != f.Title() {
		t.Errorf("title %q, option title %v", f.Title(), o["title"])
	}
	tb, _ := o["toolbox"].(map[string]any)
	feature, _ := tb["feature"].(map[string]any)
	if _, ok := feature["saveAsImage"]; !ok {
		t.Error("no save-as-image in the toolbox")
	}
	tip, _ := o["tooltip"].(map[string]any)
	if tip["show"] != true || !strings.HasPrefix(tip["formatter"].(string), "function") {
		t.Errorf("tooltip %v", tip)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compactIndent pretty-prints JSON with one object key or array element per
// line, but arrays of scalars (a data point) on one line, so golden files
// stay small and their diffs readable.
func compactIndent(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	writeIndented(&b, v, "")
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func writeIndented(b *bytes.Buffer, v any, indent string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("{\n")
		for i, k := range keys {
			kb, _ := json.Marshal(k)
			b.WriteString(indent + "  " + string(kb) + ": ")
			writeIndented(b, x[k], indent+"  ")
			if i < len(keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if scalars(x) {
			enc, _ := json.Marshal(x)
			b.Write(enc)
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(indent + "  ")
			writeIndented(b, e, indent+"  ")
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	default:
		enc, _ := json.Marshal(x)
		b.Write(enc)
	}
}

// scalars tells whether x holds no objects or arrays.
func scalars(x []any) bool {
	for _, e := range x {
		switch e.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

// Static exports (SVG, PNG, PDF) draw no interactive control: no toolbox,
// no zoom slider, no scrolling legend, no tooltip; the interactive option
// keeps them. The timeline and the sample with a slider have both.
func TestStaticExportsHaveNoControls(t *testing.T) {
	figs := []*Figure{sampleFigure(t, "line-log"), sampleFigure(t, "line-events")}
	for _, k := range figureKinds() {
		figs = append(figs, buildKind(t, k.name))
	}
	for i, f := range figs {
		for _, control := range []string{`"toolbox":`, `"type":"slider"`, `"type":"scroll"`, `"tooltip":`} {
			if strings.Contains(f.staticJS, control) {
				t.Errorf("%s: the static option has %s", f.ID(), control)
			}
		}
		if i > 0 && !strings.Contains(f.OptionJS(), `"toolbox":`) { // the line-log sample has none
			t.Errorf("%s: the interactive option lost its toolbox", f.ID())
		}
	}
	if tl := buildKind(t, "timeline"); !strings.Contains(tl.OptionJS(), `"type":"slider"`) {
		t.Error("the interactive timeline has no zoom slider")
	}
}
