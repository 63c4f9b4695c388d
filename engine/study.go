package engine

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// StudyConfig is the exploration-weight study of the specification: Adaptive's
// c is selected on development seeds by mean per-run attainment (conditions
// weighted equally), then every policy is validated on separate seeds.
type StudyConfig struct {
	Name             string    `json:"name"`
	Rates            []float64 `json:"rates_rps"`
	Heterogeneity    []string  `json:"heterogeneity"`
	Scenarios        []string  `json:"scenarios"`
	Weights          []float64 `json:"weights"`
	DevelopmentSeeds []uint64  `json:"development_seeds"`
	ValidationSeeds  []uint64  `json:"validation_seeds"`
	// Policies validated; "adaptive" runs with the selected weight.
	Policies []string `json:"policies"`
	Protocol Protocol `json:"protocol"`
}

// SpecificationStudy is the study as the specification describes it: 24
// conditions, 6 weights, 8 development seeds (1–8) and 24 validation seeds
// (1001–1024). Its four scenarios are named, not read from the registry, so
// a new built-in scenario does not change it.
func SpecificationStudy() StudyConfig {
	val := make([]uint64, 24)
	for i := range val {
		val[i] = uint64(1001 + i)
	}
	return StudyConfig{
		Name:             "exploration weight",
		Rates:            []float64{100, 175, 250},
		Heterogeneity:    []string{"default", "high"},
		Scenarios:        []string{"steady", "burst", "straggler", "failure"},
		Weights:          []float64{0, 0.05, 0.1, 0.2, 0.35, 0.5},
		DevelopmentSeeds: DefaultSeeds(8),
		ValidationSeeds:  val,
		Policies:         []string{"round-robin", "least-queue", "latency-aware", "adaptive"},
		Protocol:         DefaultProtocol(),
	}
}

// ParseStudy reads a study configuration from JSON; unknown fields and bad
// values are errors naming the file and position or field.
func ParseStudy(data []byte, name string) (StudyConfig, error) {
	var c StudyConfig
	if err := decodeStrict(data, name, &c); err != nil {
		return StudyConfig{}, err
	}
	if err := c.Validate(); err != nil {
		return StudyConfig{}, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// Condition is one cell of the study grid.
type Condition struct {
	Rate          float64 `json:"rate_rps"`
	Heterogeneity string  `json:"heterogeneity"`
	Scenario      string  `json:"scenario"`
}

func (c Condition) String() string {
	return fmt.Sprintf("%s/%s/%g", c.Scenario, c.Heterogeneity, c.Rate)
}

// Conditions lists the grid: rates × heterogeneity × scenarios, in that order.
func (c StudyConfig) Conditions() []Condition {
	var out []Condition
	for _, r := range c.Rates {
		for _, h := range c.Heterogeneity {
			for _, s := range c.Scenarios {
				out = append(out, Condition{Rate: r, Heterogeneity: h, Scenario: s})
			}
		}
	}
	return out
}

// Validate checks the configuration: the protocol first (the scenarios are
// checked against its horizon), then the grid, the weights, the seeds and
// the policies. Every list must be non-empty and without repeats, and the
// validation seeds must not repeat a development seed: a study whose
// validation re-ran the selection's seeds would report the selection's own
// scores as a validation.
func (c StudyConfig) Validate() error {
	if err := c.validateProtocol(); err != nil {
		return err
	}
	if err := c.validateGrid(); err != nil {
		return err
	}
	if err := c.validateWeights(); err != nil {
		return err
	}
	if err := c.validateSeeds(); err != nil {
		return err
	}
	return c.validatePolicies()
}

func (c StudyConfig) validateProtocol() error {
	if c.Protocol == (Protocol{}) {
		return fieldErr("protocol", "none", `an object with warmup_ms, measure_ms and slo_ms, such as the specification's {"warmup_ms": 3000, "measure_ms": 12000, "slo_ms": 50}`)
	}
	if err := c.Protocol.Validate(); err != nil {
		return fmt.Errorf("protocol: %w", err)
	}
	return nil
}

func (c StudyConfig) validateGrid() error {
	if len(c.Rates) == 0 || len(c.Heterogeneity) == 0 || len(c.Scenarios) == 0 {
		return fieldErr("rates_rps/heterogeneity/scenarios", "an empty list", "at least one value each")
	}
	for _, err := range []error{
		checkDistinct("rates_rps", "rates", c.Rates), checkDistinct("heterogeneity", "heterogeneities", c.Heterogeneity),
		checkDistinct("scenarios", "scenarios", c.Scenarios),
	} {
		if err != nil {
			return err
		}
	}
	for _, cond := range c.Conditions() {
		if _, err := cond.scenario(c.Protocol); err != nil {
			return err
		}
	}
	return nil
}

func (c StudyConfig) validateWeights() error {
	if len(c.Weights) == 0 {
		return fieldErr("weights", "none", "at least one exploration weight")
	}
	for i, w := range c.Weights {
		if err := (AdaptiveParams{C: w, Alpha: DefaultAlpha, Ceiling: DefaultCeiling}).Validate(); err != nil {
			return fieldErr(fmt.Sprintf("weights[%d]", i), w, "a finite number >= 0")
		}
	}
	return checkDistinct("weights", "weights", c.Weights)
}

func (c StudyConfig) validateSeeds() error {
	for _, seeds := range []struct {
		field string
		v     []uint64
	}{{"development_seeds", c.DevelopmentSeeds}, {"validation_seeds", c.ValidationSeeds}} {
		if len(seeds.v) == 0 {
			return fieldErr(seeds.field, "none", "at least one seed")
		}
		if err := checkSeeds(seeds.v); err != nil {
			return fmt.Errorf("%s: %w", seeds.field, err)
		}
	}
	var shared []uint64
	for _, s := range c.ValidationSeeds {
		if slices.Contains(c.DevelopmentSeeds, s) {
			shared = append(shared, s)
		}
	}
	if len(shared) > 0 {
		return fieldErr("validation_seeds", sharedSeeds(shared),
			"seeds disjoint from development_seeds, so that validation scores runs the weight was not selected on")
	}
	return nil
}

// sharedSeeds formats the seeds two lists have in common.
type sharedSeeds []uint64

func (s sharedSeeds) String() string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = strconv.FormatUint(x, 10)
	}
	noun := "seed"
	if len(s) > 1 {
		noun = "seeds"
	}
	return fmt.Sprintf("%s %s (also in development_seeds)", noun, strings.Join(parts, ", "))
}

