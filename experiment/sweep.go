package experiment

import (
	"context"
	"fmt"
	"io"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/record"
)

// SweepPoint is one scenario of a parameter grid, placed at X on the sweep's
// axis.
type SweepPoint struct {
	Label    string
	X        float64
	Scenario engine.Scenario
}

// Sweep compares policies at every point of a grid, all runs in one parallel
// pool.
type Sweep struct {
	XLabel   string // the axis for people, e.g. "arrival rate (req/s)"
	XName    string // the axis for files, snake_case, e.g. "rate_rps" (default "x")
	Points   []SweepPoint
	Policies []engine.PolicySpec
	Seeds    []uint64        // default 1..10
	Protocol engine.Protocol // default DefaultProtocol() when zero
	Workers  int
	Progress func(done, total int)
	Keep     Keep // what each point's Comparison keeps of its runs
}

// SweepResult holds one Comparison per point, in point order.
type SweepResult struct {
	XLabel      string
	XName       string
	Points      []SweepPoint
	Comparisons []*Comparison
}

// RateSweep places base at each arrival rate (req/s).
func RateSweep(base engine.Scenario, rates ...float64) []SweepPoint {
	out := make([]SweepPoint, len(rates))
	for i, r := range rates {
		s := base
		s.Rate = r
		out[i] = SweepPoint{Label: fmt.Sprintf("%s @ %g req/s", base.Name, r), X: r, Scenario: s}
	}
	return out
}

// RunSweep runs every point.
func RunSweep(ctx context.Context, sw Sweep) (*SweepResult, error) {
	if err := sw.prepare(); err != nil {
		return nil, err
	}
	res := sw.newResult()
	keep := func(i int, r *engine.RunResult) {
		pt, pi, si := sw.at(i)
		res.Comparisons[pt].keep(pi, si, r)
	}
	if err := runJobs(ctx, sw.jobs(sw.runner(), keep), sw.Workers, sw.Progress); err != nil {
		return nil, err
	}
	if err := res.finish(); err != nil {
		return nil, err
	}
	return res, nil
}

// prepare fills in the defaults and validates the sweep.
func (sw *Sweep) prepare() error {
	sw.withDefaults()
	return sw.validate()
}

func (sw *Sweep) withDefaults() {
	if sw.Protocol == (engine.Protocol{}) {
		sw.Protocol = engine.DefaultProtocol()
	}
	if sw.Seeds == nil {
		sw.Seeds = DefaultSeeds(engine.DefaultSeedCount)
	}
	if sw.XName == "" {
		sw.XName = "x"
	}
}

// newResult prepares the result: a comparison per point.
func (sw *Sweep) newResult() *SweepResult {
	res := &SweepResult{XLabel: sw.XLabel, XName: sw.XName, Points: sw.Points}
	for _, pt := range sw.Points {
		res.Comparisons = append(res.Comparisons, newComparison(pt.Scenario, sw.Protocol, sw.Seeds, sw.Policies, sw.Keep))
	}
	return res
}

// finish checks and summarises every point's comparison.
func (res *SweepResult) finish() error {
	for _, c := range res.Comparisons {
		if err := c.finish(); err != nil {
			return err
		}
	}
	return nil
}

// runner prepares each point's token samplers once for all its runs.
func (sw *Sweep) runner() *engine.Runner {
	scenarios := make([]engine.Scenario, len(sw.Points))
	for i, pt := range sw.Points {
		scenarios[i] = pt.Scenario
	}
	return engine.NewRunner(scenarios...)
}

// runs is the number of runs of the sweep.
func (sw *Sweep) runs() int { return len(sw.Points) * len(sw.Policies) * len(sw.Seeds) }

// at locates run i: point by point, policy by policy, seed by seed.
func (sw *Sweep) at(i int) (point, policy, seed int) {
	nSeeds := len(sw.Seeds)
	perPoint := len(sw.Policies) * nSeeds
	return i / perPoint, i % perPoint / nSeeds, i % nSeeds
}

