package symbols_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/lab"
	"github.com/routelab/routelab/plot"
)

var (
	// address matches what fmt prints for a pointer or a function value.
	address = regexp.MustCompile(`0x[0-9a-f]{6,}`)
	// numberRun matches numbers separated by anything but letters and
	// digits: a run longer than maxBareNumbers is a dump, not a display.
	numberRun = regexp.MustCompile(`(?:[-+]?[0-9][0-9.]*(?:[eE][-+]?[0-9]+)?[^\pL\pN]*)+`)
	// hidden is what a browser does not show of an HTML fragment.
	hidden = regexp.MustCompile(`(?s)<script\b.*?</script>|<style\b.*?</style>|<[^>]*>`)
)

const maxBareNumbers = 2048

// Every exported type of lab, engine and plot, as the session's symbol
// tables list them, shows itself readably: its zero value, a pointer to
// one, and representative values from real runs all have text/plain; the
// configurations and results of lab and engine have text/html too; and no
// display shows an address, a func( or more than 2 KB of bare numbers. A
// type added to a package without a sample here fails the test.
func TestEveryTypeShowsReadably(t *testing.T) {
	samples := displaySamples(t)
	seen := map[string]bool{}
	for _, pkg := range []string{"lab", "engine", "experiment", "plot"} {
		path := map[string]string{"lab": symbols.LabPath, "engine": symbols.EnginePath, "experiment": symbols.ExperimentPath, "plot": symbols.PlotPath}[pkg]
		for name, v := range symbols.Symbols()[path+"/"+pkg] {
			// Types are listed as typed nil pointers; functions, constants,
			// variables and interface wrappers ("_Policy") are not.
			if strings.HasPrefix(name, "_") || v.Kind() != reflect.Pointer || !v.IsNil() {
				continue
			}
			key := pkg + "." + name
			seen[key] = true
			vals, ok := samples[key]
			if !ok {
				t.Errorf("%s has no sample: add representative values to displaySamples", key)
				continue
			}
			for i, x := range append(zeroValues(v.Type().Elem()), vals...) {
				checkDisplay(t, fmt.Sprintf("%s sample %d (%T)", key, i, x), x, needsHTML(pkg, v.Type().Elem()))
			}
		}
	}
	for key := range samples {
		if !seen[key] {
			t.Errorf("sample for %s, which the symbol tables do not list", key)
		}
	}
}

// zeroValues are a type's zero value and, for a struct, a pointer to one;
// a pointer to an interface or to a named string is not something a cell
// gets from any API.
func zeroValues(typ reflect.Type) []any {
	out := []any{reflect.Zero(typ).Interface()}
	if typ.Kind() == reflect.Struct {
		out = append(out, reflect.New(typ).Interface())
	}
	return out
}

// needsHTML: lab's and engine's configurations and results. Named strings
// (kinds) show as their value, errors as their message, and a random stream
// or a running policy is machinery, not something to tabulate.
func needsHTML(pkg string, typ reflect.Type) bool {
	if pkg == "lab" && widgetTypes[typ.Name()] {
		return false
	}
	if pkg == "plot" || typ.Kind() == reflect.String || typ.Kind() == reflect.Interface {
		return false
	}
	if reflect.PointerTo(typ).Implements(reflect.TypeFor[error]()) {
		return false
	}
	return typ != reflect.TypeFor[engine.Rand]()
}

// widgetTypes show as Jupyter widgets (a widget view, with text for front
// ends that render none) or are their machinery.
var widgetTypes = map[string]bool{
	"Widgets": true, "WidgetHost": true, "Param": true, "Interaction": true, "LiveControls": true,
	"SliderWidget": true, "IntSliderWidget": true, "DropdownWidget": true, "ToggleWidget": true,
	"TextWidget": true, "ButtonWidget": true,
}

