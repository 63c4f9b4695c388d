package plot

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// oddName has every character LaTeX or Markdown treats specially.
const oddName = `a_b&c%d$e#f{g}~h^i\j|k*l[m]n<o>p` + "`q"

func oddComparison(t *testing.T) *experiment.Comparison {
	t.Helper()
	odd := engine.LeastQueue()
	odd.Name = oddName
	return compare(t, mustScenario(t, "burst"), []engine.PolicySpec{odd, engine.Adaptive(engine.DefaultAdaptiveParams())}, testSeeds(), testProtocol())
}

// The LaTeX table parses: environments balance, booktabs' three rules are
// there in order, braces balance, every row has one cell per column, and
// names are escaped so that they typeset as written.
func TestLaTeXTable(t *testing.T) {
	for _, c := range []*experiment.Comparison{testComparison(t, "straggler"), oddComparison(t), halfDeadComparison(t)} {
		tex, err := ComparisonTableAs(c, TableLaTeX)
		if err != nil {
			t.Fatal(err)
		}
		checkLaTeX(t, tex, 12)
	}
	tex, _ := ComparisonTableAs(oddComparison(t), TableLaTeX)
	want := `a\_b\&c\%d\$e\#f\{g\}\textasciitilde{}h\textasciicircum{}i\textbackslash{}j\textbar{}k*l[m]n\textless{}o\textgreater{}p` + "`q & "
	if !strings.Contains(tex, "\n"+want) {
		t.Errorf("the odd name is not escaped as %q:\n%s", want, tex)
	}
	if !strings.Contains(tex, `\textbf{`) || strings.Count(tex, `\textbf{`) < 3 {
		t.Errorf("no best values in bold:\n%s", tex)
	}
}

var (
	texEnv     = regexp.MustCompile(`\\(begin|end)\{([a-z*]+)\}`)
	texEscaped = regexp.MustCompile(`\\[&%$#_{}]`)
)

func checkLaTeX(t *testing.T, tex string, columns int) {
	t.Helper()
	var stack []string
	for _, m := range texEnv.FindAllStringSubmatch(tex, -1) {
		if m[1] == "begin" {
			stack = append(stack, m[2])
		} else if len(stack) == 0 || stack[len(stack)-1] != m[2] {
			t.Fatalf("\\end{%s} closes %v:\n%s", m[2], stack, tex)
		} else {
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Errorf("unclosed environments %v", stack)
	}
	top, mid, bottom := strings.Index(tex, `\toprule`), strings.Index(tex, `\midrule`), strings.Index(tex, `\bottomrule`)
	if top < 0 || !(top < mid && mid < bottom) {
		t.Errorf("booktabs rules missing or out of order (%d, %d, %d)", top, mid, bottom)
	}
	plain := texEscaped.ReplaceAllString(tex, "")
	if strings.Count(plain, "{") != strings.Count(plain, "}") {
		t.Errorf("unbalanced braces:\n%s", tex)
	}
	if spec := regexp.MustCompile(`\\begin\{tabular\}\{([lrc]+)\}`).FindStringSubmatch(tex); spec == nil || len(spec[1]) != columns {
		t.Errorf("tabular column spec %v, want %d columns", spec, columns)
	}
	body := tex[top+len(`\toprule`) : bottom]
	for _, line := range strings.Split(body, "\n") {
		if line == "" || line == `\midrule` || line == `\addlinespace` {
			continue
		}
		if strings.HasPrefix(line, fmt.Sprintf(`\multicolumn{%d}{l}{`, columns)) && strings.HasSuffix(line, `} \\`) {
			continue // a group's heading, across the table
		}
		if !strings.HasSuffix(line, `\\`) || strings.Count(texEscaped.ReplaceAllString(line, ""), "&") != columns-1 {
			t.Errorf("row %q: want %d cells ending in \\\\", line, columns)
		}
	}
}

// The Markdown table has one cell per column in every row, right-aligned
// numbers, escaped names, and its caption.
func TestMarkdownTable(t *testing.T) {
	md, err := ComparisonTableAs(oddComparison(t), TableMarkdown)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "|") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 4 || rows[1] != "|:--|"+strings.Repeat("--:|", 11) {
		t.Fatalf("rows %q", rows)
	}
	for _, r := range rows {
		if n := strings.Count(strings.ReplaceAll(r, `\|`, ""), "|"); n != 13 {
			t.Errorf("row %q has %d pipes, want 13", r, n)
		}
	}
	if want := "| " + `a\_b&amp;c%d$e\#f{g}~h^i\\j\|k\*l\[m\]n&lt;o&gt;p` + "\\`q |"; !strings.HasPrefix(rows[2], want) {
		t.Errorf("odd name row %q, want it to start %q", rows[2], want)
	}
	if !strings.Contains(md, "not a confidence interval") || !strings.Contains(md, "**") {
		t.Errorf("caption or bold missing:\n%s", md)
	}
	if _, err := ComparisonTableAs(oddComparison(t), "csv"); err == nil || !strings.Contains(err.Error(), `"csv" is not one of html, latex, markdown`) {
		t.Errorf("unknown format: err = %v", err)
	}
}

