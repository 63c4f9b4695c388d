package lab

import (
	"context"
	"os"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/plot"
)

// Env is where lab's runs happen: the context that stops them and the
// renderer shared by figures. A dsl session binds the package-level
// functions (Compare, Run, Sweep, Study) to its own Env, so interrupting a
// cell cancels the engine's runs first; outside a session they use
// Background.
type Env struct {
	// Context returns the context runs watch; nil means context.Background.
	Context func() context.Context
	// SVG renders figures' static SVG; nil renders without reuse.
	SVG *plot.SVGRenderer
	// NoStatic leaves the static SVG out of figures' notebook outputs. By
	// default every figure shown in a cell carries its SVG export, inside
	// its HTML (until the script draws) and as image/svg+xml, so that
	// front ends that run no script — GitHub, nbviewer, an untrusted or
	// e-mailed notebook — still show it; it costs an SVG render per figure.
	NoStatic bool
	// PageHasLibrary, when set, is asked by every figure a cell shows
	// whether an earlier one brought the chart library (about 450 KB) to
	// the notebook's page, and records that this one does when none did: a
	// session answers false once, for its first figure, and true after.
	// Later figures then carry a light fragment — their option and static
	// image, tens of KB — that draws with the first one's library.
	// Figure.Full and Figure.Light override it. nil: every figure carries
	// the library.
	PageHasLibrary func() bool
	// Workers bounds parallel runs (0: one per CPU); results never depend on it.
	Workers int
	// Callback, when set, runs every call into a scripted policy made by
	// Env.Policy, Env.Picker or Env.Stateful, with the run's own generator
	// (the policy stream of the run's seed). A session serialises the calls
	// and makes math/rand's top-level functions in them draw from rng, so
	// randomised scripted policies are reproducible. nil: each policy
	// serialises its own calls.
	Callback func(rng *engine.Rand, call func())
	// OnPolicy, when set, hears of every scripted policy Env.Policy,
	// Env.Picker and Env.Stateful make, in order: how routelab's
	// --policies FILE.go learns the policies a file defines.
	OnPolicy func(PolicySpec)

	// Live views (live.go) need three more hooks from a session.

	// Display, when set, shows v under a display id, or with update set
	// replaces what was shown under it — also between cells, which is how a
	// live view updates in place. nil: live views show nothing.
	Display func(v any, id string, update bool)
	// Headless, when set, says whether nobody watches the running cell's
	// displays change (routelab run, nbconvert): a live view then runs to
	// its end at once. nil, or Display nil: always headless.
	Headless func() bool
	// Background, when set, returns the context of work that outlives the
	// cell starting it (a live view) and a function to call once that work
	// has ended; the context ends when the session is interrupted or
	// closed. nil: context.Background, never ended.
	Background func() (context.Context, func())
	// Status, when set, shows a transient status line beside a headless
	// run (a terminal under routelab run; "" clears it) and reports
	// whether it could: long work draws its progress there when nobody
	// watches displays.
	Status func(line string) bool
	// Widgets, when set, is the session's Jupyter widgets (NewWidgets):
	// the controls lab.Slider and the others make talk to the front end
	// through it. nil: controls keep their values unless a cell sets them.
	Widgets *Widgets
}

// Background is an Env for plain Go programs: never cancelled.
func Background() *Env { return &Env{} }

// headless reports whether live views run to their end at once.
func (e *Env) headless() bool { return e.Display == nil || e.Headless == nil || e.Headless() }

// background is Env.Background, or a context that never ends.
func (e *Env) background() (context.Context, func()) {
	if e.Background == nil {
		return context.Background(), func() {}
	}
	return e.Background()
}

func (e *Env) ctx() context.Context {
	if e.Context == nil {
		return context.Background()
	}
	return e.Context()
}

// Compare runs every policy on the scenario's seeds (common random numbers:
// each seed's workload is the same for every policy) and summarises them.
func (e *Env) Compare(scn *Scenario, policies ...PolicySpec) *Comparison {
	c, err := compareWith(e, scn, e.progress("lab.Compare"), policies...)
	if err != nil {
		fail("lab.Compare", err)
	}
	return &Comparison{Comparison: c, env: e}
}

