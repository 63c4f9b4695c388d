package experiment

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/routelab/routelab/engine"
)

// How a study runs: its two phases, each a list of runs in a fixed order
// (policy, condition, seed), which RunStudy runs whole and a sharded study
// runs a shard at a time. The validation phase runs Adaptive at the weight
// the development phase selects, so a sharded study runs in two rounds:
// every shard of the development phase, then, given all their summaries,
// the shards of the validation phase.

// RunStudy runs both phases of the study. It keeps each run's RunSummary,
// never its latencies.
func RunStudy(ctx context.Context, cfg StudyConfig, workers int, progress func(done, total int)) (*StudyResult, error) {
	nDev, nVal, err := cfg.runnable()
	if err != nil {
		return nil, err
	}
	whole := Shard{Index: 1, Count: 1}
	dev, err := RunStudyDevelopment(ctx, cfg, whole, workers, offset(progress, 0, nDev+nVal))
	if err != nil {
		return nil, err
	}
	selected, err := SelectWeight(cfg, dev)
	if err != nil {
		return nil, err
	}
	val, err := RunStudyValidation(ctx, cfg, selected, whole, workers, offset(progress, nDev, nDev+nVal))
	if err != nil {
		return nil, err
	}
	return AssembleStudy(cfg, dev, val)
}

// offset reports a phase's progress as part of the study's, after the
// before runs of the phase that came first.
func offset(progress func(done, total int), before, total int) func(done, total int) {
	if progress == nil {
		return nil
	}
	return func(done, _ int) { progress(before+done, total) }
}

// Runs counts the runs of each phase: every weight on every condition and
// development seed, every policy on every condition and validation seed.
func (c StudyConfig) Runs() (development, validation int) {
	conds := len(c.Rates) * len(c.Heterogeneity) * len(c.Scenarios)
	return len(c.Weights) * conds * len(c.DevelopmentSeeds), len(c.Policies) * conds * len(c.ValidationSeeds)
}

// runnable validates the study for running (scripted policies need their
// constructors) and counts its runs.
func (c StudyConfig) runnable() (development, validation int, err error) {
	if err := c.Validate(); err != nil {
		return 0, 0, err
	}
	if err := checkConstructors(c.Scripted); err != nil {
		return 0, 0, err
	}
	development, validation = c.Runs()
	return development, validation, nil
}

// RunStudyDevelopment runs the shard's runs of the development phase and
// returns their summaries, the k-th being the phase's run s.Run(k).
// Progress counts the shard's runs.
func RunStudyDevelopment(ctx context.Context, cfg StudyConfig, s Shard, workers int, progress func(done, total int)) ([]engine.RunSummary, error) {
	if _, _, err := cfg.runnable(); err != nil {
		return nil, err
	}
	g := cfg.grid()
	return summaries(ctx, g.jobs(cfg.developmentPhase()), s, workers, progress)
}

// SelectWeight is the exploration weight the development phase selects
// from the summaries of all its runs, in run order: the best mean per-run
// attainment, conditions weighted equally; ties keep the weight listed
// first.
func SelectWeight(cfg StudyConfig, development []engine.RunSummary) (float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	g := cfg.layout()
	runs, err := g.studyRuns(cfg.developmentPhase(), development)
	if err != nil {
		return 0, err
	}
	_, selected := selectWeight(cfg, g.conds, runs)
	return selected, nil
}

// SelectWeightFrom is SelectWeight given only each development run's
// attainment, in run order: all that a sharded study's second round needs
// of its first. Every validation shard selects, so this scores the
// attainments in place, as selectWeight scores the runs (each weight's
// runs come condition by condition, each condition's seed by seed, and
// Validate has ruled out repeated weights, conditions and seeds), rather
// than building a summary per run.
func SelectWeightFrom(cfg StudyConfig, attainment []float64) (float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	nConds, nSeeds := len(cfg.Conditions()), len(cfg.DevelopmentSeeds)
	if n := len(cfg.Weights) * nConds * nSeeds; len(attainment) != n {
		return 0, fmt.Errorf("engine: the study's development phase has %d runs; got %d attainments", n, len(attainment))
	}
	best, selected := math.Inf(-1), 0.0
	perCond := make([]float64, nConds)
	for w, c := range cfg.Weights {
		for ci := range perCond {
			from := (w*nConds + ci) * nSeeds
			perCond[ci] = engine.Mean(attainment[from : from+nSeeds])
		}
		if m := engine.Mean(perCond); m > best {
			best, selected = m, c
		}
	}
	return selected, nil
}

// RunStudyValidation runs the shard's runs of the validation phase, with
// Adaptive at the selected weight (one of the study's weights, as
// SelectWeight returns it), and returns their summaries, the k-th being
// the phase's run s.Run(k). Progress counts the shard's runs.
func RunStudyValidation(ctx context.Context, cfg StudyConfig, selected float64, s Shard, workers int, progress func(done, total int)) ([]engine.RunSummary, error) {
	if _, _, err := cfg.runnable(); err != nil {
		return nil, err
	}
	if !slices.Contains(cfg.Weights, selected) {
		return nil, fieldErr("selected weight", selected, "one of the study's weights, "+strings.Trim(fmt.Sprint(cfg.Weights), "[]"))
	}
	g := cfg.grid()
	return summaries(ctx, g.jobs(cfg.validationPhase(selected)), s, workers, progress)
}

