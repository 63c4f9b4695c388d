package experiment

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/routelab/routelab/internal/sheet"
)

// Table is a result as a table of text, for writers of other formats
// (LaTeX, Markdown): what it shows, its column heads, its rows, which
// leading columns hold names (the rest hold numbers), and a note on how to
// read it.
type Table struct {
	Title string
	Head  []string
	Rows  [][]string
	// TextColumns counts the leading columns of names; TextLast says the
	// last column is text too (a verdict).
	TextColumns int
	TextLast    bool
	Note        string
}

// Table is the paired table as WriteText prints it.
func (p *Paired) Table() Table {
	head, rows := p.tableRows()
	return Table{Title: p.headline(), Head: head, Rows: rows, TextColumns: 2, TextLast: true, Note: pairedNote}
}

// Tables are the study's scores: the development weights with their
// standard errors, then the validated policies; the note holds the
// selection margin.
func (r *StudyResult) Tables() []Table {
	weights := Table{Title: fmt.Sprintf("study %s: development, selected c = %g", r.Config.Name, r.SelectedC),
		Head: []string{"c", "mean attainment", "std err (pp)", "runs"}, TextColumns: 1}
	for _, w := range r.Weights {
		weights.Rows = append(weights.Rows, []string{fmt.Sprintf("%g", w.C), sheet.Dash("%.4f%%", 100*w.MeanAttainment), sheet.Dash("%.4f", 100*w.StdErr), fmt.Sprint(w.Runs)})
	}
	if len(r.Weights) > 0 {
		weights.Note = r.marginText()
	}
	validation := Table{Title: fmt.Sprintf("study %s: validation", r.Config.Name),
		Head: []string{"policy", "mean attainment", "std err (pp)", "runs"}, TextColumns: 1,
		Note: "attainment is averaged per condition, then across conditions; standard errors are over seeds, each seed averaged over the conditions"}
	for _, v := range r.Validation {
		validation.Rows = append(validation.Rows, []string{v.Name, sheet.Dash("%.4f%%", 100*v.MeanAttainment), sheet.Dash("%.4f", 100*v.StdErr), fmt.Sprint(v.Runs)})
	}
	return []Table{weights, validation}
}

// String lays the table out as text: its title, aligned columns, its note.
func (t Table) String() string {
	var b strings.Builder
	b.WriteString(t.Title + "\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range append([][]string{t.Head}, t.Rows...) {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	if t.Note != "" {
		b.WriteString(t.Note + "\n")
	}
	return b.String()
}

// HTML shows the table as a sheet: its title, the rows, its note.
func (t Table) HTML() string {
	sh := sheet.Sheet{Title: t.Title, Note: t.Note}
	sh.AddGrid("rows", t.Head, len(t.Rows), func(i int) []string { return t.Rows[i] })
	return sh.HTML()
}