func checkDisplay(t *testing.T, what string, v any, wantHTML bool) {
	t.Helper()
	var b display.Bundle
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: display panicked: %v", what, r)
			}
		}()
		b = display.Of(v)
	}()
	if b == nil {
		return
	}
	html, _ := b[display.TextHTML].(string)
	// The zero value of a named string is "", and shows as such.
	if b.Text() == "" && reflect.ValueOf(v).Kind() != reflect.String {
		t.Errorf("%s: no text/plain", what)
	}
	if wantHTML && html == "" && v != nil {
		t.Errorf("%s: no text/html", what)
	}
	for mime, s := range map[string]string{"text/plain": b.Text(), "text/html": hidden.ReplaceAllString(html, " ")} {
		if m := address.FindString(s); m != "" {
			t.Errorf("%s: %s shows an address %s:\n%.400s", what, mime, m, s)
		}
		if strings.Contains(s, "func(") {
			t.Errorf("%s: %s shows a function:\n%.400s", what, mime, s)
		}
		for _, run := range numberRun.FindAllString(s, -1) {
			if len(run) > maxBareNumbers {
				t.Errorf("%s: %s shows %d bytes of bare numbers: %.200s…", what, mime, len(run), run)
			}
		}
	}
}

// displaySamples holds representative values of every type, most of them
// from real runs: a comparison with every kind of policy, a run with a
// timeline, a sweep, a small study, a live simulator and a view of a
// thousand replicas (lists must be cut).
func displaySamples(t *testing.T) map[string][]any {
	t.Helper()
	r := newRealValues(t)
	spec := lab.LatencyAware(lab.Alpha(0.3))
	env := lab.Env{Context: context.Background, SVG: plot.NewSVGRenderer(1), Workers: 2}
	palette, _ := plot.DefaultPalette().With("mine", "#123456")
	paired := pairedValues(t, r)
	sv := servingValues(t)
	return map[string][]any{
		"lab.Comparison":   {r.cmp, *r.cmp},
		"lab.Env":          {env, &env, lab.Background()},
		"lab.Error":        {r.labError},
		"lab.Event":        {lab.Slow(2, 5), lab.SetRate(240), lab.Fail(3)},
		"lab.Figure":       {r.fig},
		"lab.Hooks":        {lab.Hooks{Pick: func(*lab.View) int { return 1 }, Observe: func(int, float64) {}}},
		"lab.LiveAction":   anys(r.actions),
		"lab.LiveActions":  {r.actions, r.live.Actions(), lab.LiveActions{}},
		"lab.LiveOption":   {lab.Speed(1000), lab.Fastest()},
		"lab.PairedOption": {lab.Metrics("p95_ms", "ttft_p99_ms")},
		"lab.LiveView":     {r.live, *r.live, r.wideLive},
		"lab.Option":       {lab.C(0.9), lab.Alpha(0.3), lab.Ceiling(80)},
		"lab.Paired":       {r.cmp.Paired("latency-aware", "cost"), *r.cmp.Paired("latency-aware", "cost").Bootstrap()},
		"lab.PolicySpec":   r.specs,
		"lab.Replica":      {r.view.Replicas[0]},
		"lab.RunResult":    {r.run},
		"lab.Scorer":       {lab.QueueScore(2), lab.KVScore(0.5)},
		"lab.Scenario":     {r.scn, lab.NewScenario("wide").Speeds(r.wideSpeeds...)},
		"lab.StudyResult":  {r.study},
		"lab.SweepResult":  {r.sweep},
		"lab.View":         {r.view, r.wideView},

		"lab.Widgets":         {lab.NewWidgets(lab.WidgetHost{})},
		"lab.WidgetHost":      {lab.WidgetHost{Life: context.Background()}},
		"lab.SliderWidget":    {lab.Slider("rate", 50, 400, 10, 100)},
		"lab.IntSliderWidget": {lab.IntSlider("replicas", 1, 8, 1, 3)},
		"lab.DropdownWidget":  {lab.Dropdown("policy", []string{"round-robin", "adaptive"}, "adaptive")},
		"lab.ToggleWidget":    {lab.Toggle("pause", true)},
		"lab.TextWidget":      {lab.Text("label", "run 1")},
		"lab.ButtonWidget":    {lab.Button("fail replica 2")},
		"lab.Param":           {lab.Range("rate", 50, 400, 10), lab.Choice("policy", "a", "b"), lab.Flag("on"), lab.IntRange("n", 1, 3, 1).From(2)},
		"lab.Interaction":     {lab.Interact(func(x float64) string { return fmt.Sprint(x) }, lab.Range("x", 1, 2, 0.5))},
		"lab.LiveControls":    {r.live.Controls()},

		"engine.AdaptiveParams":    {engine.DefaultAdaptiveParams()},
		"engine.ArrivalProcess":    {engine.Poisson, engine.Replay},
		"experiment.Comparison":    {r.cmp.Comparison, *r.cmp.Comparison},
		"experiment.Condition":     {r.study.Development[0].Condition},
		"engine.Decision":          {r.decision, engine.Decision{Seq: 9, Rerouted: true, Eligible: 0}},
		"engine.DemandKind":        {engine.TokenDemand},
		"engine.Direction":         {engine.LowerIsBetter, engine.HigherIsBetter, engine.NoDirection},
		"engine.DemandModel":       {engine.DefaultDemand(), engine.DemandModel{Kind: engine.LogNormalDemand, Mean: 11, CV: 0.5}},
		"engine.Event":             {engine.Event{At: 5000, Kind: engine.EventSlow, Replica: 1, Value: 5}},
		"engine.EventKind":         {engine.EventFail},
		"experiment.Experiment":    {experiment.Experiment{Scenario: r.wide, Policies: r.specList, Progress: func(int, int) {}}},
		"engine.Field":             {engine.RunRecord(&r.run.RunResult.RunSummary)[3], engine.RunRecord(&r.run.RunResult.RunSummary)[14]},
		"engine.FieldError":        {&engine.FieldError{Field: "rate_rps", Value: -5.0, Allowed: "a number > 0"}},
		"engine.Heterogeneity":     {engine.HighHeterogeneity},
		"engine.RunSummary":        {r.run.RunSummary, engine.RunSummary{}},
		"experiment.Keep":          {experiment.KeepRuns, experiment.KeepSummaries},
		"engine.PolicySwitch":      {engine.PolicySwitch{At: 4500, Policy: engine.LeastQueue()}},
		"engine.ScenarioFile":      {engine.ScenarioFile{Scenario: r.wide}, engine.ScenarioFile{Scenario: r.wide, Session: recorded()}},
		"engine.RecordedSession":   {*recorded()},
		"engine.NamedSwitch":       {engine.NamedSwitch{At: 4500.5, Policy: "least-queue"}},
		"engine.SessionCounts":     {recorded().Counts},
		"engine.LatencyStats":      {r.run.Latency, engine.Summarize(nil)},
		"engine.Metric":            anys(engine.Metrics()),
		"engine.Policy":            r.instances,
		"experiment.Paired":        {paired.cmp, *paired.cmp},
		"experiment.PairedMethod":  {experiment.PairedT, experiment.PairedBootstrap},
		"experiment.PairedOptions": {experiment.PairedOptions{Baseline: "latency-aware"}, experiment.PairedOptions{Baseline: "a", Policies: []string{"b"}, Metrics: []string{"p99_ms"}, Method: experiment.PairedBootstrap}},
		"experiment.PairedStat":    {paired.cmp.Stats[0], r.study.Margin},
		"engine.PolicyEnv":         {engine.PolicyEnv{Replicas: 3, Rand: engine.NewRand(1, 2)}},
		"engine.PolicyKind":        {engine.PickerPolicy},
		"engine.PolicyParam":       anys(spec.Params),
		"engine.PolicyEntry":       anys(engine.BuiltinPolicies()),
		"engine.ScenarioEntry":     anys(engine.BuiltinScenarios()),
		"engine.PolicyStyle":       {engine.BuiltinPolicies()[0].Style, engine.BuiltinPolicies()[8].Style},
		"experiment.PolicyResult":  {r.cmp.Policies[0]},
		"engine.PolicySpec":        r.specs,
		"engine.Protocol":          {engine.DefaultProtocol()},
		"engine.Rand":              {engine.NewRand(1, 2), *engine.NewRand(3, 4)},
		"engine.Replica":           {r.view.Replicas[1]},
		"engine.ReplicaResult":     {r.run.PerReplica[0]},
		"engine.ReplicaSnapshot":   {r.snapshot.Replicas[0]},
		"engine.RequestSnapshot":   {r.snapshot.Replicas[0].Requests[0]},
		"engine.RunResult":         {r.run.RunResult, r.wideRun},
		"engine.Runner":            {engine.NewRunner(r.wide)},
		"engine.RunSpec":           {engine.RunSpec{Scenario: r.wide, Policy: spec, Seed: 1, OnDecision: func(engine.Decision) {}}},
		"engine.Scenario":          {r.wide, r.traced},
		"engine.SummaryKind":       {engine.SummaryMedian | engine.SummaryRange, engine.SummaryKind(0)},
		"experiment.SeedPair":      {paired.cmp.Stats[0].Pairs[0], experiment.SeedPair{Seed: 4, Baseline: 12, Policy: math.NaN(), Diff: math.NaN()}},
		"experiment.Score":         {r.study.Weights[0], r.study.Validation[0]},
		"experiment.Shard":         {experiment.Shard{Index: 2, Count: 7}},
		"engine.SimOptions":        {engine.SimOptions{Seed: 2, Measure: &engine.Protocol{Warmup: 0, Measure: 1000, SLO: 50}, OnDecision: func(engine.Decision) {}}},
		"engine.Simulator":         {r.sim, *r.sim},
		"engine.Snapshot":          {r.snapshot},
		"experiment.StudyConfig":   {experiment.SpecificationStudy(), r.study.Config},
		"experiment.StudyResult":   {r.study.StudyResult},
		"experiment.StudyRun":      {r.study.Development[0], r.study.Validated[0]},
		"experiment.Table":         {paired.cmp.Table(), r.study.Tables()[0], experiment.Table{}},
		"experiment.Column":        {experiment.SummaryColumns(false)[0], experiment.SummaryColumns(true)[2]},
		"experiment.Summary":       {r.cmp.Policies[1].Summary},
		"experiment.Sweep":         {experiment.Sweep{XLabel: "rate", Points: experiment.RateSweep(r.wide, 100, 200), Policies: r.specList, Progress: func(int, int) {}}},
		"experiment.SweepPoint":    {experiment.RateSweep(r.wide, 150)[0]},
		"experiment.SweepPaired":   {paired.sweep},
		"experiment.SweepResult":   {r.sweep.SweepResult},
		"engine.Timeline":          {r.run.RunResult.Timeline},
		"engine.TimelinePoint":     {r.run.RunResult.Timeline.Points[200], r.wideRun.Timeline.Points[1]},
		"engine.TokenCount":        {engine.DefaultTokenModel().Prompt},
		"engine.TokenModel":        {engine.DefaultTokenModel()},

		"engine.Admitter":           {admitAll{}},
		"engine.CompletionObserver": {admitAll{}},
		"engine.Completion":         {sv.completion},
		"engine.HotPrefix":          {sv.scn.Serving.Workload.HotPrefix},
		"engine.PrefixIndex":        {engine.ApproximateIndex, engine.PreciseIndex},
		"engine.Priority":           {engine.Critical, engine.Sheddable},
		"engine.QueueOrder":         {engine.FIFOQueue, engine.PriorityQueue},
		"engine.ReplicaServing":     {*sv.run.PerReplica[0].Serving},
		"engine.RequestClass":       {engine.PromptHeavy(0.3), engine.DecodeHeavy(0.7)},
		"engine.RequestInfo":        {sv.completion.Request},
		"engine.ServingConfig":      {*sv.scn.Serving, engine.DefaultServing()},
		"engine.ServingSLO":         {sv.scn.Serving.SLO},
		"engine.ServingSummary":     {*sv.run.Serving, sv.run.Serving},
		"engine.ServingWorkload":    {sv.scn.Serving.Workload, engine.ServingWorkload{Mix: []engine.RequestClass{engine.PromptHeavy(1)}}},
		"engine.SignalConfig":       {sv.scn.Serving.Signals, engine.SignalConfig{RefreshMs: 200, PrefixIndex: engine.PreciseIndex, Probes: 2, ProbeDelayMs: 1}},
		"engine.Totals":             {r.sim.Totals()},
		"engine.TraceRecord":        {r.traced.Trace[0]},
		"engine.View":               {r.view, r.wideView},

		"engine.Scorer":         {engine.QueueScorer(2), lab.Score("mine", 1, func(*lab.View, lab.Replica) float64 { return 1 })},
		"engine.ScoreFunc":      {r.scoreFunc},
		"engine.ScoringProfile": {engine.ScoringProfile{Name: "llm-d", Scorers: []engine.Scorer{engine.QueueScorer(2), engine.KVScorer(2)}, Affinity: 0.8, Explore: 0.01, Shed: true}},

		// plot.Chart's implementations are go-echarts' chart types, outside
		// these packages; lab.Chart turns one into the Figure sampled above.
		"plot.Chart":            {},
		"plot.ComparisonReport": {r.cmp.Report()},
		"plot.Event":            {plot.Event{Label: "burst", Start: 6, End: 9}},
		"plot.Figure":           {r.fig.Plot()},
		"plot.Option":           {plot.WithTitle("p99"), plot.WithPalette(palette), plot.WithRenderer(env.SVG)},
		"plot.Page":             {plot.NewPage("figures", r.fig.Plot())},
		"plot.Palette":          {palette},
		"plot.SVGRenderer":      {env.SVG},
		"plot.Scale":            {plot.ScaleLog},
		"plot.Spec":             {plot.Spec{ID: "f", Palette: palette, SVG: env.SVG}},
		"plot.Theme":            {plot.ThemeDark},
	}
}

