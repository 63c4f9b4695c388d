package engine

import (
	"context"
	"fmt"
	"io"
)

// SweepPoint is one scenario of a parameter grid, placed at X on the sweep's
// axis.
type SweepPoint struct {
	Label    string
	X        float64
	Scenario Scenario
}

// Sweep compares policies at every point of a grid, all runs in one parallel
// pool.
type Sweep struct {
	XLabel   string // the axis for people, e.g. "arrival rate (req/s)"
	XName    string // the axis for files, snake_case, e.g. "rate_rps" (default "x")
	Points   []SweepPoint
	Policies []PolicySpec
	Seeds    []uint64 // default 1..10
	Protocol Protocol // default DefaultProtocol() when zero
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
func RateSweep(base Scenario, rates ...float64) []SweepPoint {
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
	if sw.Protocol == (Protocol{}) {
		sw.Protocol = DefaultProtocol()
	}
	if sw.Seeds == nil {
		sw.Seeds = DefaultSeeds(DefaultSeedCount)
	}
	if err := sw.validate(); err != nil {
		return nil, err
	}
	if sw.XName == "" {
		sw.XName = "x"
	}
	res := &SweepResult{XLabel: sw.XLabel, XName: sw.XName, Points: sw.Points}
	scenarios := make([]Scenario, len(sw.Points))
	for i, pt := range sw.Points {
		scenarios[i] = pt.Scenario
		res.Comparisons = append(res.Comparisons, newComparison(pt.Scenario, sw.Protocol, sw.Seeds, sw.Policies, sw.Keep))
	}
	if err := runJobs(ctx, sw.jobs(res, tokenTablesFor(scenarios)), sw.Workers, sw.Progress); err != nil {
		return nil, err
	}
	for _, c := range res.Comparisons {
		if err := c.finish(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// jobs are the sweep's runs, point by point, policy by policy, seed by
// seed; each is kept in its point's comparison.
func (sw *Sweep) jobs(res *SweepResult, tables []*tokenTables) jobs {
	nSeeds := len(sw.Seeds)
	perPoint := len(sw.Policies) * nSeeds
	at := func(i int) (point, policy, seed int) {
		return i / perPoint, i % perPoint / nSeeds, i % nSeeds
	}
	return jobs{
		n: len(sw.Points) * perPoint,
		spec: func(i int) RunSpec {
			pt, pi, si := at(i)
			return RunSpec{
				Scenario: sw.Points[pt].Scenario, Policy: sw.Policies[pi], Seed: sw.Seeds[si], Protocol: sw.Protocol,
				SummaryOnly: sw.Keep == KeepSummaries, tables: tables[pt],
			}
		},
		keep: func(i int, r *RunResult) {
			pt, pi, si := at(i)
			res.Comparisons[pt].keep(pi, si, r)
		},
	}
}

func (sw *Sweep) validate() error {
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
func (s *SweepResult) runRecords() recordSeq {
	return func(yield func([]Field) error) error {
		for i, c := range s.Comparisons {
			x := Field{s.XName, s.Points[i].X}
			err := c.runRecords()(func(rec []Field) error { return yield(append([]Field{x}, rec...)) })
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// RunRecords flattens every run of the sweep, with the point's x value first.
func (s *SweepResult) RunRecords() [][]Field { return s.runRecords().collect() }

// SummaryRecords flattens every point's per-policy summaries.
func (s *SweepResult) SummaryRecords() [][]Field {
	var out [][]Field
	for i, c := range s.Comparisons {
		for _, rec := range c.SummaryRecords() {
			out = append(out, append([]Field{{s.XName, s.Points[i].X}}, rec...))
		}
	}
	return out
}

// WriteCSV writes one CSV row per run, the point's x value first, written as
// it is formatted.
func (s *SweepResult) WriteCSV(w io.Writer) error { return writeCSVRows(w, s.runRecords()) }

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
	points := make([]jsonObject, len(s.Comparisons))
	for i, c := range s.Comparisons {
		points[i] = jsonObject{
			{"label", s.Points[i].Label}, {s.XName, s.Points[i].X}, {"scenario", c.Scenario},
			{"policies", records(c.SummaryRecords())}, {"runs", c.runRecords()},
		}
		if p != nil {
			points[i] = insertBefore(points[i], "runs", Field{"paired", records(p.Points[i].Records())})
		}
	}
	return writeIndented(w, jsonObject{{"x_label", s.XLabel}, {"x_name", s.XName}, {"points", points}})
}