func (c StudyConfig) validatePolicies() error {
	if len(c.Policies) == 0 {
		return fieldErr("policies", "none", "at least one policy")
	}
	for _, p := range c.Policies {
		if _, err := PolicyByName(p); err != nil {
			return err
		}
	}
	return checkDistinct("policies", "policy names", c.Policies)
}

// checkDistinct refuses a list that names a value twice; what names the
// values for the message.
func checkDistinct[T comparable](field, what string, xs []T) error {
	for i, x := range xs {
		if first := slices.Index(xs, x); first < i {
			return fieldErr(fmt.Sprintf("%s[%d]", field, i), x, fmt.Sprintf("distinct %s: %s[%d] is already %s", what, field, first, formatValue(x)))
		}
	}
	return nil
}

func (c Condition) scenario(p Protocol) (Scenario, error) {
	s, err := BuiltinScenario(c.Scenario, c.Rate, Heterogeneity(c.Heterogeneity))
	if err != nil {
		return s, err
	}
	return s, s.Validate(p.Horizon())
}

// StudyRun is one run's raw result.
type StudyRun struct {
	Phase     string  `json:"phase"` // development or validation
	Policy    string  `json:"policy"`
	C         float64 `json:"c"` // exploration weight (Adaptive only; NaN otherwise)
	Condition Condition
	Result    *RunSummary
}

// Score is a mean per-run attainment, with its standard error over seeds.
type Score struct {
	Name           string  `json:"name"`
	C              float64 `json:"c"`
	MeanAttainment float64 `json:"mean_attainment"`
	Runs           int     `json:"runs"`
	// StdErr is the standard error of MeanAttainment over the phase's
	// Seeds: the conditions are fixed and the seeds drawn, so a seed's
	// attainment averaged over every condition is one observation.
	StdErr float64 `json:"std_err"`
	Seeds  int     `json:"seeds"`
}

