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
		sw.Seeds = DefaultSeeds(10)
	}
	if err := sw.validate(); err != nil {
		return nil, err
	}
	var specs []RunSpec
	for _, pt := range sw.Points {
		for _, p := range sw.Policies {
			for _, seed := range sw.Seeds {
				specs = append(specs, RunSpec{Scenario: pt.Scenario, Policy: p, Seed: seed, Protocol: sw.Protocol})
			}
		}
	}
	runs, err := runJobs(ctx, specs, sw.Workers, sw.Progress)
	if err != nil {
		return nil, err
	}
	if sw.XName == "" {
		sw.XName = "x"
	}
	res := &SweepResult{XLabel: sw.XLabel, XName: sw.XName, Points: sw.Points}
	per := len(sw.Policies) * len(sw.Seeds)
	for i, pt := range sw.Points {
		c, err := assemble(pt.Scenario, sw.Protocol, sw.Seeds, sw.Policies, runs[i*per:(i+1)*per])
		if err != nil {
			return nil, err
		}
		res.Comparisons = append(res.Comparisons, c)
	}
	return res, nil
}

func (sw *Sweep) validate() error {
	if len(sw.Points) == 0 {
		return fieldErr("points", "none", "at least one scenario")
	}
	if err := sw.Protocol.Validate(); err != nil {
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

// RunRecords flattens every run of the sweep, with the point's x value first.
func (s *SweepResult) RunRecords() [][]Field {
	var out [][]Field
	for i, c := range s.Comparisons {
		for _, rec := range c.RunRecords() {
			out = append(out, append([]Field{{s.XName, s.Points[i].X}}, rec...))
		}
	}
	return out
}

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

// WriteJSON writes the axis and, per point, its x value and comparison
// summaries and runs.
func (s *SweepResult) WriteJSON(w io.Writer) error {
	points := make([]jsonObject, len(s.Comparisons))
	for i, c := range s.Comparisons {
		points[i] = jsonObject{
			{"label", s.Points[i].Label}, {s.XName, s.Points[i].X}, {"scenario", c.Scenario},
			{"policies", records(c.SummaryRecords())}, {"runs", records(c.RunRecords())},
		}
	}
	return writeIndented(w, jsonObject{{"x_label", s.XLabel}, {"x_name", s.XName}, {"points", points}})
}
