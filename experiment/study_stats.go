package experiment

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/record"
	"github.com/routelab/routelab/internal/sheet"
)

// The study's uncertainty. Its conditions are fixed and its seeds drawn, so
// a seed — one run of every condition — is the unit of replication: each
// seed's figure is the mean over conditions, and a score (the mean over
// conditions of the mean over seeds) is the mean of those. Every weight,
// and in validation every policy, runs the same seeds, so differences
// between them are paired seed by seed.

// seedMeans returns, per seed, the mean over conditions of metric m in the
// runs keep selects (NaN values and missing runs left out).
func seedMeans(m engine.Metric, seeds []uint64, conds []Condition, runs []StudyRun, keep func(StudyRun) bool) []float64 {
	seedAt := make(map[uint64]int, len(seeds))
	for i, s := range seeds {
		seedAt[s] = i
	}
	condAt := make(map[Condition]int, len(conds))
	for i, c := range conds {
		condAt[c] = i
	}
	grid := make([][]float64, len(seeds))
	for i := range grid {
		grid[i] = make([]float64, len(conds))
		for j := range grid[i] {
			grid[i][j] = math.NaN()
		}
	}
	var last Condition
	lastAt, lastOK := 0, false // a phase's runs come condition by condition: look up each once
	for k, r := range runs {
		if k == 0 || r.Condition != last {
			last = r.Condition
			lastAt, lastOK = condAt[r.Condition]
		}
		si, okSeed := seedAt[r.Result.Seed]
		ci, okCond := lastAt, lastOK
		if okSeed && okCond && keep(r) {
			grid[si][ci] = m.Of(r.Result)
		}
	}
	out := make([]float64, len(seeds))
	for i, row := range grid {
		out[i] = engine.Mean(row)
	}
	return out
}

// pairSeedMeans pairs two selections of runs seed by seed in metric m.
func pairSeedMeans(m engine.Metric, seeds []uint64, conds []Condition, runs []StudyRun, baseline, policy func(StudyRun) bool) []SeedPair {
	a := seedMeans(m, seeds, conds, runs, baseline)
	b := seedMeans(m, seeds, conds, runs, policy)
	out := make([]SeedPair, len(seeds))
	for i, s := range seeds {
		out[i] = newSeedPair(m, s, a[i], b[i])
	}
	return out
}

// selectionMargin is the selected weight minus the runner-up (the best of
// the others, the first listed on a tie) in development attainment, seed by
// seed; nil with a single weight.
func (res *StudyResult) selectionMargin(conds []Condition) *PairedStat {
	sel, runner := -1, -1
	for i, s := range res.Weights {
		switch {
		case s.C == res.SelectedC:
			sel = i
		case runner < 0 || s.MeanAttainment > res.Weights[runner].MeanAttainment:
			runner = i
		}
	}
	if sel < 0 || runner < 0 {
		return nil
	}
	best, ru := res.Weights[sel], res.Weights[runner]
	att := metric("attainment")
	pairs := pairSeedMeans(att, res.Config.DevelopmentSeeds, conds, res.Development,
		func(r StudyRun) bool { return r.C == ru.C }, func(r StudyRun) bool { return r.C == best.C })
	st := pairedStat(att, PairedT, ru.Name, best.Name, pairs)
	return &st
}

// Paired compares validated policies with a baseline, seed by seed over the
// validation seeds, each seed's figure its mean over the conditions.
func (r *StudyResult) Paired(o PairedOptions) (*Paired, error) {
	cfg := r.Config
	plan, err := o.plan(cfg.Policies, len(cfg.ValidationSeeds))
	if err != nil {
		return nil, err
	}
	conds := cfg.Conditions()
	out := &Paired{
		Label:    fmt.Sprintf("the %s study's validation (each seed's mean over %d conditions)", cfg.Name, len(conds)),
		Baseline: plan.baseline, Method: plan.method, Seeds: cfg.ValidationSeeds,
	}
	isBase := func(run StudyRun) bool { return run.Policy == plan.baseline }
	for _, name := range plan.policies {
		isPolicy := func(run StudyRun) bool { return run.Policy == name }
		for _, m := range plan.metrics {
			pairs := pairSeedMeans(m, cfg.ValidationSeeds, conds, r.Validated, isBase, isPolicy)
			out.Stats = append(out.Stats, pairedStat(m, plan.method, plan.baseline, name, pairs))
		}
	}
	return out, nil
}

// WriteJSONPaired writes the study as WriteJSON does, with its
// uncertainty: each score's standard error and seeds, the selection margin
// (after the selected weight) and, when p is not nil, the validation's
// paired statistics under "paired" before the runs.
func (r *StudyResult) WriteJSONPaired(w io.Writer, p *Paired) error {
	var margin any // null with a single weight
	if r.Margin != nil {
		margin = record.Object(r.Margin.Record())
	}
	out := record.Object{
		{Name: "config", Value: r.Config}, {Name: "development", Value: scoreRecords(r.Weights, true)}, {Name: "selected_c", Value: r.SelectedC},
		{Name: "selection_margin", Value: margin}, {Name: "validation", Value: scoreRecords(r.Validation, true)},
	}
	if p != nil {
		out = append(out, engine.Field{Name: "paired", Value: record.Objects(p.Records())})
	}
	return record.WriteIndented(w, append(out, engine.Field{Name: "runs", Value: r.runRecords()}))
}

// WriteUncertainty writes the scores with their standard errors and the
// selection margin with its interval.
func (r *StudyResult) WriteUncertainty(w io.Writer) error {
	fmt.Fprintf(w, "uncertainty over seeds: each seed's attainment averaged over the %d conditions\n", len(r.Config.Conditions()))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "development: c\tmean attainment\tstd err\tseeds\t")
	for _, s := range r.Weights {
		fmt.Fprintf(tw, "%g\t%.4f%%\t%s pp\t%d\t\n", s.C, 100*s.MeanAttainment, sheet.Dash("%.4f", 100*s.StdErr), s.Seeds)
	}
	fmt.Fprintln(tw, "validation: policy\tmean attainment\tstd err\tseeds\t")
	for _, s := range r.Validation {
		name := s.Name
		if !math.IsNaN(s.C) {
			name = fmt.Sprintf("%s (c=%g)", s.Name, s.C)
		}
		fmt.Fprintf(tw, "%s\t%.4f%%\t%s pp\t%d\t\n", name, 100*s.MeanAttainment, sheet.Dash("%.4f", 100*s.StdErr), s.Seeds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, r.marginText())
	return err
}

// marginText states the selection margin in one sentence.
func (r *StudyResult) marginText() string {
	m := r.Margin
	if m == nil {
		return "selection margin: none (a single weight)"
	}
	verdict := m.Verdict()
	if verdict == VerdictBetter {
		verdict = "the selected weight is better at 95 %"
	}
	return fmt.Sprintf("selection margin, %s − %s (runner-up): %s pp, std err %s pp, 95 %% t-interval %s pp over %d seeds (%d won, %d lost, %d tied): %s",
		m.Policy, m.Baseline, sheet.Dash("%+.4f", 100*m.DiffMean), sheet.Dash("%.4f", 100*m.StdErr),
		intervalPP(m.CILow, m.CIHigh), m.Seeds, m.Wins, m.Losses, m.Ties, verdict)
}

// intervalPP formats an interval of fractions in percentage points, to the
// precision of the study's scores.
func intervalPP(lo, hi float64) string {
	if !finite(lo) || !finite(hi) {
		return "—"
	}
	return fmt.Sprintf("[%+.4f, %+.4f]", 100*lo, 100*hi)
}
