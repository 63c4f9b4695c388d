package plot

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/routelab/routelab/experiment"
)

// Table formats of ComparisonTableAs.
const (
	TableHTML     = "html"
	TableLaTeX    = "latex"
	TableMarkdown = "markdown"
)

// ComparisonTableAs returns a comparison's summary table — the columns of
// ComparisonTable: medians across seeds and the observed p99 range, the best
// of each column in bold, an em dash for an undefined value — as "html",
// "latex" (a booktabs table environment; \usepackage{booktabs}) or
// "markdown" (a pipe table with its caption). Names are escaped for the
// format.
func ComparisonTableAs(c *experiment.Comparison, format string) (string, error) {
	if err := checkSummaries(c); err != nil {
		return "", err
	}
	switch format {
	case TableHTML:
		return ComparisonTable(c), nil
	case TableLaTeX:
		return latexTable(c), nil
	case TableMarkdown:
		return markdownTable(c), nil
	}
	return "", fmt.Errorf("plot: table format %q is not one of %s, %s, %s", format, TableHTML, TableLaTeX, TableMarkdown)
}

// textCell is one cell of a text table: its text and whether it is the best
// of its column.
type textCell struct {
	text  string
	best  bool
	mark  bool
	group bool // the heading of the rows under it, across the table // a verdict, written as its mark (LaTeX)
}

// groupRow is a row that heads a group of rows: one cell across the table.
func groupRow(name string) []textCell { return []textCell{{text: name, group: true}} }

// tableRows are the header (names, units) and the rows of a comparison's
// table, formatted as in ComparisonTable.
func tableRows(c *experiment.Comparison) (heads, units []string, rows [][]textCell) {
	cols := tableColumns(c)
	heads, units = []string{"policy", "runs"}, []string{"", ""}
	for _, col := range cols {
		heads, units = append(heads, col.Head), append(units, col.Unit)
	}
	best := bestValues(c, cols)
	for _, p := range c.Policies {
		s := p.Summary
		runs := fmt.Sprint(s.Runs)
		if s.LatencyRuns < s.Runs {
			runs = fmt.Sprintf("%d (%d with latency)", s.Runs, s.LatencyRuns)
		}
		row := []textCell{{text: p.Name}, {text: runs}}
		for i, col := range cols {
			row = append(row, textCell{text: col.Cell(s), best: isBest(c, col, s, best[i])})
		}
		rows = append(rows, row)
	}
	return heads, units, rows
}

// tableNote is the table's caption after the setup line; it explains the
// dash only when a cell has one.
func tableNote(c *experiment.Comparison, rows [][]textCell) string {
	note := fmt.Sprintf("Medians across %d seeds; bold: best in its column. The p99 range is the observed min–max across seeds, not a confidence interval.", len(c.Seeds))
	for _, r := range rows {
		for _, cell := range r {
			if strings.Contains(cell.text, "—") {
				return note + " — : undefined (no completed cohort request)."
			}
		}
	}
	return note
}

// textTable is a table for LaTeX and Markdown: a title (the Markdown
// headline, the LaTeX caption's start), heads with units under them, rows,
// each column's alignment ('l' or 'r'), and a note after it.
type textTable struct {
	name, setup  string
	label        string
	heads, units []string
	rows         [][]textCell
	align        []byte
	note         string
	compact      bool // smaller type and column gaps, to fit one column
}

// comparisonTable is the comparison's summary table: names left, numbers
// right.
func comparisonTable(c *experiment.Comparison) textTable {
	heads, units, rows := tableRows(c)
	align := []byte("l" + strings.Repeat("r", len(heads)-1))
	return textTable{name: c.Scenario.Name, setup: setupLine(c), label: labelKey(c.Scenario.Name) + "-summary",
		heads: heads, units: units, rows: rows, align: align, note: tableNote(c, rows)}
}

// engineTable is one of the engine's text tables (paired statistics, a
// study's scores).
func engineTable(t experiment.Table, label string) textTable {
	out := textTable{name: t.Title, label: label, heads: t.Head, units: make([]string, len(t.Head)), note: t.Note}
	for i := range t.Head {
		a := byte('r')
		if i < t.TextColumns || (t.TextLast && i == len(t.Head)-1) {
			a = 'l'
		}
		out.align = append(out.align, a)
	}
	for _, r := range t.Rows {
		row := make([]textCell, len(r))
		for i, v := range r {
			row[i] = textCell{text: v}
		}
		out.rows = append(out.rows, row)
	}
	return out
}

func latexTable(c *experiment.Comparison) string { return comparisonTable(c).latex() }

func markdownTable(c *experiment.Comparison) string { return comparisonTable(c).markdown() }

