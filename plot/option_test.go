package plot

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the current output")

// TestOptionGolden pins each sample's option JSON; run with -update after a
// deliberate change and review the diff.
func TestOptionGolden(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			f := sampleFigure(t, s.name)
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, f.OptionJSON(), "", "  "); err != nil {
				t.Fatalf("OptionJSON is not JSON: %v", err)
			}
			pretty.WriteByte('\n')
			path := filepath.Join("testdata", s.name+".golden.json")
			if *update {
				if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./plot -run TestOptionGolden -update)", err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Errorf("option of %s differs from %s; run with -update if the change is intended:\n%s", s.name, path, pretty.String())
			}
		})
	}
}

// TestOptionInvariants holds beside the golden files: whatever the numbers,
// these must be true of every sample.
func TestOptionInvariants(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			f := sampleFigure(t, s.name)
			var o map[string]any
			if err := json.Unmarshal(f.OptionJSON(), &o); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, sr := range o["series"].([]any) {
				names = append(names, sr.(map[string]any)["name"].(string))
			}
			if !slices.Equal(names, f.Series()) || len(names) == 0 {
				t.Errorf("series %v, Series() %v", names, f.Series())
			}
			// One stable colour per series name, from the palette.
			var colors []string
			for _, c := range o["color"].([]any) {
				colors = append(colors, c.(string))
			}
			if want := DefaultPalette().colors(names); !slices.Equal(colors, want) {
				t.Errorf("colours %v, palette gives %v", colors, want)
			}
			for i, n := range names {
				if c := DefaultPalette().Color(n); slices.Contains(samplePolicies, n) && colors[i] != c {
					t.Errorf("policy %s drawn %s, its colour is %s", n, colors[i], c)
				}
			}
			if o["backgroundColor"] != "transparent" {
				t.Errorf("backgroundColor %v: figures must let the page show through", o["backgroundColor"])
			}
			// Same chart, same bytes.
			again := sampleFigure(t, s.name)
			if !bytes.Equal(f.OptionJSON(), again.OptionJSON()) || f.OptionJS() != again.OptionJS() || f.Fragment() != again.Fragment() {
				t.Error("the same chart gave different output")
			}
			assertScriptSafe(t, f.OptionJS())
		})
	}
}

// assertScriptSafe fails if text could end a <script> element or open an
// HTML comment inside one.
func assertScriptSafe(t *testing.T, text string) {
	t.Helper()
	low := strings.ToLower(text)
	for _, bad := range []string{"</script", "<!--", "<script"} {
		if strings.Contains(low, bad) {
			t.Errorf("script text contains %q", bad)
		}
	}
}

func optionOf(t *testing.T, f *Figure) map[string]any {
	t.Helper()
	var o map[string]any
	if err := json.Unmarshal(f.OptionJSON(), &o); err != nil {
		t.Fatal(err)
	}
	return o
}

