package symbols_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
	"github.com/traefik/yaegi/extract"
)

// sink keeps a cell's output.
type sink struct {
	mu       sync.Mutex
	out      strings.Builder
	displays []display.Bundle
}

func (s *sink) Stream(_, text string) { s.mu.Lock(); s.out.WriteString(text); s.mu.Unlock() }
func (s *sink) Display(b display.Bundle, _ string, _ bool) {
	s.mu.Lock()
	s.displays = append(s.displays, b)
	s.mu.Unlock()
}
func (s *sink) Clear(bool) {}

func newSession(t *testing.T) *dsl.Session {
	t.Helper()
	s, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// exec runs a cell that must succeed and returns its value and output.
func exec(t *testing.T, s *dsl.Session, code string) (display.Bundle, string) {
	t.Helper()
	var k sink
	b, err := s.Execute(context.Background(), code, &k)
	if err != nil {
		t.Fatalf("cell failed: %v\n%s", err, code)
	}
	return b, k.out.String()
}

// fails runs a cell that must fail and returns the error.
func fails(t *testing.T, s *dsl.Session, code string) *display.Error {
	t.Helper()
	var k sink
	_, err := s.Execute(context.Background(), code, &k)
	var de *display.Error
	if !errors.As(err, &de) {
		t.Fatalf("cell gave %v, want a *display.Error\n%s", err, code)
	}
	return de
}

func TestGeneratedSymbolsAreFresh(t *testing.T) {
	for _, c := range []struct{ path, file string }{
		{symbols.LabPath, "github_com-routelab-routelab-lab.go"},
		{symbols.EnginePath, "github_com-routelab-routelab-engine.go"},
		{symbols.PlotPath, "github_com-routelab-routelab-plot.go"},
		{"github.com/go-echarts/go-echarts/v2/charts", "github_com-go-echarts-go-echarts-v2-charts.go"},
		{"github.com/go-echarts/go-echarts/v2/opts", "github_com-go-echarts-go-echarts-v2-opts.go"},
		{"github.com/go-echarts/go-echarts/v2/types", "github_com-go-echarts-go-echarts-v2-types.go"},
	} {
		var buf bytes.Buffer
		if _, err := (&extract.Extractor{Dest: "symbols"}).Extract(c.path, "symbols", &buf); err != nil {
			t.Fatal(err)
		}
		checked, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), checked) {
			t.Errorf("%s is stale: run go generate ./dsl/symbols", c.file)
		}
	}
}

func TestDocIndexesAreFresh(t *testing.T) {
	for _, c := range []struct{ dir, path, fn, file string }{
		{"../../lab", symbols.LabPath, "LabDocs", "lab_docs.go"},
		{"../../engine", symbols.EnginePath, "EngineDocs", "engine_docs.go"},
		{"../../experiment", symbols.ExperimentPath, "ExperimentDocs", "experiment_docs.go"},
		{"../../plot", symbols.PlotPath, "PlotDocs", "plot_docs.go"},
	} {
		got, err := dsl.GenerateDocIndex(c.dir, c.path, "symbols", c.fn)
		if err != nil {
			t.Fatal(err)
		}
		checked, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, checked) {
			t.Errorf("%s is stale: run go generate ./dsl/symbols", c.file)
		}
	}
}

// The contract, cell by cell.
func TestLabContract(t *testing.T) {
	s := newSession(t)
	exec(t, s, `scn := lab.Straggler().Rate(150)
inc := lab.NewScenario("incident").Rate(120).Speeds(8, 11, 16).
	At(4, lab.SetRate(240)).At(6, lab.Slow(1, 5)).At(9, lab.Fail(3)).At(12, lab.Recover(3))
p2 := lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
	return float64(r.Outstanding+1) * r.ServiceEWMA
})`)
	exec(t, s, `res := lab.Compare(scn, lab.RoundRobin(), lab.LeastQueue(), lab.LatencyAware(), lab.Adaptive(), p2)`)
	b, _ := exec(t, s, `res`)
	if !strings.Contains(b.Text(), "queue-x-ewma") || !strings.Contains(b[display.TextHTML].(string), "<table") {
		t.Errorf("comparison display: %v", b.MIMEs())
	}
	b, _ = exec(t, s, `res.Chart()`)
	if html, _ := b[display.TextHTML].(string); !strings.Contains(html, "echarts") {
		t.Errorf("chart display has no ECharts fragment: %v", b.MIMEs())
	}
	exec(t, s, `run := lab.Run(inc, lab.Adaptive(), 7)`)
	b, _ = exec(t, s, `run.Timeline()`)
	if _, ok := b[display.TextHTML]; !ok {
		t.Errorf("timeline display: %v", b.MIMEs())
	}
	// An explicit import of lab works, and can be repeated.
	exec(t, s, `import "github.com/routelab/routelab/lab"`)
	b, _ = exec(t, s, "import \"github.com/routelab/routelab/lab\"\nlab.Steady().Rate(10)")
	if !strings.Contains(b.Text(), "10 req/s") {
		t.Errorf("scenario display %q", b.Text())
	}
}

// A policy written in a cell gives exactly the per-seed results of the same
// policy compiled: common random numbers make the comparison exact.
func TestInterpretedPolicyMatchesCompiled(t *testing.T) {
	s := newSession(t)
	exec(t, s, `
func cost(r lab.Replica) float64 { return float64(r.Waiting)*1.5 + float64(r.InFlight) + r.ServiceEWMA/20 }
type sticky struct{ last int; seen map[int]int }
func (p *sticky) pick(v *lab.View) int {
	for _, r := range v.Eligible {
		if r.ID == p.last && r.Outstanding < 3 {
			return r.ID
		}
	}
	best := v.Eligible[0]
	for _, r := range v.Eligible {
		if p.seen[r.ID] < p.seen[best.ID] {
			best = r
		}
	}
	p.last = best.ID
	return best.ID
}
func (p *sticky) observe(id int, ms float64) { p.seen[id]++ }
scn := lab.Failure().Rate(180).Heterogeneity("high").Seeds(6)
res := lab.Compare(scn, lab.Policy("cost", cost), lab.Stateful("sticky", func() lab.Hooks {
	p := &sticky{seen: map[int]int{}}
	return lab.Hooks{Pick: p.pick, Observe: p.observe}
}))`)
	var k sink
	if _, err := s.Execute(context.Background(), `
import "bytes"
var buf bytes.Buffer
res.WriteJSON(&buf)
buf.String()`, &k); err != nil {
		t.Fatal(err)
	}
	b, _ := exec(t, s, `buf.String()`)
	interpreted := strings.Trim(b.Text(), "\"")

	compiledCost := func(r lab.Replica) float64 { return float64(r.Waiting)*1.5 + float64(r.InFlight) + r.ServiceEWMA/20 }
	type stickyState struct {
		last int
		seen map[int]int
	}
	stateful := lab.Stateful("sticky", func() lab.Hooks {
		p := &stickyState{seen: map[int]int{}}
		return lab.Hooks{Pick: func(v *lab.View) int {
			for _, r := range v.Eligible {
				if r.ID == p.last && r.Outstanding < 3 {
					return r.ID
				}
			}
			best := v.Eligible[0]
			for _, r := range v.Eligible {
				if p.seen[r.ID] < p.seen[best.ID] {
					best = r
				}
			}
			p.last = best.ID
			return best.ID
		}, Observe: func(id int, ms float64) { p.seen[id]++ }}
	})
	res := lab.Compare(lab.Failure().Rate(180).Heterogeneity("high").Seeds(6), lab.Policy("cost", compiledCost), stateful)
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(strings.ReplaceAll(buf.String(), `"`, `\"`), "\n", `\n`)
	if interpreted != want {
		t.Fatalf("interpreted results differ from compiled ones")
	}
	if !strings.Contains(buf.String(), `"policy": "sticky"`) {
		t.Fatal("comparison lacks the stateful policy")
	}
}

