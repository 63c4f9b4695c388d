package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/plot"
)

// Comparison is the result of Compare: per policy, every seed's run and the
// summary across seeds. It shows as a table; Chart and CDF draw it; Paired
// compares two of its policies seed by seed (paired.go).
type Comparison struct {
	*engine.Comparison
	env *Env
}

// Chart draws medians and p99 ranges, attainment, goodput and losses per policy.
func (c *Comparison) Chart() *Figure { return c.env.figure(plot.Comparison(c.Comparison)) }

// CDF draws each policy's latency distribution (log scale, SLO marked).
func (c *Comparison) CDF() *Figure { return c.env.figure(plot.LatencyCDF(c.Comparison)) }

// Report shows the summary table and every figure of the comparison.
func (c *Comparison) Report() *plot.ComparisonReport {
	r, err := plot.Report(c.Comparison)
	if err != nil {
		fail("Comparison.Report", err)
	}
	return r
}

// Summary returns a policy's summary across seeds.
func (c *Comparison) Summary(policy string) engine.Summary {
	p := c.Policy(policy)
	if p == nil {
		failf("Comparison.Summary", "no policy %q in this comparison (have %s)", policy, c.names())
	}
	return p.Summary
}

// Runs returns a policy's per-seed runs.
func (c *Comparison) Runs(policy string) []*engine.RunResult {
	p := c.Policy(policy)
	if p == nil {
		failf("Comparison.Runs", "no policy %q in this comparison (have %s)", policy, c.names())
	}
	return p.Runs
}

func (c *Comparison) names() string { return strings.Join(policyNames(c.Comparison), ", ") }

// Save writes the comparison: .json (everything), .csv (per-seed runs) or
// .html (a standalone report with the table and every figure).
func (c *Comparison) Save(path string) {
	var b bytes.Buffer
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		err = c.WriteJSON(&b)
	case ".csv":
		err = engine.WriteCSV(&b, c.RunRecords())
	case ".html":
		var r *plot.ComparisonReport
		if r, err = plot.Report(c.Comparison); err == nil {
			var page []byte
			page, err = r.Render()
			b.Write(page)
		}
	default:
		failf("Comparison.Save", "%s: unknown extension (want .json, .csv or .html)", path)
	}
	if err == nil {
		err = os.WriteFile(path, b.Bytes(), 0o644)
	}
	if err != nil {
		fail("Comparison.Save", err)
	}
}

// RunResult is one seeded run with its timeline.
type RunResult struct {
	*engine.RunResult
	env *Env
}

// Timeline draws the run's queues, rolling p99, throughput and assignment
// shares over time, with the scenario's events marked.
func (r *RunResult) Timeline() *Figure { return r.env.figure(plot.Timeline(r.RunResult)) }

// SweepResult is a comparison at each point of a rate sweep.
type SweepResult struct {
	*engine.SweepResult
	env *Env
}

// Chart draws p99 and attainment against the arrival rate per policy.
func (s *SweepResult) Chart() *Figure { return s.env.figure(plot.RateSweep(s.SweepResult)) }

// StudyResult is the exploration-weight study.
type StudyResult struct {
	*engine.StudyResult
	env *Env
}

// Chart draws the development attainment of each weight in each condition.
func (s *StudyResult) Chart() *Figure { return s.env.figure(plot.StudyHeatmap(s.StudyResult)) }

// Figure is a chart ready to show in a cell (interactive HTML that works
// offline) or to save for a write-up.
type Figure struct {
	f   *plot.Figure
	env *Env
}

func (e *Env) figure(f *plot.Figure, err error) *Figure {
	if err != nil {
		fail("figure", err)
	}
	if e.SVG != nil {
		f = f.WithSVGRenderer(e.SVG)
	}
	return &Figure{f: f, env: e}
}

// Light returns the figure without the ECharts library inside (about 11 KB
// instead of 450 KB), for notebooks where an earlier figure already brought
// it; on its own it waits briefly, then says how to fix the page.
func (f *Figure) Light() *Figure { return &Figure{f: f.f.Light(), env: f.env} }

// Plot returns the underlying plot figure.
func (f *Figure) Plot() *plot.Figure { return f.f }

// Static shows the figure as a static SVG image (rendered by ECharts in
// process), for viewers that run no JavaScript.
func (f *Figure) Static() display.Bundle {
	svg, err := f.f.SVGContext(f.env.ctx())
	if err != nil {
		fail("Figure.Static", err)
	}
	return display.Bundle{display.TextPlain: f.f.String(), display.SVG: svg}
}

// Save writes the figure as .svg, .png (through headless Chromium) or .html
// (a standalone page).
func (f *Figure) Save(path string) {
	var data []byte
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		var s string
		s, err = f.f.SVGContext(f.env.ctx())
		data = []byte(s)
	case ".png":
		data, err = f.f.PNGContext(f.env.ctx())
	case ".html":
		data, err = plot.NewPage(f.f.Title(), f.f).Render()
	default:
		failf("Figure.Save", "%s: unknown extension (want .svg, .png or .html)", path)
	}
	if err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		fail("Figure.Save", err)
	}
}
