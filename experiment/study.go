package experiment

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/record"
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
	Policies []string        `json:"policies"`
	Protocol engine.Protocol `json:"protocol"`
	// Scripted are policies beyond the built-ins (written in Go cells or
	// policy files), each named in Policies, which resolves a name to a
	// scripted policy before a built-in one. They are not part of the JSON
	// form: a study file names built-ins only.
	Scripted []engine.PolicySpec `json:"-"`
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
		Protocol:         engine.DefaultProtocol(),
	}
}

// ParseStudy reads a study configuration from JSON; unknown fields and bad
// values are errors naming the file and position or field.
func ParseStudy(data []byte, name string) (StudyConfig, error) {
	var c StudyConfig
	if err := record.DecodeStrict(data, name, &c); err != nil {
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
	if c.Protocol == (engine.Protocol{}) {
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
		if err := (engine.AdaptiveParams{C: w, Alpha: engine.DefaultAlpha, Ceiling: engine.DefaultCeiling}).Validate(); err != nil {
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
		if _, err := c.policy(p); err != nil {
			return err
		}
	}
	if err := checkDistinct("policies", "policy names", c.Policies); err != nil {
		return err
	}
	return c.validateScripted()
}

// validateScripted requires each scripted policy to be named once, in
// Policies, and not like a built-in: "adaptive" must mean the study's own.
func (c StudyConfig) validateScripted() error {
	names := make([]string, len(c.Scripted))
	for i, p := range c.Scripted {
		field := fmt.Sprintf("scripted[%d]", i)
		if !slices.Contains(c.Policies, p.Name) {
			return fieldErr(field, p.Name, "a policy named in policies")
		}
		if _, err := engine.PolicyByName(p.Name); err == nil {
			return fieldErr(field, p.Name, "a name no built-in policy has")
		}
		names[i] = p.Name
	}
	return checkDistinct("scripted", "policy names", names)
}

// policy resolves a name of Policies: a scripted policy, or a built-in.
func (c StudyConfig) policy(name string) (engine.PolicySpec, error) {
	for _, p := range c.Scripted {
		if p.Name == name {
			return p, nil
		}
	}
	return engine.PolicyByName(name)
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

func (c Condition) scenario(p engine.Protocol) (engine.Scenario, error) {
	s, err := engine.BuiltinScenario(c.Scenario, c.Rate, engine.Heterogeneity(c.Heterogeneity))
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
	Result    *engine.RunSummary
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

// scoreRuns is the mean over conditions of the mean attainment over seeds,
// so each condition weighs the same, and its standard error over seeds.
// One pass over the runs gathers each condition's attainments in run order
// (a pass per condition cost a sharded study's every validation shard
// tens of milliseconds).
func scoreRuns(name string, c float64, conds []Condition, seeds []uint64, runs []StudyRun, keep func(StudyRun) bool) Score {
	at := make(map[Condition][]int, len(conds))
	for i, cond := range conds {
		at[cond] = append(at[cond], i)
	}
	att := make([][]float64, len(conds))
	n := 0
	var last Condition
	var lastAt []int // a phase's runs come condition by condition: look up each once
	for k, r := range runs {
		if k == 0 || r.Condition != last {
			last, lastAt = r.Condition, at[r.Condition]
		}
		if is := lastAt; len(is) > 0 && keep(r) {
			for _, i := range is {
				att[i] = append(att[i], r.Result.Attainment)
				n++
			}
		}
	}
	perCond := make([]float64, len(conds))
	for i := range att {
		perCond[i] = engine.Mean(att[i])
	}
	perSeed := seedMeans(metric("attainment"), seeds, conds, runs, keep)
	return Score{Name: name, C: c, MeanAttainment: engine.Mean(perCond), Runs: n, StdErr: stdErr(perSeed), Seeds: len(seeds)}
}

// runRecords yields every run of the study, development first.
func (r *StudyResult) runRecords() record.Seq {
	return func(yield func([]engine.Field) error) error {
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
func (run StudyRun) record() []engine.Field {
	rec := []engine.Field{
		{Name: "phase", Value: run.Phase}, {Name: "policy", Value: run.Policy}, {Name: "c", Value: run.C},
		{Name: "rate_rps", Value: run.Condition.Rate}, {Name: "heterogeneity", Value: run.Condition.Heterogeneity},
		{Name: "scenario", Value: run.Condition.Scenario},
	}
	for _, f := range engine.RunRecord(run.Result) {
		if f.Name != "policy" && f.Name != "scenario" {
			rec = append(rec, f)
		}
	}
	return rec
}

// RunRecords flattens every run of the study, development first.
func (r *StudyResult) RunRecords() [][]engine.Field { return r.runRecords().Collect() }

// WriteCSV writes one CSV row per run, development first, written as it is
// formatted.
func (r *StudyResult) WriteCSV(w io.Writer) error { return record.WriteCSVRows(w, r.runRecords()) }

// WriteText writes the study as routelab study prints it: the development
// scores of each weight with the selected one marked, then the validation
// scores of each policy.
func (r *StudyResult) WriteText(w io.Writer) error {
	cfg := r.Config
	fmt.Fprintf(w, "%s study: %d conditions, %d weights × %d development seeds, %d policies × %d validation seeds\n\n",
		cfg.Name, len(cfg.Conditions()), len(cfg.Weights), len(cfg.DevelopmentSeeds), len(cfg.Policies), len(cfg.ValidationSeeds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "development: c\tmean attainment\truns\t")
	for _, s := range r.Weights {
		mark := ""
		if s.C == r.SelectedC {
			mark = "  ← selected"
		}
		fmt.Fprintf(tw, "%g\t%.4f%%\t%d\t%s\n", s.C, 100*s.MeanAttainment, s.Runs, mark)
	}
	fmt.Fprintln(tw, "\t\t\t")
	fmt.Fprintln(tw, "validation: policy\tmean attainment\truns\t")
	for _, s := range r.Validation {
		name := s.Name
		if !math.IsNaN(s.C) {
			name = fmt.Sprintf("%s (c=%g)", s.Name, s.C)
		}
		fmt.Fprintf(tw, "%s\t%.4f%%\t%d\t\n", name, 100*s.MeanAttainment, s.Runs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nmeans of per-run attainment; descriptive, not confidence intervals")
	return err
}

// scoreRecords flattens scores, with their standard errors when asked.
func scoreRecords(scores []Score, stdErr bool) []record.Object {
	out := make([]record.Object, len(scores))
	for i, s := range scores {
		out[i] = record.Object{{Name: "name", Value: s.Name}, {Name: "c", Value: s.C}, {Name: "mean_attainment", Value: s.MeanAttainment}, {Name: "runs", Value: s.Runs}}
		if stdErr {
			out[i] = append(out[i], engine.Field{Name: "std_err", Value: s.StdErr}, engine.Field{Name: "seeds", Value: s.Seeds})
		}
	}
	return out
}

// WriteJSON writes the configuration, the scores, the selected weight and
// every run, each run written as it is formatted.
func (r *StudyResult) WriteJSON(w io.Writer) error {
	return record.WriteIndented(w, record.Object{
		{Name: "config", Value: r.Config}, {Name: "development", Value: scoreRecords(r.Weights, false)}, {Name: "selected_c", Value: r.SelectedC},
		{Name: "validation", Value: scoreRecords(r.Validation, false)}, {Name: "runs", Value: r.runRecords()},
	})
}
