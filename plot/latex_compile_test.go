package plot

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/routelab/routelab/experiment"
)

// latexOutputs are every LaTeX table routelab writes, by what it shows.
func latexOutputs(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	routers := routersOnChat(t)
	for name, c := range map[string]*experiment.Comparison{
		"straggler summary": testComparison(t, "straggler"), "odd names": oddComparison(t), "half dead": halfDeadComparison(t),
		"serving summary": routers,
	} {
		tex, err := ComparisonTableAs(c, TableLaTeX)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = tex
	}
	p, err := testComparison(t, "straggler").Paired(experiment.PairedOptions{Baseline: "latency-aware"})
	if err != nil {
		t.Fatal(err)
	}
	if out["paired"], err = PairedTableAs(p, TableLaTeX); err != nil {
		t.Fatal(err)
	}
	sp, err := routers.Paired(experiment.PairedOptions{Baseline: "llm-d"})
	if err != nil {
		t.Fatal(err)
	}
	if out["serving paired"], err = PairedTableAs(sp, TableLaTeX); err != nil {
		t.Fatal(err)
	}
	if out["study"], err = StudyTableAs(testStudy(t), TableLaTeX); err != nil {
		t.Fatal(err)
	}
	return out
}

var texLabel = regexp.MustCompile(`\\label\{([^}]*)\}`)

// No LaTeX output carries a raw non-ASCII character, every label is
// tab:<scenario>-<kind> and short, and a summary's undefined-value note
// appears exactly when a cell is undefined.
func TestLaTeXOutputsArePasteable(t *testing.T) {
	for name, tex := range latexOutputs(t) {
		for i, r := range tex {
			if r >= 0x80 {
				t.Errorf("%s: raw non-ASCII %q at byte %d: …%s…", name, r, i, tex[max(0, i-30):min(len(tex), i+30)])
				break
			}
		}
		for _, m := range texLabel.FindAllStringSubmatch(tex, -1) {
			if !regexp.MustCompile(`^tab:[a-z0-9-]+-(summary|paired|development|validation)$`).MatchString(m[1]) || len(m[1]) > 40 {
				t.Errorf("%s: label %q is not a short tab:<scenario>-<kind>", name, m[1])
			}
			t.Logf("%s: \\label{%s}", name, m[1])
		}
		if !strings.Contains(tex, "-summary}") {
			continue
		}
		hasDash := strings.Contains(strings.Split(tex, `\bottomrule`)[0], "---")
		t.Logf("%s: a cell undefined %v", name, hasDash)
		if note := strings.Contains(tex, "undefined (no completed"); note != hasDash {
			t.Errorf("%s: undefined note %v, yet a cell is undefined: %v", name, note, hasDash)
		}
	}
}

// Every LaTeX output compiles with pdflatex and booktabs. Outside CI the
// test skips without pdflatex; ROUTELAB_REQUIRE_LATEX=1 makes it fail.
func TestLaTeXOutputsCompile(t *testing.T) {
	engine, err := exec.LookPath("pdflatex")
	if err != nil {
		if os.Getenv("ROUTELAB_REQUIRE_LATEX") == "1" {
			t.Fatal("ROUTELAB_REQUIRE_LATEX=1 but no pdflatex (apt-get install texlive-latex-base texlive-latex-recommended)")
		}
		t.Skip("no pdflatex; set ROUTELAB_REQUIRE_LATEX=1 to require it")
	}
	dir := t.TempDir()
	for name, tex := range latexOutputs(t) {
		file := strings.ReplaceAll(name, " ", "-")
		// A two-column page, as conference papers are: the paired table
		// must fit its column.
		doc := "\\documentclass[twocolumn]{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n\\begin{document}\n" + tex + "\\end{document}\n"
		if err := os.WriteFile(filepath.Join(dir, file+".tex"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(engine, "-interaction=nonstopmode", "-halt-on-error", file+".tex")
		cmd.Dir = dir
		log, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s does not compile: %v\n%s", name, err, tail(string(log), 1500))
			continue
		}
		if strings.Contains(string(log), "Overfull \\hbox") {
			if strings.HasSuffix(name, "paired") {
				t.Errorf("paired: wider than one column:\n%s", tail(string(log), 1500))
			}
			t.Logf("%s: compiles, wider than one column", name)
		}
		t.Logf("%s: compiled %s", name, filepath.Join(dir, file+".pdf"))
	}
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }
