package lab

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/engine"
)

// panics runs f and returns the *Error it panicked with.
func panics(t *testing.T, f func()) *Error {
	t.Helper()
	var got *Error
	func() {
		defer func() {
			r := recover()
			e, ok := r.(*Error)
			if !ok {
				t.Fatalf("panicked with %v (%T), want *lab.Error", r, r)
			}
			got = e
		}()
		f()
	}()
	return got
}

// Builders never change the scenario they are called on.
func TestScenarioMethodsReturnCopies(t *testing.T) {
	base := Straggler()
	busy := base.Rate(250).At(2, Fail(3)).Speeds(5, 5, 5, 5)
	s, _, err := base.Engine()
	if err != nil {
		t.Fatal(err)
	}
	if s.Rate != 100 || len(s.Events) != 2 || len(s.Speeds) != 3 {
		t.Errorf("base changed: %+v", s)
	}
	b, _, err := busy.Engine()
	if err != nil {
		t.Fatal(err)
	}
	if b.Rate != 250 || len(b.Events) != 3 || b.Events[2] != (engine.Event{At: 2000, Kind: engine.EventFail, Replica: 3}) || len(b.Speeds) != 4 {
		t.Errorf("busy: %+v", b)
	}
}

func TestScenarioErrorsNameTheValue(t *testing.T) {
	cases := []struct {
		s    *Scenario
		want string
	}{
		{Steady().Rate(0), "rate_rps: 0 is not allowed"},
		{Steady().Seeds(0), "seeds: 0 is not allowed (want an integer >= 1)"},
		{Steady().SeedList(3, -1), "seeds: -1 is not allowed"},
		{Steady().Heterogeneity("wild"), `heterogeneity: "wild" is not allowed`},
		{Steady().Warmup(-1), "warmup_ms: -1000 is not allowed"},
		{Steady().At(1, Slow(0, 2)), "events[0].replica: 0 is not allowed (want a replica id from 1 to 3)"},
		{Named("nope"), `scenario "nope" is not built in`},
		{Steady().Trace("/does/not/exist.csv"), "/does/not/exist.csv"},
		// The first error sticks even when later calls are fine.
		{Steady().Seeds(0).Rate(50), "seeds: 0"},
	}
	for _, c := range cases {
		_, _, err := c.s.Engine()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
		e := panics(t, func() { Compare(c.s, LeastQueue()) })
		if !strings.Contains(e.Error(), "lab.Compare: ") || !strings.Contains(e.Error(), c.want) {
			t.Errorf("Compare panicked with %v", e)
		}
	}
	var fe *engine.FieldError
	if e := panics(t, func() { Compare(Steady().Rate(-1), LeastQueue()) }); !errors.As(e, &fe) || e.ErrorName() != "ValueError" {
		t.Errorf("a bad value is not a ValueError: %v (%s)", e, e.ErrorName())
	}
}

func TestPolicyOptionsAndNames(t *testing.T) {
	names := map[string]PolicySpec{
		"adaptive": Adaptive(), "adaptive(c=0)": Adaptive(C(0)), "adaptive(c=0.1,α=0.3,L=80)": Adaptive(C(0.1), Alpha(0.3), Ceiling(80)),
		"latency-aware": LatencyAware(), "latency-aware(α=0.5)": LatencyAware(Alpha(0.5)), "p2c": P2C(), "random": Random(),
		"round-robin": RoundRobin(), "least-queue": LeastQueue(),
	}
	for want, p := range names {
		if p.Name != want {
			t.Errorf("policy name %q, want %q", p.Name, want)
		}
	}
	if Builtin("p2c").Name != "p2c" {
		t.Error("Builtin(p2c)")
	}
}