func rawGoEchartsJSON(t *testing.T, c Chart) string {
	t.Helper()
	b, err := json.Marshal(c.JSON())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Defect: go-echarts fills the x-axis data only in Validate, so JSON()
// before Validate() draws bars without categories.
func TestDefectXAxisDataNeedsValidate(t *testing.T) {
	bar := charts.NewBar()
	bar.SetXAxis([]string{"p50", "p99"}).AddSeries("adaptive", []opts.BarData{{Value: 1}, {Value: 2}})
	if strings.Contains(rawGoEchartsJSON(t, bar), "p50") {
		t.Log("go-echarts now fills x-axis data without Validate; the workaround is harmless but may go")
	}
	f, err := New(bar, Spec{ID: "validate"})
	if err != nil {
		t.Fatal(err)
	}
	x := optionOf(t, f)["xAxis"].([]any)[0].(map[string]any)
	if got, _ := json.Marshal(x["data"]); string(got) != `["p50","p99"]` {
		t.Errorf("x-axis data %s", got)
	}
}

// Defect: go-echarts' renderer strips the function markers but leaves the
// JSON escapes inside the function, so a formatter with a double-quoted
// string is a syntax error on the page.
func TestDefectFunctionsUnquoted(t *testing.T) {
	line := charts.NewLine()
	line.SetGlobalOptions(charts.WithYAxisOpts(opts.YAxis{AxisLabel: &opts.AxisLabel{
		Formatter: opts.FuncOpts(`function (v) { return v + " ms</b>"; }`)}}))
	line.SetXAxis([]int{1, 2}).AddSeries("adaptive", []opts.LineData{{Value: 1}, {Value: 2}})
	if snippet := line.RenderSnippet(); !strings.Contains(snippet.Option, `\" ms`) {
		t.Log("go-echarts no longer leaves escaped quotes in functions")
	}
	f, err := New(line, Spec{ID: "functions"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.OptionJS(), `"formatter":function (v) { return v + " ms<\/b>"; }`) {
		t.Errorf("formatter not emitted as code:\n%s", f.OptionJS())
	}
	assertScriptSafe(t, f.OptionJS())
	// The emitted option must be JavaScript in which the formatter runs.
	vm := goja.New()
	v, err := vm.RunString("(" + f.OptionJS() + ").yAxis[0].axisLabel.formatter(5)")
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != "5 ms</b>" {
		t.Errorf("formatter(5) = %q", v.String())
	}
	// In the JSON form the function is its source, as a string.
	y := optionOf(t, f)["yAxis"].([]any)[0].(map[string]any)
	if y["axisLabel"].(map[string]any)["formatter"] != `function (v) { return v + " ms</b>"; }` {
		t.Errorf("JSON formatter %v", y["axisLabel"])
	}
}

// Defect: unset toolbox icons and titles are written as null, and ECharts
// then draws invisible zoom icons.
func TestDefectToolboxIconsNotNull(t *testing.T) {
	bar := charts.NewBar()
	bar.SetGlobalOptions(charts.WithToolboxOpts(opts.Toolbox{Feature: &opts.ToolBoxFeature{
		DataZoom: &opts.ToolBoxFeatureDataZoom{}, DataView: &opts.ToolBoxFeatureDataView{}}}))
	bar.SetXAxis([]string{"a"}).AddSeries("adaptive", []opts.BarData{{Value: 1}})
	if !strings.Contains(rawGoEchartsJSON(t, bar), `"icon":null`) {
		t.Log("go-echarts no longer writes null toolbox icons")
	}
	f, err := New(bar, Spec{ID: "toolbox"})
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := json.Marshal(optionOf(t, f)["toolbox"])
	if bytes.Contains(tb, []byte("null")) || bytes.Contains(tb, []byte(`""`)) {
		t.Errorf("toolbox still has empty entries: %s", tb)
	}
	if !bytes.Contains(tb, []byte(`"dataZoom":{}`)) {
		t.Errorf("toolbox lost its dataZoom tool: %s", tb)
	}
}

// Defect: WithColorsOpts reaches the option only with the "white" theme.
func TestDefectColorsWithAnyTheme(t *testing.T) {
	mine := []string{"#111111", "#222222"}
	bar := charts.NewBar()
	bar.SetGlobalOptions(charts.WithInitializationOpts(opts.Initialization{Theme: "dark"}), charts.WithColorsOpts(mine))
	bar.SetXAxis([]string{"a"}).AddSeries("adaptive", []opts.BarData{{Value: 1}})
	if strings.Contains(rawGoEchartsJSON(t, bar), "#111111") {
		t.Log("go-echarts now writes colours with any theme")
	}
	f, err := New(bar, Spec{ID: "colors"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Theme() != ThemeDark {
		t.Errorf("theme %s, want dark from the chart", f.Theme())
	}
	got, _ := json.Marshal(optionOf(t, f)["color"])
	if string(got) != `["#111111","#222222"]` {
		t.Errorf("color %s", got)
	}
}

// Defect: HeatMap.SetXAxis is ignored. A heat map without categories is an
// error naming the fix; categories given through the axis options work.
func TestDefectHeatMapXAxis(t *testing.T) {
	data := []opts.HeatMapData{{Value: [3]any{0, 0, 1}}, {Value: [3]any{1, 0, 2}}}
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: []string{"steady"}}))
	hm.SetXAxis([]string{"100/s", "175/s"}).AddSeries("adaptive", data)
	_, err := New(hm, Spec{ID: "heat"})
	if err == nil || !strings.Contains(err.Error(), "charts.WithXAxisOpts") || !strings.Contains(err.Error(), "x axis") {
		t.Fatalf("SetXAxis-only heat map: err = %v", err)
	}
	hm.SetGlobalOptions(charts.WithXAxisOpts(opts.XAxis{Type: "category", Data: []string{"100/s", "175/s"}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value"}))
	if _, err := New(hm, Spec{ID: "heat"}); err == nil || !strings.Contains(err.Error(), "y axis") {
		t.Fatalf("heat map on a value y axis: err = %v", err)
	}
	hm.SetGlobalOptions(charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: []string{"steady"}}))
	f, err := New(hm, Spec{ID: "heat"})
	if err != nil {
		t.Fatal(err)
	}
	x, _ := json.Marshal(optionOf(t, f)["xAxis"])
	if !strings.Contains(string(x), `"data":["100/s","175/s"]`) {
		t.Errorf("xAxis %s", x)
	}
}

// Defect: an inside data zoom without an axis index does not zoom.
func TestDefectInsideDataZoomBound(t *testing.T) {
	line := charts.NewLine()
	line.SetGlobalOptions(charts.WithDataZoomOpts(opts.DataZoom{Type: "inside"},
		opts.DataZoom{Type: "slider", Orient: "vertical"}, opts.DataZoom{Type: "slider", XAxisIndex: 0}))
	line.SetXAxis([]int{1, 2}).AddSeries("adaptive", []opts.LineData{{Value: 1}, {Value: 2}})
	f, err := New(line, Spec{ID: "zoom"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(optionOf(t, f)["dataZoom"])
	want := `[{"type":"inside","xAxisIndex":[0]},{"orient":"vertical","type":"slider","yAxisIndex":[0]},{"type":"slider","xAxisIndex":0}]`
	if string(got) != want {
		t.Errorf("dataZoom\n got %s\nwant %s", got, want)
	}
}

// Defect: WithProgressive writes the Animation setting as progressive.
func TestDefectProgressive(t *testing.T) {
	line := charts.NewLine()
	line.SetGlobalOptions(charts.WithProgressive(400), charts.WithAnimation(false))
	line.SetXAxis([]int{1}).AddSeries("adaptive", []opts.LineData{{Value: 1}})
	if !strings.Contains(rawGoEchartsJSON(t, line), `"progressive":false`) {
		t.Log("go-echarts now writes progressive correctly")
	}
	f, err := New(line, Spec{ID: "progressive"})
	if err != nil {
		t.Fatal(err)
	}
	if got := optionOf(t, f)["progressive"]; got != 400.0 {
		t.Errorf("progressive = %v", got)
	}
}

// Defect: user strings are not escaped for <script>. Every user string of
// the injection sample must stay text in the option.
func TestDefectUserStringsEscaped(t *testing.T) {
	f := sampleFigure(t, "injection")
	assertScriptSafe(t, f.OptionJS())
	o := optionOf(t, f)
	n := 0
	for _, text := range stringsIn(o) { // decoding undid the escapes
		if strings.Contains(text, injection) {
			n++
		}
	}
	if n < 4 {
		t.Errorf("injection text appears %d times in the decoded option, want title, axis, category and series", n)
	}
	if !strings.Contains(f.Title(), injection) {
		t.Errorf("Title() = %q", f.Title())
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	bar := func() *charts.Bar {
		b := charts.NewBar()
		b.SetXAxis([]string{"a"}).AddSeries("adaptive", []opts.BarData{{Value: 1}})
		return b
	}
	chalk := bar()
	chalk.SetGlobalOptions(charts.WithInitializationOpts(opts.Initialization{Theme: "chalk"}))
	listener := bar()
	listener.SetGlobalOptions(charts.WithEventListeners())
	listener.AddJSFuncStrs("console.log(1)")
	nan := charts.NewLine()
	nan.SetXAxis([]int{1}).AddSeries("adaptive", []opts.LineData{{Value: mathNaN()}})
	var nilBar *charts.Bar
	for _, c := range []struct {
		name  string
		chart Chart
		spec  Spec
		want  string
	}{
		{"empty id", bar(), Spec{}, `figure id "" is not allowed`},
		{"bad id", bar(), Spec{ID: `a"b`}, `figure id "a\"b" is not allowed`},
		{"digit first", bar(), Spec{ID: "1x"}, "starting with a letter"},
		{"nil chart", nil, Spec{ID: "x"}, "has no chart"},
		{"nil pointer", nilBar, Spec{ID: "x"}, "has no chart"},
		{"theme", bar(), Spec{ID: "x", Theme: "solarized"}, `theme "solarized" is not one of auto, light, dark`},
		{"preset theme", chalk, Spec{ID: "x"}, `chart theme "chalk"`},
		{"size", bar(), Spec{ID: "x", Width: 20}, "size 20×500"},
		{"listeners", listener, Spec{ID: "x"}, "JSFunctions are not supported"},
		{"NaN", nan, Spec{ID: "x"}, "NaN and ±Inf cannot be drawn"},
	} {
		_, err := New(c.chart, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to say %q", c.name, err, c.want)
		}
	}
}

func TestTitleAndSize(t *testing.T) {
	bar := charts.NewBar()
	bar.SetGlobalOptions(charts.WithInitializationOpts(opts.Initialization{Width: "640px", Height: "360px"}))
	bar.SetXAxis([]string{"a"}).AddSeries("adaptive", []opts.BarData{{Value: 1}})
	f, err := New(bar, Spec{ID: "t", Title: "Given"})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := f.Size(); w != 640 || h != 360 {
		t.Errorf("size %d×%d, want the chart's 640×360", w, h)
	}
	if f.Title() != "Given" || optionOf(t, f)["title"].(map[string]any)["text"] != "Given" {
		t.Errorf("title %q, option %v", f.Title(), optionOf(t, f)["title"])
	}
	if s := f.String(); !strings.Contains(s, "Figure t") || !strings.Contains(s, `"Given"`) || !strings.Contains(s, "bar chart, 1 series") {
		t.Errorf("String() = %q", s)
	}
	g, err := New(bar, Spec{ID: "t", Width: 300, Height: 200, Theme: ThemeLight})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := g.Size(); w != 300 || h != 200 || g.Theme() != ThemeLight {
		t.Errorf("spec size/theme ignored: %d×%d %s", w, h, g.Theme())
	}
}

// stringsIn lists every string in a decoded JSON value.
func stringsIn(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, stringsIn(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, stringsIn(e)...)
		}
		return out
	}
	return nil
}

func TestEventMarks(t *testing.T) {
	line := charts.NewLine()
	line.SetGlobalOptions(charts.WithXAxisOpts(opts.XAxis{Type: "value"}))
	line.AddSeries("adaptive", []opts.LineData{{Value: []any{0, 1}}, {Value: []any{15, 2}}},
		EventMarks(Event{Label: "burst", Start: 6, End: 9}, Event{Label: "failure", Start: 6, End: 10},
			Event{Label: "straggler", Start: 5}))
	f, err := New(line, Spec{ID: "events"})
	if err != nil {
		t.Fatal(err)
	}
	s := optionOf(t, f)["series"].([]any)[0].(map[string]any)
	areas, _ := json.Marshal(s["markArea"].(map[string]any)["data"])
	if want := `[[{"name":"burst","xAxis":6},{"xAxis":9}],[{"name":"failure","xAxis":6},{"xAxis":10}]]`; string(areas) != want {
		t.Errorf("mark areas %s, want %s", areas, want)
	}
	lines, _ := json.Marshal(s["markLine"].(map[string]any)["data"])
	if want := `[{"name":"straggler","xAxis":5}]`; string(lines) != want {
		t.Errorf("mark lines %s, want %s", lines, want)
	}
}