// jobs are the sweep's runs in run order; keep stores each result.
func (sw *Sweep) jobs(runner *engine.Runner, keep func(i int, r *engine.RunResult)) jobs {
	return jobs{
		n: sw.runs(), runner: runner,
		spec: func(i int) engine.RunSpec {
			pt, pi, si := sw.at(i)
			return engine.RunSpec{
				Scenario: sw.Points[pt].Scenario, Policy: sw.Policies[pi], Seed: sw.Seeds[si], Protocol: sw.Protocol,
				SummaryOnly: sw.Keep == KeepSummaries,
			}
		},
		keep: keep,
	}
}

// validate checks the sweep before it runs: validateData, and a
// constructor for every policy.
func (sw *Sweep) validate() error {
	if err := sw.validateData(); err != nil {
		return err
	}
	return checkConstructors(sw.Policies)
}

// validateData checks what the sweep's results are made of: points,
// protocol, seeds and policy names.
func (sw *Sweep) validateData() error {
	if len(sw.Points) == 0 {
		return fieldErr("points", "none", "at least one scenario")
	}
	if err := sw.Protocol.Validate(); err != nil {
		return err
	}
	if err := sw.Keep.validate(); err != nil {
		return err
	}
	if len(sw.Seeds) == 0 {
		return fieldErr("seeds", "none", "at least one seed")
	}
	if err := checkSeeds(sw.Seeds); err != nil {
		return err
	}
	if err := checkPolicies(sw.Policies); err != nil {
		return err
	}
	for i := range sw.Points {
		if err := sw.Points[i].Scenario.Validate(sw.Protocol.Horizon()); err != nil {
			if len(sw.Points) == 1 {
				return err
			}
			return fmt.Errorf("point %d (%s): %w", i, sw.Points[i].Label, err)
		}
	}
	return nil
}

// runRecords yields every run of the sweep, with the point's x value first.
func (s *SweepResult) runRecords() record.Seq {
	return func(yield func([]engine.Field) error) error {
		for i, c := range s.Comparisons {
			x := engine.Field{Name: s.XName, Value: s.Points[i].X}
			err := c.runRecords()(func(rec []engine.Field) error { return yield(append([]engine.Field{x}, rec...)) })
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// RunRecords flattens every run of the sweep, with the point's x value first.
func (s *SweepResult) RunRecords() [][]engine.Field { return s.runRecords().Collect() }

// SummaryRecords flattens every point's per-policy summaries.
func (s *SweepResult) SummaryRecords() [][]engine.Field {
	var out [][]engine.Field
	for i, c := range s.Comparisons {
		for _, rec := range c.SummaryRecords() {
			out = append(out, append([]engine.Field{{Name: s.XName, Value: s.Points[i].X}}, rec...))
		}
	}
	return out
}

// WriteCSV writes one CSV row per run, the point's x value first, written as
// it is formatted.
func (s *SweepResult) WriteCSV(w io.Writer) error { return record.WriteCSVRows(w, s.runRecords()) }

// WriteJSON writes the axis and, per point, its x value and comparison
// summaries and runs, each run written as it is formatted.
func (s *SweepResult) WriteJSON(w io.Writer) error { return s.writeJSON(w, nil) }

// WriteJSONPaired writes the sweep as WriteJSON does, with each point's
// paired statistics under "paired" between its summaries and its runs.
func (s *SweepResult) WriteJSONPaired(w io.Writer, p *SweepPaired) error {
	if len(p.Points) != len(s.Comparisons) {
		return fmt.Errorf("engine: paired statistics of %d points for a sweep of %d", len(p.Points), len(s.Comparisons))
	}
	return s.writeJSON(w, p)
}

func (s *SweepResult) writeJSON(w io.Writer, p *SweepPaired) error {
	points := make([]record.Object, len(s.Comparisons))
	for i, c := range s.Comparisons {
		points[i] = record.Object{
			{Name: "label", Value: s.Points[i].Label}, {Name: s.XName, Value: s.Points[i].X}, {Name: "scenario", Value: c.Scenario},
			{Name: "policies", Value: record.Objects(c.SummaryRecords())}, {Name: "runs", Value: c.runRecords()},
		}
		if p != nil {
			points[i] = insertBefore(points[i], "runs", engine.Field{Name: "paired", Value: record.Objects(p.Points[i].Records())})
		}
	}
	return record.WriteIndented(w, record.Object{{Name: "x_label", Value: s.XLabel}, {Name: "x_name", Value: s.XName}, {Name: "points", Value: points}})
}
