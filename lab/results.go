package lab

import (
	"bytes"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/plot"
)

// Comparison is the result of Compare: per policy, every seed's run and the
// summary across seeds. It shows as a table; Chart and CDF draw it; Paired
// compares two of its policies seed by seed (paired.go).
type Comparison struct {
	*experiment.Comparison
	env *Env
}

// Chart draws medians and p99 ranges, attainment, goodput and losses per policy.
func (c *Comparison) Chart() *Figure {
	return c.env.figure(func(x export) (*plot.Figure, error) { return plot.Comparison(c.Comparison, x.options()...) })
}

// CDF draws each policy's latency distribution (log scale, SLO marked).
func (c *Comparison) CDF() *Figure {
	return c.env.figure(func(x export) (*plot.Figure, error) { return plot.LatencyCDF(c.Comparison, x.options()...) })
}

// Table returns the summary table as "html", "latex" (booktabs) or
// "markdown", for a write-up.
func (c *Comparison) Table(format string) string {
	t, err := plot.ComparisonTableAs(c.Comparison, format)
	if err != nil {
		fail("Comparison.Table", err)
	}
	return t
}

// Report shows the summary table and every figure of the comparison.
func (c *Comparison) Report() *plot.ComparisonReport {
	r, err := plot.Report(c.Comparison)
	if err != nil {
		fail("Comparison.Report", err)
	}
	return r
}

// Summary returns a policy's summary across seeds.
func (c *Comparison) Summary(policy string) experiment.Summary {
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

// Save writes the comparison: .json (everything), .csv (per-seed runs),
// .html (a standalone report with the table and every figure), or the
// summary table as .tex (LaTeX, booktabs) or .md (Markdown). A file is
// written whole or not at all.
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
	case ".tex":
		b.WriteString(c.Table(plot.TableLaTeX))
	case ".md":
		b.WriteString(c.Table(plot.TableMarkdown))
	default:
		failf("Comparison.Save", "%s: unknown extension (want .json, .csv, .html, .tex or .md)", path)
	}
	if err == nil {
		err = plot.WriteFile(path, b.Bytes())
	}
	if err != nil {
		fail("Comparison.Save", err)
	}
}

// RunResult is one seeded run with its timeline.
type RunResult struct {
	*engine.RunResult
	env      *Env
	protocol engine.Protocol
}

// Timeline draws the run's queues, rolling p99, throughput and assignment
// shares over time, with the warm-up, the measurement window and the
// scenario's events marked.
func (r *RunResult) Timeline() *Figure {
	return r.env.figure(func(x export) (*plot.Figure, error) {
		return plot.Timeline(r.RunResult, append(x.options(), plot.WithProtocol(r.protocol))...)
	})
}

// Save writes the run: .json (its record, every replica's share, the
// events and the timeline's samples) or .csv (its record as one row, as a
// comparison's .csv has a row per run). SaveTimeline writes the samples
// alone. A file is written whole or not at all.
func (r *RunResult) Save(path string) {
	if r.RunResult == nil {
		failf("RunResult.Save", "empty run (lab.Run makes one)")
	}
	saveAs("RunResult.Save", path, map[string]func(io.Writer) error{".json": r.WriteJSON, ".csv": r.WriteCSV})
}

// SaveTimeline writes the run's timeline: .csv (a row per sample and
// replica: time, queue, running requests, assignments, health, the rolling
// p99 and throughput, and the serving model's KV use, preemptions and
// cache tokens) or .json (the same records with the sampling interval and
// the events).
func (r *RunResult) SaveTimeline(path string) {
	if r.RunResult == nil || r.RunResult.Timeline == nil {
		failf("RunResult.SaveTimeline", "no timeline (lab.Run keeps one)")
	}
	tl := r.RunResult.Timeline
	saveAs("RunResult.SaveTimeline", path, map[string]func(io.Writer) error{".json": tl.WriteJSON, ".csv": tl.WriteCSV})
}

// saveAs writes path in the format its extension names, refusing any other
// extension with those it has.
func saveAs(op, path string, formats map[string]func(io.Writer) error) {
	write, ok := formats[strings.ToLower(filepath.Ext(path))]
	if !ok {
		exts := slices.Sorted(maps.Keys(formats))
		failf(op, "%s: unknown extension (want %s)", path, strings.Join(exts, " or "))
	}
	var b bytes.Buffer
	err := write(&b)
	if err == nil {
		err = plot.WriteFile(path, b.Bytes())
	}
	if err != nil {
		fail(op, err)
	}
}

// SweepResult is a comparison at each point of a rate sweep.
type SweepResult struct {
	*experiment.SweepResult
	env *Env
}

// Save writes the sweep: .json (every point's comparison, summaries and
// runs) or .csv (a row per run, with the rate of its point).
func (s *SweepResult) Save(path string) {
	if s.SweepResult == nil {
		failf("SweepResult.Save", "empty sweep (lab.Sweep makes one)")
	}
	saveAs("SweepResult.Save", path, map[string]func(io.Writer) error{".json": s.WriteJSON, ".csv": s.WriteCSV})
}

// Chart draws p99 and attainment against the arrival rate per policy,
// with the cluster's capacity marked.
func (s *SweepResult) Chart() *Figure {
	return s.env.figure(func(x export) (*plot.Figure, error) { return plot.RateSweep(s.SweepResult, x.options()...) })
}

// StudyResult is the exploration-weight study.
type StudyResult struct {
	*experiment.StudyResult
	env *Env
}

// Chart draws the development attainment of each weight in each condition.
func (s *StudyResult) Chart() *Figure {
	return s.env.figure(func(x export) (*plot.Figure, error) { return plot.StudyHeatmap(s.StudyResult, x.options()...) })
}

