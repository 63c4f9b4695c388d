package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/plot"
	"github.com/spf13/cobra"
)

// result is the one writer interface of the commands' results: a
// comparison, a sweep or a study, with the paired statistics --baseline
// asked for inside each form that carries them. compare, sweep, study and
// merge all write through emit, so an output flag means the same for each.
type result interface {
	WriteText(w io.Writer) error
	WriteJSON(w io.Writer) error
	// WriteCSV writes every run; WriteSummaryCSV each policy's summary;
	// WritePairedCSV the paired statistics.
	WriteCSV(w io.Writer) error
	WriteSummaryCSV(w io.Writer) error
	WritePairedCSV(w io.Writer) error
	// Table is the summary table as plot.TableLaTeX or plot.TableMarkdown,
	// followed by the paired table.
	Table(format string) (string, error)
	// Figure is the result's figure, and Page the standalone HTML report
	// around it.
	Figure() (*plot.Figure, error)
	Page(fig *plot.Figure) ([]byte, error)
}

// outputFlags are what a command's output flags asked for.
type outputFlags struct {
	json, csv, csvSummary, csvPaired bool
	// table is --table's path; textTable lets another extension than .tex
	// and .md write the text table (merge's).
	table     string
	textTable bool
	// out writes standard output's form to this file instead (merge's --out).
	out     string
	figures *figureFiles
}

// emit writes r as the flags ask: one form to standard output (or --out),
// the table to --table and the figure files. The table is made first, so a
// refused --table writes nothing.
func emit(ctx context.Context, cmd *cobra.Command, f outputFlags, r result) error {
	var table []byte
	if f.table != "" {
		t, err := f.tableText(r)
		if err != nil {
			return err
		}
		table = []byte(t)
	}
	write := func(w io.Writer) error { return f.write(w, r) }
	if f.out == "" {
		if err := write(cmd.OutOrStdout()); err != nil {
			return err
		}
	} else if err := writeStreamed(cmd.ErrOrStderr(), f.out, write); err != nil {
		return err
	}
	if f.table != "" {
		if err := writeFile(cmd.ErrOrStderr(), f.table, table); err != nil {
			return err
		}
	}
	if f.figures == nil {
		return nil
	}
	return f.figures.export(ctx, cmd.ErrOrStderr(), r.Figure, r.Page)
}

// write writes the one form of r the flags chose, the text by default.
func (f outputFlags) write(w io.Writer, r result) error {
	switch {
	case f.json:
		return r.WriteJSON(w)
	case f.csv:
		return r.WriteCSV(w)
	case f.csvSummary:
		return r.WriteSummaryCSV(w)
	case f.csvPaired:
		return r.WritePairedCSV(w)
	}
	return r.WriteText(w)
}

// tableText is what --table writes: LaTeX for .tex, Markdown for .md, and,
// where the command allows it, the text table for any other name.
func (f outputFlags) tableText(r result) (string, error) {
	format, err := tableFormat(f.table)
	if err != nil {
		if !f.textTable {
			return "", err
		}
		var b strings.Builder
		err := r.WriteText(&b)
		return b.String(), err
	}
	t, err := r.Table(format)
	if err != nil {
		return "", fmt.Errorf("--table %s: %w", f.table, err)
	}
	return t, nil
}

// tableFormat is the format --table's extension asks for.
func tableFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tex":
		return plot.TableLaTeX, nil
	case ".md":
		return plot.TableMarkdown, nil
	}
	return "", fmt.Errorf("--table %s: unknown extension (want .tex for LaTeX or .md for Markdown)", path)
}

// withPairedTable appends the paired table of p (none when nil) to table.
func withPairedTable(table, format string, p *experiment.Paired) (string, error) {
	if p == nil {
		return table, nil
	}
	t, err := plot.PairedTableAs(p, format)
	return table + "\n" + t, err
}

// comparisonResult is a comparison with its paired statistics (p nil
// without --baseline).
type comparisonResult struct {
	res *experiment.Comparison
	p   *experiment.Paired
}

func (c comparisonResult) WriteText(w io.Writer) error {
	if err := c.res.WriteText(w); err != nil || c.p == nil {
		return err
	}
	fmt.Fprintln(w)
	return c.p.WriteText(w)
}