// latex is the table as a LaTeX table environment with booktabs rules.
func (t textTable) latex() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%% routelab: %s (needs \\usepackage{booktabs})\n", latexEscape(t.name))
	b.WriteString("\\begin{table}[t]\n\\centering\n")
	if t.compact {
		b.WriteString("\\footnotesize\n\\setlength{\\tabcolsep}{4pt}\n")
	} else {
		b.WriteString("\\small\n")
	}
	fmt.Fprintf(&b, "\\begin{tabular}{%s}\n\\toprule\n", t.align)
	b.WriteString(latexRow(t.heads))
	if strings.Join(t.units, "") != "" {
		b.WriteString(latexRow(t.units))
	}
	b.WriteString("\\midrule\n")
	for r, row := range t.rows {
		if len(row) == 1 && row[0].group {
			if r > 0 {
				b.WriteString("\\addlinespace\n")
			}
			fmt.Fprintf(&b, "\\multicolumn{%d}{l}{\\textit{%s}} \\\\\n", len(t.align), latexEscape(row[0].text))
			continue
		}
		cells := make([]string, len(row))
		for i, cell := range row {
			cells[i] = latexEscape(cell.text)
			if cell.best {
				cells[i] = "\\textbf{" + cells[i] + "}"
			}
			if cell.mark {
				cells[i] = verdictMark(cell.text)
			}
		}
		b.WriteString(strings.Join(cells, " & ") + " \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	caption := latexEscape(t.name)
	if t.setup != "" {
		caption += ": " + latexEscape(t.setup)
	}
	fmt.Fprintf(&b, "\\caption{%s. %s}\n", caption, latexNote(t))
	fmt.Fprintf(&b, "\\label{tab:%s}\n\\end{table}\n", t.label)
	return b.String()
}

// verdictMark is a verdict's mark.
func verdictMark(verdict string) string {
	for _, m := range verdictMarks {
		if m.verdict == verdict {
			return m.mark
		}
	}
	return latexEscape(verdict)
}

// latexNote is the caption's note, escaped but for the marks it explains.
func latexNote(t textTable) string {
	parts := strings.Split(t.note, "; ")
	for i, p := range parts {
		mark, rest, ok := strings.Cut(p, ": ")
		if !ok || !isMark(mark) {
			parts[i] = latexEscape(p)
			continue
		}
		parts[i] = mark + ": " + latexEscape(rest)
	}
	return strings.Join(parts, "; ")
}

func isMark(s string) bool {
	for _, m := range verdictMarks {
		if m.mark == s {
			return true
		}
	}
	return false
}

func latexRow(cells []string) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = latexEscape(c)
	}
	return strings.Join(out, " & ") + " \\\\\n"
}

// latexEscaper writes text LaTeX typesets as written: its special
// characters escaped, and the typographic characters routelab's text uses
// spelled in LaTeX, so the table needs no package for them.
var latexEscaper = strings.NewReplacer(
	`\`, `\textbackslash{}`, `&`, `\&`, `%`, `\%`, `$`, `\$`, `#`, `\#`, `_`, `\_`,
	`{`, `\{`, `}`, `\}`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `|`, `\textbar{}`,
	"—", "---", "–", "--", "−", "$-$", "·", "$\\cdot$", "×", "$\\times$", "≥", "$\\geq$", "≤", "$\\leq$", "Δ", "$\\Delta$",
	"÷", "$\\div$", "±", "$\\pm$", "≈", "$\\approx$", "→", "$\\to$", "…", "\\ldots{}", "σ", "$\\sigma$",
	"μ", "$\\mu$", "µ", "$\\mu$", "√", "$\\surd$", "³", "$^3$", "²", "$^2$", "̄", "", "’", "'", "‘", "`", "“", "``", "”", "''",
)

// latexEscape escapes s for LaTeX; a character neither ASCII nor spelled
// above is written as its code point, [U+00E9], so no raw non-ASCII byte
// reaches LaTeX and none is dropped unseen.
func latexEscape(s string) string {
	s = latexEscaper.Replace(s)
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "[U+%04X]", r)
		}
	}
	return b.String()
}

var nonLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// labelKey is a \label key made from a name: lower case, runs of other
// characters as one '-'.
func labelKey(name string) string {
	k := strings.Trim(nonLabel().ReplaceAllString(strings.ToLower(name), "-"), "-")
	if k == "" {
		return "comparison"
	}
	return k
}