func TestLabErrorsReachTheCell(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, name, want string }{
		{`lab.Compare(lab.Steady().Rate(-5), lab.Adaptive())`, "ValueError", "Scenario.Rate: rps: -5 is not allowed (want a number of requests per second in (0, 1e+06])"},
		{`lab.Compare(lab.Steady().At(20, lab.Fail(1)), lab.Adaptive())`, "ValueError", "Scenario.At: seconds: 20 is not allowed (want a time within the run, 0 to 15 s"},
		{`lab.Compare(lab.Steady().At(2, lab.Fail(7)), lab.Adaptive())`, "ValueError", "Scenario.At: events[0].replica: 7 is not allowed (want a replica id from 1 to 3)"},
		{`lab.Compare(lab.Steady())`, "ValueError", "at least one policy"},
		{`lab.Run(lab.Steady(), lab.Adaptive(), 0)`, "ValueError", "seed: 0 is not allowed"},
		{`lab.Compare(lab.Steady().Heterogeneity("extreme"), lab.Adaptive())`, "ValueError", `heterogeneity: "extreme" is not allowed (want default or high)`},
		{`lab.Compare(lab.Steady(), lab.Adaptive(lab.C(-1)))`, "ValueError", "adaptive.c: -1 is not allowed"},
		{`lab.Compare(lab.Steady(), lab.Policy("nan", func(r lab.Replica) float64 { return 0.0 / float64(r.Waiting) }))`,
			"LabError", `policy "nan": cost function returned NaN for replica 1`},
		{`lab.Compare(lab.Steady(), lab.Picker("bad-id", func(v *lab.View) int { return 9 }))`,
			"LabError", `policy "bad-id" picked replica 9, which is not eligible (eligible: 1, 2, 3)`},
		{`lab.Compare(lab.Steady(), lab.Picker("boom", func(v *lab.View) int { var xs []int; return xs[v.Eligible[0].ID] }))`,
			"LabError", `policy "boom" panicked`},
		{`lab.Builtin("oracle")`, "ValueError", `policy: "oracle" is not allowed`},
	}
	for _, c := range cases {
		e := fails(t, s, c.code)
		if e.Name != c.name || !strings.Contains(e.Value, c.want) {
			t.Errorf("%s\n  gave %s: %s\n  want %s containing %q", c.code, e.Name, e.Value, c.name, c.want)
		}
	}
	// The session is still usable.
	if b, _ := exec(t, s, `1 + 1`); b.Text() != "2" {
		t.Errorf("after errors 1+1 = %q", b.Text())
	}
}

// A builder call with a bad value raises a ValueError in the cell that made
// it, naming the call, the argument and what is allowed; the scenario it
// was meant to build never exists, and the session goes on.
func TestBuilderErrorsRaiseInTheirCell(t *testing.T) {
	s := newSession(t)
	exec(t, s, `import "math"
base := lab.Straggler()`)
	cases := []struct{ code, want string }{
		{`scn := lab.NewScenario("x").Rate(-5)`, "Scenario.Rate: rps: -5 is not allowed (want a number of requests per second in (0, 1e+06])"},
		{`scn := base.At(-1, lab.Fail(2))`, "Scenario.At: seconds: -1 is not allowed (want a time within the run, 0 to 15 s"},
		{`scn := base.Seeds(0)`, "Scenario.Seeds: n: 0 is not allowed (want a number of seeds >= 1)"},
		{`scn := base.At(3, lab.Slow(7, 2))`, "Scenario.At: events[2].replica: 7 is not allowed (want a replica id from 1 to 3)"},
		{`scn := lab.NewScenario("x").At(2, lab.Fail(3)).Speeds(8, 11)`, "Scenario.Speeds: events[0].replica: 3 is not allowed (want a replica id from 1 to 2)"},
		{`scn := base.Rate(math.NaN())`, "Scenario.Rate: rps: NaN is not allowed"},
		{`scn := base.Warmup(math.Inf(1))`, "Scenario.Warmup: seconds: +Inf is not allowed"},
		{`ev := lab.Slow(1, math.Inf(1))`, "lab.Slow: factor: +Inf is not allowed"},
		{`p := lab.LatencyAware(lab.C(0.9), lab.Ceiling(5))`, "lab.LatencyAware: option: lab.C(0.9) is not allowed (want an option latency-aware takes: lab.Alpha)"},
		{`p := lab.Adaptive(lab.C(-1))`, "lab.C: adaptive.c: -1 is not allowed (want a finite number >= 0)"},
		{`p := lab.Policy("", func(r lab.Replica) float64 { return 0 })`, `lab.Policy: name: "" is not allowed (want a non-empty policy name)`},
		{`p := lab.Picker("x", nil)`, "lab.Picker: pick: nil is not allowed (want a function)"},
	}
	for _, c := range cases {
		e := fails(t, s, c.code)
		if e.Name != "ValueError" || !strings.Contains(e.Value, c.want) {
			t.Errorf("%s\n  gave %s: %s\n  want ValueError containing %q", c.code, e.Name, e.Value, c.want)
		}
	}
	if b, _ := exec(t, s, `base.Rate(150)`); !strings.Contains(b.Text(), "150 req/s") {
		t.Errorf("after the errors, a valid scenario shows %q", b.Text())
	}
}