// Table returns the study's scores — each weight's development attainment
// with its standard error and the selection margin, then the validation —
// as "latex" (booktabs) or "markdown", for a write-up.
func (s *StudyResult) Table(format string) string {
	t, err := plot.StudyTableAs(s.StudyResult, format)
	if err != nil {
		fail("StudyResult.Table", err)
	}
	return t
}

// Figure is a chart ready to show in a cell (interactive HTML that works
// offline, with a static SVG for viewers that run no script) or to save for
// a write-up.
type Figure struct {
	f     *plot.Figure
	env   *Env
	build func(x export) (*plot.Figure, error) // the figure for an export (zero: its own)
	paper bool
	lib   carry // whether its notebook output carries the chart library
}

// carry says whether a figure's notebook output carries the chart library:
// as the page needs (the first figure of a session does, later ones do
// not), or always (Full), or never (Light).
type carry int8

const (
	carryAsNeeded carry = iota
	carryAlways
	carryNever
)

// export is what a figure is laid out for: a width in px (0: its own) and,
// for a paper figure, the width in inches.
type export struct {
	width int
	paper float64
}

// options are the plot options that lay a figure out for x.
func (x export) options() []plot.Option {
	switch {
	case x.paper > 0:
		return []plot.Option{plot.WithPaper(x.paper)}
	case x.width > 0:
		return []plot.Option{plot.WithWidth(x.width)}
	}
	return nil
}

// OneColumn and TwoColumn are the widths of paper figures in inches
// (Figure.Paper).
const (
	OneColumn = plot.OneColumn
	TwoColumn = plot.TwoColumn
)

// figure builds a figure at its own width, failing with the builder's error.
func (e *Env) figure(build func(x export) (*plot.Figure, error)) *Figure {
	fig := &Figure{env: e, build: build}
	fig.f = fig.at(export{}, "figure")
	return fig
}

// at builds the figure for an export, with the session's renderer.
func (f *Figure) at(x export, op string) *plot.Figure {
	pf, err := f.build(x)
	if err != nil {
		fail(op, err)
	}
	if f.env.SVG != nil {
		pf = pf.WithSVGRenderer(f.env.SVG)
	}
	return pf
}

// Light returns the figure without the ECharts library inside (a few
// percent of its size), for notebooks where an earlier figure already
// brought it; on its own it shows its static image and says how to redraw
// it. In a session, figures after the first are light without asking.
func (f *Figure) Light() *Figure {
	return &Figure{f: f.f.Light(), env: f.env, build: f.build, paper: f.paper, lib: carryNever}
}

// Full returns the figure with the ECharts library inside its notebook
// output whatever came before: to redraw a light figure whose page lost
// the library (the output that carried it was cleared or replaced).
func (f *Figure) Full() *Figure {
	return &Figure{f: f.f.Full(), env: f.env, build: f.build, paper: f.paper, lib: carryAlways}
}

// Paper lays the figure out again for a page inches wide — lab.OneColumn
// (3.3 in) or lab.TwoColumn (7 in) — at 96 px to the inch, so that it prints at its
// size with no text under 7 pt: at most 2.6 in tall up to 3.5 in wide
// (a comparison then shows its p99 and attainment panels), else at most
// 3 in. The title block is not drawn: it is the Caption, and Save writes
// it beside the figure as a .tex file. Save it as .pdf or .svg for the paper.
func (f *Figure) Paper(inches float64) *Figure {
	w := int(inches*96 + 0.5)
	check("Figure.Paper", finite(inches) && w >= 300 && w <= 8192, "inches", inches, "a width from 3.2 to 85 inches, such as lab.OneColumn or lab.TwoColumn")
	return &Figure{f: f.at(export{width: w, paper: inches}, "Figure.Paper"), env: f.env, build: f.build, paper: true, lib: f.lib}
}

// Caption is the figure's title block as one paragraph: for a paper
// figure, the caption to print under it.
func (f *Figure) Caption() string { return f.f.Caption() }

// Scale sets the PNG export's pixels per CSS pixel (2 unless set; 3 or 4
// for print at 300 dpi and more).
func (f *Figure) Scale(scale float64) *Figure {
	pf, err := f.f.WithScale(scale)
	if err != nil {
		fail("Figure.Scale", err)
	}
	return &Figure{f: pf, env: f.env, build: f.build, paper: f.paper, lib: f.lib}
}

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

// Save writes the figure as .svg, .pdf (vector, through headless
// Chromium), .png (through headless Chromium, at Scale) or .html (a
// standalone page). A paper figure (Paper) also writes its caption beside
// it, fig.pdf's as fig.tex holding \caption{…}. A file is written whole or
// not at all: an unwritable path is an error naming it, and leaves nothing
// behind.
func (f *Figure) Save(path string) {
	var data []byte
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		var s string
		s, err = f.f.SVGContext(f.env.ctx())
		data = []byte(s)
	case ".pdf":
		data, err = f.f.PDFContext(f.env.ctx())
	case ".png":
		data, err = f.f.PNGContext(f.env.ctx())
	case ".html":
		data, err = plot.NewPage(f.f.Title(), f.f).Render()
	default:
		failf("Figure.Save", "%s: unknown extension (want .svg, .pdf, .png or .html)", path)
	}
	if err == nil {
		err = plot.WriteFile(path, data)
	}
	if err == nil && f.paper {
		err = plot.WriteFile(strings.TrimSuffix(path, filepath.Ext(path))+".tex", []byte(f.f.CaptionLaTeX()))
	}
	if err != nil {
		fail("Figure.Save", err)
	}
}