// markdown is the table as a Markdown pipe table under a caption line.
func (t textTable) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", markdownEscape(t.name))
	if t.setup != "" {
		fmt.Fprintf(&b, " — %s", markdownEscape(t.setup))
	}
	b.WriteString("\n\n")
	head := make([]string, len(t.heads))
	align := make([]string, len(t.heads))
	for i := range t.heads {
		head[i] = strings.TrimSpace(markdownEscape(t.heads[i]) + " " + markdownEscape(t.units[i]))
		align[i] = "--:"
		if t.align[i] == 'l' {
			align[i] = ":--"
		}
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Join(align, "|") + "|\n")
	for _, row := range t.rows {
		cells := make([]string, len(row))
		for i, cell := range row {
			cells[i] = markdownEscape(cell.text)
			if cell.best {
				cells[i] = "**" + cells[i] + "**"
			}
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	b.WriteString("\n" + markdownEscape(t.note) + "\n")
	return b.String()
}

// PairedTableAs returns paired statistics (the table routelab compare
// --baseline prints) as "latex" or "markdown". The LaTeX table fits one
// column: under each policy's name a row per metric with the mean
// difference, its interval and the verdict as a mark the caption explains.
func PairedTableAs(p *experiment.Paired, format string) (string, error) {
	if p == nil || len(p.Stats) == 0 {
		return "", errors.New("plot: no paired statistics to tabulate")
	}
	if format == TableLaTeX {
		return pairedColumnTable(p).latex(), nil
	}
	return tablesAs(format, []string{labelKey(p.Label) + "-paired"}, p.Table())
}

// verdictMarks are the paired table's verdict marks (LaTeX) and what each
// means, in the order the caption's legend lists them.
var verdictMarks = []struct{ verdict, mark, legend string }{
	{experiment.VerdictBetter, "$+$", "better than the baseline"},
	{experiment.VerdictWorse, "$-$", "worse"},
	{experiment.VerdictUndecided, "$\\circ$", "not distinguishable from zero at 95 %"},
	{experiment.VerdictIdentical, "$=$", "identical on every seed"},
	{experiment.VerdictTooFewSeeds, "?", "fewer than 2 seeds with both values"},
}

// pairedColumnTable is the paired statistics as a one-column table; the
// caption's legend names only the marks the table uses.
func pairedColumnTable(p *experiment.Paired) textTable {
	t := textTable{name: p.Table().Title, label: labelKey(p.Label) + "-paired", compact: true,
		heads: []string{"metric", "mean Δ", "95 % CI", ""}, units: make([]string, 4), align: []byte("lrrc")}
	used := map[string]bool{}
	for i, s := range p.Stats {
		if i == 0 || p.Stats[i-1].Policy != s.Policy {
			t.rows = append(t.rows, groupRow(s.Policy))
		}
		v := s.Verdict()
		used[v] = true
		t.rows = append(t.rows, []textCell{{text: s.Metric.Label()}, {text: s.Metric.DiffText(s.DiffMean)},
			{text: s.Metric.IntervalText(s.CILow, s.CIHigh)}, {text: v, mark: true}})
	}
	notes := []string{"Rows under each policy's name; the text table (routelab compare --baseline) adds wins, losses and ties"}
	for _, m := range verdictMarks {
		if used[m.verdict] {
			notes = append(notes, m.mark+": "+m.legend)
		}
	}
	t.note = strings.Join(notes, "; ") + "."
	return t
}

// StudyTableAs returns a study's scores — development weights with their
// standard errors and the selection margin, then the validation — as
// "latex" or "markdown": two tables, one after the other.
func StudyTableAs(r *experiment.StudyResult, format string) (string, error) {
	if r == nil {
		return "", errors.New("plot: nil study result")
	}
	name := labelKey(r.Config.Name)
	return tablesAs(format, []string{name + "-development", name + "-validation"}, r.Tables()...)
}

// tablesAs formats tables, labelled (in LaTeX) by labels.
func tablesAs(format string, labels []string, tables ...experiment.Table) (string, error) {
	var out []string
	for i, t := range tables {
		switch format {
		case TableLaTeX:
			out = append(out, engineTable(t, labels[i]).latex())
		case TableMarkdown:
			out = append(out, engineTable(t, labels[i]).markdown())
		default:
			return "", fmt.Errorf("plot: table format %q is not one of %s, %s", format, TableLaTeX, TableMarkdown)
		}
	}
	return strings.Join(out, "\n"), nil
}

// markdownEscaper keeps names text: Markdown's punctuation is escaped and
// the characters that would open HTML are written as entities.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`, `|`, `\|`,
	`<`, `&lt;`, `>`, `&gt;`, `&`, `&amp;`, `#`, `\#`,
)

func markdownEscape(s string) string { return markdownEscaper.Replace(s) }

// checkSummaries is checkComparison for what a table reads: each policy's
// run summaries, which an experiment keeps even when it keeps no runs.
func checkSummaries(c *experiment.Comparison) error {
	if c == nil {
		return errors.New("plot: nil comparison")
	}
	if len(c.Policies) == 0 {
		return fmt.Errorf("plot: comparison of scenario %q has no policies", c.Scenario.Name)
	}
	for _, p := range c.Policies {
		if len(p.Records) != len(c.Seeds) {
			return fmt.Errorf("plot: policy %q of the comparison has %d run summaries for %d seeds; want one per seed", p.Name, len(p.Records), len(c.Seeds))
		}
	}
	return nil
}