// compareWith runs a comparison that reports to p (nil: to nobody).
func compareWith(e *Env, scn *Scenario, p *progressView, policies ...PolicySpec) (*experiment.Comparison, error) {
	s, proto, err := scn.Engine()
	if err != nil {
		return nil, err
	}
	c, err := experiment.Compare(e.ctx(), experiment.Experiment{
		Scenario: s, Policies: policies, Seeds: scn.seeds, Protocol: proto, Workers: e.Workers, Progress: p.callback(),
	})
	p.finish()
	return c, err
}

// Run simulates one seed of the scenario under a policy, recording a
// timeline (every 50 ms) and every cohort latency.
func (e *Env) Run(scn *Scenario, policy PolicySpec, seed int) *RunResult {
	s, proto, err := scn.Engine()
	if err != nil {
		fail("lab.Run", err)
	}
	if seed < 1 {
		fail("lab.Run", &engine.FieldError{Field: "seed", Value: seed, Allowed: "an integer >= 1"})
	}
	r, err := engine.Run(e.ctx(), engine.RunSpec{Scenario: s, Policy: policy, Seed: uint64(seed), Protocol: proto, SampleEvery: 50})
	if err != nil {
		fail("lab.Run", err)
	}
	return &RunResult{RunResult: r, env: e, protocol: proto}
}

// Sweep compares the policies at each arrival rate (req/s) of the scenario.
func (e *Env) Sweep(scn *Scenario, rates []float64, policies ...PolicySpec) *SweepResult {
	s, proto, err := scn.Engine()
	if err != nil {
		fail("lab.Sweep", err)
	}
	p := e.progress("lab.Sweep")
	res, err := experiment.RunSweep(e.ctx(), experiment.Sweep{
		XLabel: "arrival rate (req/s)", XName: "rate_rps", Points: experiment.RateSweep(s, rates...),
		Policies: policies, Seeds: scn.seeds, Protocol: proto, Workers: e.Workers, Progress: p.callback(),
	})
	p.finish()
	if err != nil {
		fail("lab.Sweep", err)
	}
	return &SweepResult{SweepResult: res, env: e}
}

// Study runs the exploration-weight study described by a JSON file (see
// examples/study.json).
func (e *Env) Study(path string) *StudyResult {
	data, err := os.ReadFile(path)
	if err != nil {
		fail("lab.Study", err)
	}
	cfg, err := experiment.ParseStudy(data, path)
	if err != nil {
		fail("lab.Study", err)
	}
	p := e.progress("lab.Study")
	res, err := experiment.RunStudy(e.ctx(), cfg, e.Workers, p.callback())
	p.finish()
	if err != nil {
		fail("lab.Study", err)
	}
	return &StudyResult{StudyResult: res, env: e}
}

// Chart turns a go-echarts chart built in a cell into a figure: shown as
// interactive HTML, saved as SVG, PNG or HTML. id names it (letters, digits,
// '-' and '_'); title may be empty to keep the chart's own.
func (e *Env) Chart(chart plot.Chart, id, title string) *Figure {
	return e.figure(func(x export) (*plot.Figure, error) {
		return plot.New(chart, plot.Spec{ID: id, Title: title, Width: x.width})
	})
}

// Chart makes a figure outside any session (see Env.Chart).
func Chart(chart plot.Chart, id, title string) *Figure { return Background().Chart(chart, id, title) }

// Compare runs a comparison outside any session (see Env.Compare).
func Compare(scn *Scenario, policies ...PolicySpec) *Comparison {
	return Background().Compare(scn, policies...)
}

// Run simulates one seeded run outside any session (see Env.Run).
func Run(scn *Scenario, policy PolicySpec, seed int) *RunResult {
	return Background().Run(scn, policy, seed)
}

// Sweep runs a rate sweep outside any session (see Env.Sweep).
func Sweep(scn *Scenario, rates []float64, policies ...PolicySpec) *SweepResult {
	return Background().Sweep(scn, rates, policies...)
}

// Study runs a study file outside any session (see Env.Study).
func Study(path string) *StudyResult { return Background().Study(path) }