// AssembleStudy builds the study's result from the summaries of all the
// runs of both phases, each in run order (the shards' summaries put back
// with Shard.Run), as RunStudy would have. Each summary must be of its
// run's policy, condition and seed. The result refers to the two slices.
// Scripted policies need only their names here.
func AssembleStudy(cfg StudyConfig, development, validation []engine.RunSummary) (*StudyResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := cfg.layout()
	res := &StudyResult{Config: cfg}
	var err error
	if res.Development, err = g.studyRuns(cfg.developmentPhase(), development); err != nil {
		return nil, err
	}
	res.Weights, res.SelectedC = selectWeight(cfg, g.conds, res.Development)
	res.Margin = res.selectionMargin(g.conds)
	if res.Validated, err = g.studyRuns(cfg.validationPhase(res.SelectedC), validation); err != nil {
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
func selectWeight(cfg StudyConfig, conds []Condition, dev []StudyRun) (scores []Score, selected float64) {
	best := math.Inf(-1)
	for _, w := range cfg.Weights {
		sc := scoreRuns(fmt.Sprintf("adaptive(c=%g)", w), w, conds, cfg.DevelopmentSeeds, dev, func(r StudyRun) bool { return r.C == w })
		scores = append(scores, sc)
		if sc.MeanAttainment > best {
			best, selected = sc.MeanAttainment, w
		}
	}
	return scores, selected
}

// developmentPhase runs Adaptive at every weight on the development seeds.
func (cfg StudyConfig) developmentPhase() studyPhase {
	ph := studyPhase{name: "development", seeds: cfg.DevelopmentSeeds}
	for _, w := range cfg.Weights {
		ph.policies = append(ph.policies, engine.Adaptive(engine.AdaptiveParams{C: w, Alpha: engine.DefaultAlpha, Ceiling: engine.DefaultCeiling}))
		ph.cs = append(ph.cs, w)
	}
	return ph
}

// validationPhase runs every policy on the validation seeds, Adaptive with
// the selected weight.
func (cfg StudyConfig) validationPhase(selected float64) studyPhase {
	ph := studyPhase{name: "validation", seeds: cfg.ValidationSeeds}
	for _, name := range cfg.Policies {
		spec, _ := cfg.policy(name) // validated already
		c := math.NaN()
		if name == "adaptive" {
			c = selected
			spec = engine.Adaptive(engine.AdaptiveParams{C: c, Alpha: engine.DefaultAlpha, Ceiling: engine.DefaultCeiling})
			spec.Name = "adaptive"
		}
		ph.policies = append(ph.policies, spec)
		ph.cs = append(ph.cs, c)
	}
	return ph
}

// studyGrid is the study's conditions with their scenarios and a runner
// that has their token samplers.
type studyGrid struct {
	proto     engine.Protocol
	conds     []Condition
	scenarios []engine.Scenario
	runner    *engine.Runner
}

func (cfg StudyConfig) grid() studyGrid {
	g := cfg.layout()
	g.runner = engine.NewRunner(g.scenarios...)
	return g
}

// layout is the grid without the runner: enough to score and
// assemble runs, not to run them.
func (cfg StudyConfig) layout() studyGrid {
	g := studyGrid{proto: cfg.Protocol, conds: cfg.Conditions()}
	for _, cond := range g.conds {
		scn, _ := cond.scenario(cfg.Protocol) // validated already
		g.scenarios = append(g.scenarios, scn)
	}
	return g
}

// studyPhase is one phase of the study: each policy (with its exploration
// weight, NaN when it has none) on every condition and seed.
type studyPhase struct {
	name     string
	policies []engine.PolicySpec
	cs       []float64
	seeds    []uint64
}

// at locates a phase's run i: policy by policy, condition by condition,
// seed by seed.
func (g studyGrid) at(ph studyPhase, i int) (policy, cond, seed int) {
	nSeeds := len(ph.seeds)
	perPolicy := len(g.conds) * nSeeds
	return i / perPolicy, i % perPolicy / nSeeds, i % nSeeds
}

// jobs are a phase's runs in run order, each keeping its summary only.
func (g studyGrid) jobs(ph studyPhase) jobs {
	return jobs{
		n: len(ph.policies) * len(g.conds) * len(ph.seeds), runner: g.runner,
		spec: func(i int) engine.RunSpec {
			pi, ci, si := g.at(ph, i)
			return engine.RunSpec{Scenario: g.scenarios[ci], Policy: ph.policies[pi], Seed: ph.seeds[si], Protocol: g.proto, SummaryOnly: true}
		},
	}
}

// studyRuns pairs the summaries of a phase's runs, in run order, with what
// each run was; a summary of another run is an error.
func (g studyGrid) studyRuns(ph studyPhase, sums []engine.RunSummary) ([]StudyRun, error) {
	if n := g.jobs(ph).n; len(sums) != n {
		return nil, fmt.Errorf("engine: the study's %s phase has %d runs; got %d summaries", ph.name, n, len(sums))
	}
	out := make([]StudyRun, len(sums))
	for i := range sums {
		pi, ci, si := g.at(ph, i)
		if err := checkRecord(i, &sums[i], ph.policies[pi].Name, g.scenarios[ci].Name, ph.seeds[si]); err != nil {
			return nil, fmt.Errorf("%s phase: %w", ph.name, err)
		}
		out[i] = StudyRun{Phase: ph.name, Policy: ph.policies[pi].Name, C: ph.cs[pi], Condition: g.conds[ci], Result: &sums[i]}
	}
	return out, nil
}