// Interrupting a long comparison that calls back into interpreted code stops
// the engine first: the cell ends with Interrupted (never a partial result),
// the next cell answers within a second, variables survive, and no goroutine
// is left behind.
func TestInterruptLabCompare(t *testing.T) {
	s := newSession(t)
	exec(t, s, `kept := 41
slowish := lab.Policy("interpreted", func(r lab.Replica) float64 { return float64(r.Outstanding) })`)
	before := runtime.NumGoroutine()
	done := make(chan error, 1)
	var k sink
	go func() {
		_, err := s.Execute(context.Background(), `res := lab.Compare(lab.Straggler().Seeds(5000), slowish)`, &k)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	s.Interrupt()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the interrupted comparison did not return")
	}
	var de *display.Error
	if !errors.As(err, &de) || de.Name != "Interrupted" {
		t.Fatalf("interrupted comparison gave %v", err)
	}
	b, _ := exec(t, s, `kept + 1`)
	if b.Text() != "42" || time.Since(start) > time.Second {
		t.Errorf("next cell gave %q after %v", b.Text(), time.Since(start))
	}
	if de := fails(t, s, `res`); !strings.Contains(de.Value, "undefined: res: cell 2, which declared it, failed") {
		t.Errorf("the interrupted comparison's variable: %q, want it undefined, naming the cell that failed", de.Value)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines before the cell, %d after the interrupt", before, n)
	}
}

// A custom go-echarts chart built in a cell becomes a figure.
func TestCustomChartInCell(t *testing.T) {
	s := newSession(t)
	exec(t, s, `import (
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)
line := charts.NewLine()
line.SetXAxis([]int{1, 2, 3})
line.AddSeries("x²", []opts.LineData{{Value: 1}, {Value: 4}, {Value: 9}})`)
	b, _ := exec(t, s, `lab.Chart(line, "squares", "Squares")`)
	if html, _ := b[display.TextHTML].(string); !strings.Contains(html, "Squares") || !strings.Contains(html, "squares") {
		t.Errorf("custom chart display: %v", b.MIMEs())
	}
	if e := fails(t, s, `lab.Chart(line, "bad id!", "")`); e.Name != "LabError" || !strings.Contains(e.Value, "bad id!") {
		t.Errorf("bad id: %v", e)
	}
}

func TestScriptsAndEngineImport(t *testing.T) {
	s := newSession(t)
	var out, errb bytes.Buffer
	err := s.RunScript(context.Background(), `package main

import (
	"fmt"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
)

func main() {
	res := lab.Compare(lab.Burst().Seeds(2), lab.LeastQueue())
	fmt.Println(res.Policies[0].Name, len(res.Seeds), engine.StepMs)
}`, &out, &errb)
	if err != nil || out.String() != "least-queue 2 0.5\n" {
		t.Fatalf("script: %v, %q, %q", err, out.String(), errb.String())
	}
	_ = engine.StepMs
}