// A scripted cost function equal to Latency Aware's cost with the router's
// α gives Latency Aware's exact results (the router's view carries the same
// EWMA), seed by seed.
func TestCostPolicyReproducesLatencyAware(t *testing.T) {
	cost := Policy("cost", func(r Replica) float64 { return float64(r.Outstanding+1) * r.ServiceEWMA })
	res := Compare(Burst().Rate(180).Seeds(4), LatencyAware(), cost)
	a, b := res.Runs("latency-aware"), res.Runs("cost")
	for i := range a {
		if a[i].Latency != b[i].Latency || a[i].OnTime != b[i].OnTime || a[i].Shed != b[i].Shed {
			t.Fatalf("seed %d: latency-aware %+v, cost %+v", a[i].Seed, a[i].Latency, b[i].Latency)
		}
	}
}

// Each run gets its own state from Stateful's constructor: a policy that
// counts its decisions sees only its own run's requests.
func TestStatefulStateIsPerRun(t *testing.T) {
	var counts []int
	p := Stateful("counter", func() Hooks {
		n := 0
		counts = append(counts, 0)
		slot := len(counts) - 1
		return Hooks{Pick: func(v *View) int {
			n++
			counts[slot] = n
			return v.Eligible[n%len(v.Eligible)].ID
		}}
	})
	res := Compare(Steady().Seeds(3).Warmup(0).Measure(2), p)
	if len(counts) != 3 {
		t.Fatalf("constructor called %d times for 3 runs", len(counts))
	}
	for i, r := range res.Runs("counter") {
		if counts[i] == 0 || counts[i] > int(r.Cohort)+50 {
			t.Errorf("run %d: %d decisions for %d arrivals", i, counts[i], r.Cohort)
		}
	}
}

func TestComparisonAccessorsAndSave(t *testing.T) {
	res := Compare(Failure().Seeds(2), RoundRobin(), Adaptive())
	if res.Summary("adaptive").Runs != 2 {
		t.Error("Summary")
	}
	if e := panics(t, func() { res.Summary("oracle") }); !strings.Contains(e.Error(), `no policy "oracle" in this comparison (have round-robin, adaptive)`) {
		t.Errorf("unknown policy: %v", e)
	}
	b := display.Of(res)
	if !strings.Contains(b.Text(), "failure") || !strings.Contains(b[display.TextHTML].(string), "<table") {
		t.Errorf("display: %v", b.MIMEs())
	}
	dir := t.TempDir()
	for _, name := range []string{"c.json", "c.csv", "c.html"} {
		res.Save(filepath.Join(dir, name))
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) < 500 {
			t.Errorf("%s: %d bytes, %v", name, len(data), err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "c.json"))
	if !json.Valid(data) {
		t.Error("saved JSON is not valid")
	}
	if e := panics(t, func() { res.Save(filepath.Join(dir, "c.xlsx")) }); !strings.Contains(e.Error(), "unknown extension (want .json, .csv or .html)") {
		t.Errorf("bad extension: %v", e)
	}
	fig := res.Chart()
	if !strings.Contains(display.Of(fig)[display.TextHTML].(string), "<div") {
		t.Error("figure display has no HTML")
	}
	fig.Save(filepath.Join(dir, "f.svg"))
	if svg, _ := os.ReadFile(filepath.Join(dir, "f.svg")); !strings.Contains(string(svg), "<svg") {
		t.Error("saved SVG")
	}
}

func TestRunAndSweep(t *testing.T) {
	r := Run(Straggler(), Adaptive(), 3)
	if r.RunResult.Timeline == nil || len(r.RunResult.Timeline.Points) != 301 || !strings.Contains(r.String(), "adaptive on straggler, seed 3") {
		t.Errorf("run: %v", r)
	}
	if display.Of(r.Timeline())[display.TextHTML] == nil {
		t.Error("timeline figure")
	}
	sw := Sweep(Steady().Seeds(2), []float64{100, 250}, LeastQueue(), RoundRobin())
	if len(sw.Comparisons) != 2 || sw.Comparisons[1].Scenario.Rate != 250 {
		t.Errorf("sweep: %v", sw)
	}
	if display.Of(sw.Chart())[display.TextHTML] == nil {
		t.Error("sweep figure")
	}
}