// admitAll is a policy's optional admitter and completion observer.
type admitAll struct{}

func (admitAll) Admit(*engine.View) bool               { return true }
func (a admitAll) ObserveCompletion(engine.Completion) {}
func (a admitAll) String() string                      { return "admits every request" }

type servingSamples struct {
	scn        engine.Scenario
	run        *engine.RunResult
	completion engine.Completion
}

// servingValues are a run of the hot-prefix serving scenario and one of its
// completions as a router sees it.
func servingValues(t *testing.T) servingSamples {
	scn, err := engine.BuiltinScenario("hot-prefix", engine.ScenarioRate("hot-prefix"), engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	var c engine.Completion
	obs := engine.PolicySpec{Name: "observed", New: func(env engine.PolicyEnv) (engine.Policy, error) {
		p, err := engine.LeastQueue().New(env)
		return completionSpy{p, &c}, err
	}}
	run, err := engine.Run(context.Background(), engine.RunSpec{Scenario: scn, Policy: obs, Seed: 1, Protocol: engine.DefaultProtocol()})
	if err != nil {
		t.Fatal(err)
	}
	return servingSamples{scn: scn, run: run, completion: c}
}

// completionSpy keeps the last completion a policy observes.
type completionSpy struct {
	engine.Policy
	last *engine.Completion
}

func (s completionSpy) ObserveCompletion(c engine.Completion) { *s.last = c }

// pairedSamples are paired statistics of the sample comparison and sweep.
type pairedSamples struct {
	cmp   *experiment.Paired
	sweep *experiment.SweepPaired
}

func pairedValues(t *testing.T, r *realValues) pairedSamples {
	t.Helper()
	var p pairedSamples
	var err error
	if p.cmp, err = r.cmp.Comparison.Paired(experiment.PairedOptions{Baseline: "latency-aware", Policies: []string{"cost"}}); err != nil {
		t.Fatal(err)
	}
	if p.sweep, err = r.sweep.SweepResult.Paired(experiment.PairedOptions{Baseline: "least-queue"}); err != nil {
		t.Fatal(err)
	}
	return p
}

// realValues are the results of real runs the samples are taken from.
type realValues struct {
	scn            *lab.Scenario
	cmp            *lab.Comparison
	run            *lab.RunResult
	sweep          *lab.SweepResult
	study          *lab.StudyResult
	fig            *lab.Figure
	labError       *lab.Error
	specList       []engine.PolicySpec
	specs          []any
	instances      []any
	view, wideView engine.View
	wideSpeeds     []float64
	wide, traced   engine.Scenario
	wideRun        *engine.RunResult
	sim            *engine.Simulator
	snapshot       engine.Snapshot
	decision       engine.Decision
	live, wideLive *lab.LiveView
	actions        lab.LiveActions
	scoreFunc      engine.ScoreFunc // a built-in scorer's function of one run
}

func newRealValues(t *testing.T) *realValues {
	t.Helper()
	r := &realValues{scn: lab.Straggler().Seeds(2)}
	spy := lab.Picker("spy", func(v *lab.View) int { r.view = copyView(v); return v.Eligible[0].ID })
	stateful := lab.Stateful("stateful", func() lab.Hooks { return lab.Hooks{Pick: func(v *lab.View) int { return v.Eligible[0].ID }} })
	cost := lab.Policy("cost", func(rep lab.Replica) float64 { return float64(rep.Outstanding) })
	r.specList = []engine.PolicySpec{lab.RoundRobin(), lab.LeastQueue(), lab.LatencyAware(), lab.Adaptive(lab.C(0.1)), lab.Random(), lab.P2C(), lab.WeightedRR(), cost, spy, stateful}
	r.cmp = lab.Compare(r.scn, r.specList...)
	r.run = lab.Run(r.scn, lab.Adaptive(), 3)
	r.sweep = lab.Sweep(lab.Steady().Seeds(2).Measure(2), []float64{100, 200}, lab.LeastQueue(), lab.RoundRobin())
	r.study = lab.Study(tinyStudy(t))
	r.fig = r.cmp.Chart()
	r.labError = func() (e *lab.Error) {
		defer func() { e, _ = recover().(*lab.Error) }()
		lab.Steady().Rate(-5)
		return nil
	}()
	r.specs = anys(r.specList)
	for _, s := range r.specList {
		p, err := s.New(engine.PolicyEnv{Replicas: 3, Rand: engine.NewRand(1, 2)})
		if err != nil {
			t.Fatal(err)
		}
		r.instances = append(r.instances, p)
	}
	r.wideValues(t)
	var err error
	if r.scoreFunc, err = engine.QueueScorer(1).New(engine.PolicyEnv{}); err != nil {
		t.Fatal(err)
	}
	r.liveValues(t)
	return r
}

// wideValues come from a cluster of a thousand replicas.
func (r *realValues) wideValues(t *testing.T) {
	for i := range 1000 {
		r.wideSpeeds = append(r.wideSpeeds, float64(8+i%9))
	}
	r.wide = engine.NewScenario("wide")
	r.wide.Speeds, r.wide.Rate = r.wideSpeeds, 5000
	decisions := 0
	spy := lab.Picker("wide-spy", func(v *lab.View) int {
		if decisions++; decisions == 2000 { // well into the run; copying every view would cost 100 MB
			r.wideView = copyView(v)
		}
		return v.Eligible[0].ID
	})
	res, err := engine.Run(context.Background(), engine.RunSpec{Scenario: r.wide, Policy: spy, Seed: 1,
		Protocol: engine.Protocol{Warmup: 0, Measure: 500, SLO: 50}, SampleEvery: 250})
	if err != nil {
		t.Fatal(err)
	}
	r.wideRun = res
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.csv")
	if err := os.WriteFile(path, []byte("arrival_ms,prompt_tokens,output_tokens\n1,400,120\n3.5,800,60\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	traced, _, err := lab.NewScenario("traced").Trace(path).Engine()
	if err != nil {
		t.Fatal(err)
	}
	r.traced = traced
}

// liveValues come from a simulator stopped in the middle of a failure.
func (r *realValues) liveValues(t *testing.T) {
	scn, err := engine.BuiltinScenario("failure", 150, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	r.sim, err = engine.NewSimulator(scn, engine.LeastQueue(), engine.SimOptions{Seed: 1, OnDecision: func(d engine.Decision) { r.decision = d }})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.sim.Advance(7000); err != nil {
		t.Fatal(err)
	}
	r.snapshot = r.sim.Snapshot()
	// Live views outside a session run to their end at once.
	r.live = lab.Live(lab.Failure().Rate(150), lab.Adaptive(), 1)
	r.live.Wait(2 * time.Second)
	r.actions = append(r.live.At(3, lab.Slow(1, 5)), r.live.Burst(2, 3*time.Second), r.live.Use(lab.LeastQueue()))
	r.wideLive = lab.Live(lab.NewScenario("wide").Speeds(r.wideSpeeds...).Rate(5000).Measure(1).Warmup(0), lab.LeastQueue(), 1)
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// copyView keeps a view past the decision (the engine reuses its slices).
func copyView(v *engine.View) engine.View {
	c := *v
	c.Replicas = append([]engine.Replica(nil), v.Replicas...)
	c.Eligible = append([]engine.Replica(nil), v.Eligible...)
	return c
}

func tinyStudy(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "study.json")
	cfg := `{"name": "tiny", "rates_rps": [150], "heterogeneity": ["default"], "scenarios": ["straggler"],
	"weights": [0, 0.35], "development_seeds": [1, 2], "validation_seeds": [3],
	"policies": ["least-queue", "adaptive"], "protocol": {"warmup_ms": 1000, "measure_ms": 10000, "slo_ms": 50}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A cell whose final expression is a lab value shows its readable form:
// the same text and HTML as the value's own display, none of Go's default
// struct printing.
func TestCellsShowValuesReadably(t *testing.T) {
	s := newSession(t)
	exec(t, s, `scn := lab.Straggler().Seeds(2)
var seen lab.View
spy := lab.Picker("spy", func(v *lab.View) int { seen = *v; return v.Eligible[0].ID })
res := lab.Compare(scn, lab.LatencyAware(), spy)`)
	cases := []struct {
		cell string
		want []string
	}{
		{`lab.LatencyAware()`, []string{"latency-aware: built-in policy; α = 0.15"}},
		{`spy`, []string{"spy: scripted picker: one call per decision returns an eligible replica's id"}},
		{`lab.Policy("mine", func(r lab.Replica) float64 { return 1 })`, []string{"mine: scripted cost function"}},
		{`res.Summary("latency-aware")`, []string{"summary of 2 runs", "median_p99_ms", "median_attainment"}},
		{`res.Runs("latency-aware")[0]`, []string{"latency-aware on straggler, seed 1: ", "arrivals →", "p99"}},
		{`res.Policies[1]`, []string{"spy: 2 runs; median p99"}},
		{`scn`, []string{"scenario straggler: 3 replicas at 8/11/16 ms", "protocol: 2 seeds"}},
		{`seen`, []string{"view at ", "replica  healthy"}},
		{`seen.Replicas[0]`, []string{"replica 1: healthy"}},
		{`lab.C(0.9)`, []string{"lab.C(0.9)"}},
		{`lab.Slow(2, 5)`, []string{"0s: replica 2 ×5 slower"}},
		{`res`, []string{"straggler — 3 replicas", "medians across seeds"}},
	}
	for _, c := range cases {
		b, _ := exec(t, s, c.cell)
		for _, w := range c.want {
			if !strings.Contains(b.Text(), w) {
				t.Errorf("cell %s shows %q, want it to contain %q", c.cell, b.Text(), w)
			}
		}
		if _, ok := b[display.TextHTML]; !ok {
			t.Errorf("cell %s: no text/html (%v)", c.cell, b.MIMEs())
		}
		checkDisplay(t, "cell "+c.cell, b, true)
	}
	b, _ := exec(t, s, `res.Runs("latency-aware")`)
	checkDisplay(t, "cell res.Runs(...)", b, false)
	if strings.Count(b.Text(), "arrivals →") != 2 {
		t.Errorf("a slice of runs shows %q", b.Text())
	}
}

// recorded is a recorded session that switched policy many times (a list
// to cut).
func recorded() *engine.RecordedSession {
	r := &engine.RecordedSession{Seed: 7, Policy: "adaptive", Until: 42500.5,
		Counts: engine.SessionCounts{Arrivals: 4301, Completed: 4210, Shed: 40, Unfinished: 51}}
	for i := range 30 {
		r.Switches = append(r.Switches, engine.NamedSwitch{At: float64(1000 * (i + 1)), Policy: []string{"least-queue", "adaptive"}[i%2]})
	}
	return r
}