// A stateful policy's hooks are method values taken when each run starts,
// so a method redefined in a later cell is what the next comparison runs:
// the same bytes as a policy declared afresh with the new body.
func TestStatefulHooksFollowRedefinedMethods(t *testing.T) {
	s := newSession(t)
	exec(t, s, `scn := lab.Straggler().Rate(150).Seeds(2)
type sticky struct{ n int }
func (p *sticky) pick(v *lab.View) int { return v.Eligible[0].ID }
st := lab.Stateful("sticky", func() lab.Hooks { p := &sticky{}; return lab.Hooks{Pick: p.pick} })
before := lab.Compare(scn, st).String()`)
	exec(t, s, "func (p *sticky) pick(v *lab.View) int { p.n++; return v.Eligible[p.n%len(v.Eligible)].ID }")
	b, _ := exec(t, s, `fresh := lab.Stateful("sticky", func() lab.Hooks {
	p := &sticky{}
	return lab.Hooks{Pick: func(v *lab.View) int { p.n++; return v.Eligible[p.n%len(v.Eligible)].ID }}
})
after := lab.Compare(scn, st).String()
fmt.Sprint(after == lab.Compare(scn, fresh).String(), after == before)`)
	if got := b.Text(); got != `"true false"` {
		t.Errorf("after redefining sticky.pick: (same as a fresh policy, same as before) = %s, want \"true false\"", got)
	}
}

// The first figure a session shows carries the chart library; later ones
// carry a light fragment with their static image inside, small enough for
// a notebook to hold many; Full and Light override. A new session starts
// again with the library.
func TestLaterFiguresAreLight(t *testing.T) {
	const limit = 60 * 1000
	s := newSession(t)
	exec(t, s, `res := lab.Compare(lab.Straggler(), lab.RoundRobin(), lab.LeastQueue(), lab.LatencyAware(), lab.Adaptive(), lab.P2C())`)
	show := func(code string) (html string, library bool) {
		t.Helper()
		b, _ := exec(t, s, code)
		html, _ = b[display.TextHTML].(string)
		if !strings.Contains(html, "<img") {
			t.Errorf("%s: no static image inside the HTML", code)
		}
		return html, !strings.Contains(html, "lib: null")
	}
	if html, lib := show(`res.Chart()`); !lib || len(html) < 400_000 {
		t.Errorf("first figure: library %v, %d bytes; want the library inside", lib, len(html))
	}
	for _, code := range []string{`res.CDF()`, `res.Chart()`, `res.Paired("adaptive", "least-queue").Chart()`, `res.Chart().Light()`} {
		html, lib := show(code)
		t.Logf("%s: %d bytes", code, len(html))
		if lib || len(html) > limit {
			t.Errorf("%s after the first figure: library %v, %d bytes; want a light fragment of at most %d bytes", code, lib, len(html), limit)
		}
	}
	// The 8 production routers on chat, the largest set the docs show.
	exec(t, s, `routers := lab.Compare(lab.Chat(), lab.LLMD(), lab.Prequal(), lab.VLLMDP(), lab.SGLang(), lab.Dynamo(), lab.RayPrefix(), lab.AIBrix(), lab.RayP2C())`)
	for _, code := range []string{`routers.Chart()`, `routers.CDF()`} {
		html, lib := show(code)
		t.Logf("%s: %d bytes", code, len(html))
		if lib || len(html) > limit {
			t.Errorf("%s after the first figure: library %v, %d bytes; want a light fragment of at most %d bytes", code, lib, len(html), limit)
		}
	}
	if _, lib := show(`res.Chart().Full()`); !lib {
		t.Error("res.Chart().Full() has no library")
	}
	if _, lib := show(`res.Chart()`); lib {
		t.Error("a figure after Full carries the library again")
	}
	s2 := newSession(t)
	b, _ := exec(t, s2, `lab.Compare(lab.Steady(), lab.RoundRobin(), lab.LeastQueue()).Chart()`)
	if html, _ := b[display.TextHTML].(string); strings.Contains(html, "lib: null") {
		t.Error("a new session's first figure is light")
	}
}
