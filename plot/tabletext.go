package plot

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/routelab/routelab/engine"
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
func ComparisonTableAs(c *engine.Comparison, format string) (string, error) {
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
	text string
	best bool
}

// tableRows are the header (names, units) and the rows of a comparison's
// table, formatted as in ComparisonTable.
func tableRows(c *engine.Comparison) (heads, units []string, rows [][]textCell) {
	cols := tableColumns()
	heads, units = []string{"policy", "runs"}, []string{"", ""}
	for i, col := range cols {
		if i == 3 {
			heads, units = append(heads, "p99 range"), append(units, "ms")
		}
		heads, units = append(heads, col.head), append(units, col.unit)
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
			if i == 3 {
				row = append(row, textCell{text: p99Range(s)})
			}
			v := col.value(s)
			row = append(row, textCell{text: col.format(v), best: col.better != 0 && defined(v) && v == best[i] && len(c.Policies) > 1})
		}
		rows = append(rows, row)
	}
	return heads, units, rows
}

// tableNote is the table's caption after the setup line.
func tableNote(c *engine.Comparison) string {
	return fmt.Sprintf("Medians across %d seeds; bold: best in its column. The p99 range is the observed min–max across seeds, not a confidence interval. — : undefined (no completed cohort request).", len(c.Seeds))
}

// latexTable is the table as a LaTeX table environment with booktabs rules.
func latexTable(c *engine.Comparison) string {
	heads, units, rows := tableRows(c)
	var b strings.Builder
	fmt.Fprintf(&b, "%% routelab: %s (needs \\usepackage{booktabs})\n", latexEscape(c.Scenario.Name))
	b.WriteString("\\begin{table}[t]\n\\centering\n\\small\n")
	fmt.Fprintf(&b, "\\begin{tabular}{l%s}\n\\toprule\n", strings.Repeat("r", len(heads)-1))
	b.WriteString(latexRow(heads) + latexRow(units) + "\\midrule\n")
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, cell := range row {
			cells[i] = latexEscape(cell.text)
			if cell.best {
				cells[i] = "\\textbf{" + cells[i] + "}"
			}
		}
		b.WriteString(strings.Join(cells, " & ") + " \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	fmt.Fprintf(&b, "\\caption{%s: %s. %s}\n", latexEscape(c.Scenario.Name), latexEscape(setupLine(c)), latexEscape(tableNote(c)))
	fmt.Fprintf(&b, "\\label{tab:%s}\n\\end{table}\n", labelKey(c.Scenario.Name))
	return b.String()
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
)

func latexEscape(s string) string { return latexEscaper.Replace(s) }

var nonLabel = regexp.MustCompile(`[^a-z0-9]+`)

// labelKey is a \label key made from a name: lower case, runs of other
// characters as one '-'.
func labelKey(name string) string {
	k := strings.Trim(nonLabel.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if k == "" {
		return "comparison"
	}
	return k
}

// markdownTable is the table as a Markdown pipe table under a caption line.
func markdownTable(c *engine.Comparison) string {
	heads, units, rows := tableRows(c)
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — %s\n\n", markdownEscape(c.Scenario.Name), markdownEscape(setupLine(c)))
	head := make([]string, len(heads))
	align := make([]string, len(heads))
	for i := range heads {
		head[i] = strings.TrimSpace(markdownEscape(heads[i]) + " " + markdownEscape(units[i]))
		align[i] = "--:"
	}
	align[0] = ":--"
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Join(align, "|") + "|\n")
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, cell := range row {
			cells[i] = markdownEscape(cell.text)
			if cell.best {
				cells[i] = "**" + cells[i] + "**"
			}
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	b.WriteString("\n" + markdownEscape(tableNote(c)) + "\n")
	return b.String()
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
func checkSummaries(c *engine.Comparison) error {
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