// Paired statistics and a study's scores make LaTeX that parses and
// Markdown with one cell per column; each row is the engine's text table
// row, escaped.
func TestPairedAndStudyTables(t *testing.T) {
	p, err := testComparison(t, "straggler").Paired(experiment.PairedOptions{Baseline: "latency-aware"})
	if err != nil {
		t.Fatal(err)
	}
	study := testStudy(t)
	for _, c := range []struct {
		name   string
		tables []experiment.Table
		make   func(format string) (string, error)
	}{
		{"paired", []experiment.Table{p.Table()}, func(f string) (string, error) { return PairedTableAs(p, f) }},
		{"study", study.Tables(), func(f string) (string, error) { return StudyTableAs(study, f) }},
	} {
		tex, err := c.make(TableLaTeX)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(tex, "\n% routelab: ")
		if len(parts) != len(c.tables) {
			t.Fatalf("%s: %d LaTeX tables, want %d", c.name, len(parts), len(c.tables))
		}
		for i, part := range parts {
			cols := len(c.tables[i].Head)
			if c.name == "paired" {
				cols = 4 // metric, mean Δ, CI, verdict mark, under a heading per policy
			}
			checkLaTeX(t, part, cols)
		}
		md, err := c.make(TableMarkdown)
		if err != nil {
			t.Fatal(err)
		}
		var rows int
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "| ") {
				rows++
			}
		}
		want := 0
		for _, tb := range c.tables {
			want += 1 + len(tb.Rows)
			for _, r := range tb.Rows {
				if !strings.Contains(md, "| "+strings.Join(mapStrings(r, markdownEscape), " | ")+" |") {
					t.Errorf("%s: the Markdown lacks the row %q", c.name, r)
				}
			}
		}
		if rows != want {
			t.Errorf("%s: %d Markdown rows, want %d:\n%s", c.name, rows, want, md)
		}
		if _, err := c.make(TableHTML); err == nil {
			t.Errorf("%s: html is not a format of these tables, yet no error", c.name)
		}
	}
	if len(p.Table().Rows) != 3*len(experiment.PairedMetricKeys()) {
		t.Errorf("paired rows: %d, want 3 policies × %d metrics", len(p.Table().Rows), len(experiment.PairedMetricKeys()))
	}
	if _, err := PairedTableAs(nil, TableLaTeX); err == nil {
		t.Error("a nil paired result tabulates without error")
	}
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

// A serving comparison's tables — HTML, LaTeX, Markdown and the text table —
// show the serving model's columns (TTFT, the serving SLO's attainment and
// goodput, prefix hits, preemptions) and not the end-to-end 50 ms SLO's.
func TestServingComparisonTables(t *testing.T) {
	scn, err := engine.BuiltinScenario("chat", engine.ScenarioRate("chat"), engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	proto := engine.Protocol{Warmup: 2000, Measure: 8000, SLO: engine.DefaultProtocol().SLO}
	c := compare(t, scn, []engine.PolicySpec{engine.RoundRobin(), engine.LeastQueue()}, experiment.DefaultSeeds(2), proto)
	cols := experiment.SummaryColumns(true)
	for _, p := range c.Policies {
		for _, col := range cols {
			if v := col.Value(p.Summary); !col.Range && !defined(v) {
				t.Errorf("%s: column %q (%s) is undefined", p.Name, col.Head, col.Key)
			}
		}
	}
	tables := map[string]string{"text": c.String()}
	for _, f := range []string{TableHTML, TableLaTeX, TableMarkdown} {
		s, err := ComparisonTableAs(c, f)
		if err != nil {
			t.Fatal(err)
		}
		tables[f] = s
	}
	checkLaTeX(t, tables[TableLaTeX], 2+len(cols))
	for f, s := range tables {
		s = strings.ReplaceAll(s, "<br/>", " ") // HTML heads take two lines
		for _, want := range []string{"TTFT p99", "serving SLO", "serving goodput", "prefix hits", "preemptions", "round-robin", "least-queue"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s table has no %q:\n%s", f, want, s)
			}
		}
		s = strings.ReplaceAll(s, "serving goodput", "")
		for _, not := range []string{"SLO miss", "attainment", "goodput"} {
			if strings.Contains(s, not) {
				t.Errorf("%s table shows the end-to-end SLO's %q:\n%s", f, not, s)
			}
		}
	}
}