func (c comparisonResult) WriteJSON(w io.Writer) error {
	if c.p != nil {
		return c.res.WriteJSONPaired(w, c.p)
	}
	return c.res.WriteJSON(w)
}

func (c comparisonResult) WriteCSV(w io.Writer) error { return c.res.WriteCSV(w) }
func (c comparisonResult) WriteSummaryCSV(w io.Writer) error {
	return engine.WriteCSV(w, c.res.SummaryRecords())
}
func (c comparisonResult) WritePairedCSV(w io.Writer) error { return c.p.WriteCSV(w) }

func (c comparisonResult) Table(format string) (string, error) {
	t, err := plot.ComparisonTableAs(c.res, format)
	if err != nil {
		return "", err
	}
	return withPairedTable(t, format, c.p)
}

func (c comparisonResult) Figure() (*plot.Figure, error) { return plot.Comparison(c.res) }

func (c comparisonResult) Page(*plot.Figure) ([]byte, error) {
	r, err := plot.Report(c.res)
	if err != nil {
		return nil, err
	}
	return r.Render()
}

// sweepResult is a sweep with each point's paired statistics (p nil
// without --baseline).
type sweepResult struct {
	res *experiment.SweepResult
	p   *experiment.SweepPaired
}

// WriteText writes each point's comparison, each followed by its paired
// statistics.
func (s sweepResult) WriteText(w io.Writer) error {
	for i, cmp := range s.res.Comparisons {
		if err := cmp.WriteText(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
		if s.p != nil {
			if err := s.p.Points[i].WriteText(w); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

func (s sweepResult) WriteJSON(w io.Writer) error {
	if s.p != nil {
		return s.res.WriteJSONPaired(w, s.p)
	}
	return s.res.WriteJSON(w)
}

func (s sweepResult) WriteCSV(w io.Writer) error { return s.res.WriteCSV(w) }
func (s sweepResult) WriteSummaryCSV(w io.Writer) error {
	return engine.WriteCSV(w, s.res.SummaryRecords())
}
func (s sweepResult) WritePairedCSV(w io.Writer) error { return s.p.WriteCSV(w) }

func (s sweepResult) Table(string) (string, error) {
	return "", errors.New("a sweep has no LaTeX or Markdown table (want a .txt file for its text table)")
}

func (s sweepResult) Figure() (*plot.Figure, error)         { return plot.RateSweep(s.res) }
func (s sweepResult) Page(fig *plot.Figure) ([]byte, error) { return singlePage(fig) }

// studyResult is a study with its validation's paired statistics (p nil
// without --baseline).
type studyResult struct {
	res *experiment.StudyResult
	p   *experiment.Paired
}

// WriteText writes the scores; with --baseline, then their standard errors
// and the paired statistics.
func (s studyResult) WriteText(w io.Writer) error {
	if err := s.res.WriteText(w); err != nil || s.p == nil {
		return err
	}
	fmt.Fprintln(w)
	if err := s.res.WriteUncertainty(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return s.p.WriteText(w)
}

func (s studyResult) WriteJSON(w io.Writer) error {
	if s.p != nil {
		return s.res.WriteJSONPaired(w, s.p)
	}
	return s.res.WriteJSON(w)
}

func (s studyResult) WriteCSV(w io.Writer) error { return s.res.WriteCSV(w) }

func (s studyResult) WriteSummaryCSV(io.Writer) error {
	return errors.New("--csv-summary: a study has no per-policy summary CSV (want --json or --csv)")
}

func (s studyResult) WritePairedCSV(io.Writer) error {
	return errors.New("--csv-paired: a study writes its paired statistics in the text table or --json")
}

func (s studyResult) Table(format string) (string, error) {
	t, err := plot.StudyTableAs(s.res, format)
	if err != nil {
		return "", err
	}
	return withPairedTable(t, format, s.p)
}

func (s studyResult) Figure() (*plot.Figure, error)         { return plot.StudyHeatmap(s.res) }
func (s studyResult) Page(fig *plot.Figure) ([]byte, error) { return singlePage(fig) }