// StudyResult is the whole study: development scores per weight, the
// selected weight and its margin, validation scores per policy, and every
// run.
type StudyResult struct {
	Config    StudyConfig
	Weights   []Score
	SelectedC float64
	// Margin is the selected weight's development attainment minus the
	// runner-up's, seed by seed (every weight ran the same seeds): its mean,
	// standard error and interval. Nil with a single weight.
	Margin      *PairedStat
	Validation  []Score
	Development []StudyRun
	Validated   []StudyRun
}

// RunStudy runs both phases of the study. It keeps each run's RunSummary,
// never its latencies.
func RunStudy(ctx context.Context, cfg StudyConfig, workers int, progress func(done, total int)) (*StudyResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := cfg.grid()
	total := len(cfg.Weights)*len(g.conds)*len(cfg.DevelopmentSeeds) + len(cfg.Policies)*len(g.conds)*len(cfg.ValidationSeeds)
	offset := 0
	phaseProgress := func(done, _ int) {
		if progress != nil {
			progress(offset+done, total)
		}
	}
	res := &StudyResult{Config: cfg}
	dev := studyPhase{name: "development", seeds: cfg.DevelopmentSeeds}
	for _, w := range cfg.Weights {
		dev.policies = append(dev.policies, Adaptive(AdaptiveParams{C: w, Alpha: DefaultAlpha, Ceiling: DefaultCeiling}))
		dev.cs = append(dev.cs, w)
	}
	var err error
	if res.Development, err = g.run(ctx, dev, workers, phaseProgress); err != nil {
		return nil, err
	}
	offset = len(res.Development)
	res.selectWeight(g.conds)
	if res.Validated, err = g.run(ctx, cfg.validationPhase(res.SelectedC), workers, phaseProgress); err != nil {
		return nil, err
	}
	for _, name := range cfg.Policies {
		c := math.NaN()
		if name == "adaptive" {
			c = res.SelectedC
		}
		res.Validation = append(res.Validation, scoreRuns(name, c, g.conds, cfg.ValidationSeeds, res.Validated, func(r StudyRun) bool { return r.Policy == name }))
	}
	return res, nil
}

// selectWeight scores every weight on the development runs and selects the
// best; ties keep the weight listed first.
func (res *StudyResult) selectWeight(conds []Condition) {
	best := math.Inf(-1)
	for _, w := range res.Config.Weights {
		sc := scoreRuns(fmt.Sprintf("adaptive(c=%g)", w), w, conds, res.Config.DevelopmentSeeds, res.Development, func(r StudyRun) bool { return r.C == w })
		res.Weights = append(res.Weights, sc)
		if sc.MeanAttainment > best {
			best, res.SelectedC = sc.MeanAttainment, w
		}
	}
	res.Margin = res.selectionMargin(conds)
}

// validationPhase runs every policy on the validation seeds, Adaptive with
// the selected weight.
func (cfg StudyConfig) validationPhase(selected float64) studyPhase {
	ph := studyPhase{name: "validation", seeds: cfg.ValidationSeeds}
	for _, name := range cfg.Policies {
		spec, _ := PolicyByName(name) // validated already
		c := math.NaN()
		if name == "adaptive" {
			c = selected
			spec = Adaptive(AdaptiveParams{C: c, Alpha: DefaultAlpha, Ceiling: DefaultCeiling})
			spec.Name = "adaptive"
		}
		ph.policies = append(ph.policies, spec)
		ph.cs = append(ph.cs, c)
	}
	return ph
}

// studyGrid is the study's conditions with their scenarios and prepared
// token tables.
type studyGrid struct {
	proto     Protocol
	conds     []Condition
	scenarios []Scenario
	tables    []*tokenTables
}

func (cfg StudyConfig) grid() studyGrid {
	g := studyGrid{proto: cfg.Protocol, conds: cfg.Conditions()}
	for _, cond := range g.conds {
		scn, _ := cond.scenario(cfg.Protocol) // validated already
		g.scenarios = append(g.scenarios, scn)
	}
	g.tables = tokenTablesFor(g.scenarios)
	return g
}

// studyPhase is one phase of the study: each policy (with its exploration
// weight, NaN when it has none) on every condition and seed.
type studyPhase struct {
	name     string
	policies []PolicySpec
	cs       []float64
	seeds    []uint64
}

// run runs a phase, policy by policy, condition by condition, seed by seed,
// and keeps each run's summary.
func (g studyGrid) run(ctx context.Context, ph studyPhase, workers int, progress func(int, int)) ([]StudyRun, error) {
	nSeeds := len(ph.seeds)
	perPolicy := len(g.conds) * nSeeds
	at := func(i int) (policy, cond, seed int) { return i / perPolicy, i % perPolicy / nSeeds, i % nSeeds }
	out := make([]StudyRun, len(ph.policies)*perPolicy)
	summaries := make([]RunSummary, len(out)) // one allocation for every run's result
	err := runJobs(ctx, jobs{
		n: len(out),
		spec: func(i int) RunSpec {
			pi, ci, si := at(i)
			return RunSpec{Scenario: g.scenarios[ci], Policy: ph.policies[pi], Seed: ph.seeds[si], Protocol: g.proto, SummaryOnly: true, tables: g.tables[ci]}
		},
		keep: func(i int, r *RunResult) {
			pi, ci, _ := at(i)
			summaries[i] = r.RunSummary
			out[i] = StudyRun{Phase: ph.name, Policy: ph.policies[pi].Name, C: ph.cs[pi], Condition: g.conds[ci], Result: &summaries[i]}
		},
	}, workers, progress)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scoreRuns is the mean over conditions of the mean attainment over seeds,
// so each condition weighs the same, and its standard error over seeds.
func scoreRuns(name string, c float64, conds []Condition, seeds []uint64, runs []StudyRun, keep func(StudyRun) bool) Score {
	var perCond []float64
	n := 0
	for _, cond := range conds {
		var att []float64
		for _, r := range runs {
			if keep(r) && r.Condition == cond {
				att = append(att, r.Result.Attainment)
				n++
			}
		}
		perCond = append(perCond, Mean(att))
	}
	perSeed := seedMeans(metric("attainment"), seeds, conds, runs, keep)
	return Score{Name: name, C: c, MeanAttainment: Mean(perCond), Runs: n, StdErr: stdErr(perSeed), Seeds: len(seeds)}
}

// runRecords yields every run of the study, development first.
func (r *StudyResult) runRecords() recordSeq {
	return func(yield func([]Field) error) error {
		for _, runs := range [][]StudyRun{r.Development, r.Validated} {
			for _, run := range runs {
				if err := yield(run.record()); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// record flattens one run: its phase, policy, weight and condition, then
// the run's own record.
func (run StudyRun) record() []Field {
	rec := []Field{
		{"phase", run.Phase}, {"policy", run.Policy}, {"c", run.C},
		{"rate_rps", run.Condition.Rate}, {"heterogeneity", run.Condition.Heterogeneity},
		{"scenario", run.Condition.Scenario},
	}
	for _, f := range RunRecord(run.Result) {
		if f.Name != "policy" && f.Name != "scenario" {
			rec = append(rec, f)
		}
	}
	return rec
}

// RunRecords flattens every run of the study, development first.
func (r *StudyResult) RunRecords() [][]Field { return r.runRecords().collect() }

// WriteCSV writes one CSV row per run, development first, written as it is
// formatted.
func (r *StudyResult) WriteCSV(w io.Writer) error { return writeCSVRows(w, r.runRecords()) }

// scoreRecords flattens scores, with their standard errors when asked.
func scoreRecords(scores []Score, stdErr bool) []jsonObject {
	out := make([]jsonObject, len(scores))
	for i, s := range scores {
		out[i] = jsonObject{{"name", s.Name}, {"c", s.C}, {"mean_attainment", s.MeanAttainment}, {"runs", s.Runs}}
		if stdErr {
			out[i] = append(out[i], Field{"std_err", s.StdErr}, Field{"seeds", s.Seeds})
		}
	}
	return out
}

// WriteJSON writes the configuration, the scores, the selected weight and
// every run, each run written as it is formatted.
func (r *StudyResult) WriteJSON(w io.Writer) error {
	return writeIndented(w, jsonObject{
		{"config", r.Config}, {"development", scoreRecords(r.Weights, false)}, {"selected_c", r.SelectedC},
		{"validation", scoreRecords(r.Validation, false)}, {"runs", r.runRecords()},
	})
}
