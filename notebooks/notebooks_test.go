// Package notebooks_test executes every notebook in this directory the way
// `routelab run` does, so the notebooks cannot rot, and keeps the committed
// files clean (no outputs, the routelab kernelspec).
package notebooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/routelab/routelab/internal/jupytertest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/kernel"
)

// cellTimeout bounds each cell; the notebooks take seconds in all.
const cellTimeout = 2 * time.Minute

func notebooks(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 4 {
		t.Fatalf("found %d notebooks (%v), want at least 4", len(paths), paths)
	}
	return paths
}

// rawNotebook is the committed file as JSON, independent of the kernel's
// reader, so cleanliness is checked on exactly what is committed.
type rawNotebook struct {
	NBFormat      int `json:"nbformat"`
	NBFormatMinor int `json:"nbformat_minor"`
	Metadata      struct {
		Kernelspec map[string]string `json:"kernelspec"`
	} `json:"metadata"`
	Cells []struct {
		ID             string            `json:"id"`
		Type           string            `json:"cell_type"`
		Source         any               `json:"source"`
		Outputs        []json.RawMessage `json:"outputs"`
		ExecutionCount *int              `json:"execution_count"`
		Metadata       map[string]any    `json:"metadata"`
	} `json:"cells"`
}

func TestNotebooksAreCommittedClean(t *testing.T) {
	want := map[string]string{"name": "routelab", "display_name": "Go (routelab)", "language": "go"}
	for _, path := range notebooks(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var nb rawNotebook
		if err := json.Unmarshal(data, &nb); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if nb.NBFormat != 4 {
			t.Errorf("%s: nbformat %d, want 4", path, nb.NBFormat)
		}
		for k, v := range want {
			if got := nb.Metadata.Kernelspec[k]; got != v {
				t.Errorf("%s: metadata.kernelspec.%s = %q, want %q", path, k, got, v)
			}
		}
		code := 0
		for i, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			code++
			if len(c.Outputs) > 0 || c.ExecutionCount != nil || c.Metadata["execution"] != nil {
				t.Errorf("%s: cells[%d] is committed with outputs, an execution count or timings; clear them (see docs/notebooks.md)", path, i)
			}
		}
		if code == 0 {
			t.Errorf("%s: no code cells", path)
		}
	}
}

// TestNotebooksAreDocumented keeps docs/notebooks.md in step with the files.
func TestNotebooksAreDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "notebooks.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range notebooks(t) {
		if !bytes.Contains(doc, []byte(path)) {
			t.Errorf("docs/notebooks.md does not mention %s", path)
		}
	}
}

// executed is one notebook run headless: the notebook as written and the
// HTML page exported from it.
type executed struct {
	ipynb, html string
	nb          *kernel.Notebook
	took        time.Duration
}

// run executes a notebook in a fresh session, as `routelab run NB -o OUT
// --html PAGE` does, and fails the test on any error outside cells tagged
// raises-exception.
func run(t *testing.T, path, dir string) executed {
	t.Helper()
	sess, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	out := executed{ipynb: filepath.Join(dir, "out.ipynb"), html: filepath.Join(dir, "out.html")}
	var progress bytes.Buffer
	start := time.Now()
	err = kernel.Run(context.Background(), sess, path, kernel.RunOptions{
		Output: out.ipynb, HTML: out.html, Timeout: cellTimeout, Progress: &progress,
	})
	out.took = time.Since(start)
	if err != nil {
		t.Fatalf("%s: %v\nprogress:\n%s", path, err, progress.String())
	}
	if out.nb, err = kernel.ReadNotebook(out.ipynb); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNotebooksRun(t *testing.T) {
	// Cells that save files write into os.TempDir(); keep them in the test's.
	t.Setenv("TMPDIR", t.TempDir())
	for _, path := range notebooks(t) {
		t.Run(strings.TrimSuffix(path, ".ipynb"), func(t *testing.T) {
			first := run(t, path, t.TempDir())
			t.Logf("%s ran in %v", path, first.took.Round(time.Millisecond))
			checkCells(t, first.nb)
			checkOffline(t, first.html)
			checkProseNumbers(t, path, first.nb)

			// Same notebook, fresh session: the same bytes.
			second := run(t, path, t.TempDir())
			a, _ := os.ReadFile(first.ipynb)
			b, _ := os.ReadFile(second.ipynb)
			if !bytes.Equal(a, b) {
				t.Errorf("%s: two runs wrote different notebooks (%d and %d bytes)", path, len(a), len(b))
			}
			validateWithNBFormat(t, first.ipynb)
		})
	}
}

// figureCall matches a cell whose value is a figure: its last line calls
// Chart, CDF or Timeline (Paired is a table; Paired(a, b).Chart() draws it).
var figureCall = regexp.MustCompile(`\.(Chart|CDF|Timeline)\([^()]*\)\s*$`)

// checkCells requires every code cell to show something, figures to come out
// as interactive charts and static figures as SVG, and cells to fail exactly
// when they are tagged raises-exception.
func checkCells(t *testing.T, nb *kernel.Notebook) {
	t.Helper()
	for i, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		name := fmt.Sprintf("cells[%d]", i)
		if len(c.Outputs) == 0 {
			t.Errorf("%s produced no output:\n%s", name, c.Source)
			continue
		}
		var errs []*kernel.Output
		for _, o := range c.Outputs {
			if o.Type == "error" {
				errs = append(errs, o)
			}
		}
		expectError := hasTag(c, "raises-exception")
		switch {
		case expectError && len(errs) == 0:
			t.Errorf("%s is tagged raises-exception but did not fail", name)
		case !expectError && len(errs) > 0:
			t.Errorf("%s failed: %s: %s", name, errs[0].EName, errs[0].EValue)
		}
		last := lastLine(c.Source)
		switch {
		case figureCall.MatchString(last):
			if html, _ := value(c).Data[display.TextHTML].(string); !strings.Contains(html, "echarts") {
				t.Errorf("%s (%s) did not show an interactive chart", name, last)
			}
		case strings.HasSuffix(last, ".Static()"):
			if svg, _ := value(c).Data[display.SVG].(string); !strings.HasPrefix(svg, "<svg") {
				t.Errorf("%s (%s) did not show an SVG image", name, last)
			}
		}
	}
}

func hasTag(c *kernel.Cell, tag string) bool {
	var tags []string
	_ = json.Unmarshal(c.Metadata["tags"], &tags)
	return slices.Contains(tags, tag)
}

func lastLine(src string) string {
	lines := strings.Split(strings.TrimSpace(src), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// value is the cell's execute_result (an empty output when it has none).
func value(c *kernel.Cell) *kernel.Output {
	for _, o := range c.Outputs {
		if o.Type == "execute_result" {
			return o
		}
	}
	return &kernel.Output{}
}

// remote matches a script, stylesheet, image or frame loaded from the
// network, in a tag attribute or a CSS import/url().
var remote = regexp.MustCompile(`(?i)<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=\s*["']?\s*(https?:)?//|@import\s+(url\()?\s*["']?\s*(https?:)?//|url\(\s*["']?\s*(https?:)?//`)

// checkOffline requires the exported page to load nothing from the network.
func checkOffline(t *testing.T, path string) {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte("<html")) || len(page) < 1000 {
		t.Errorf("%s does not look like an HTML page (%d bytes)", path, len(page))
	}
	if m := remote.Find(page); m != nil {
		t.Errorf("%s loads from the network: %s", path, m)
	}
}

// validateWithNBFormat checks an executed notebook with Jupyter's own
// validator, when it is installed (required under ROUTELAB_REQUIRE_JUPYTER).
func validateWithNBFormat(t *testing.T, path string) {
	t.Helper()
	py := jupytertest.PythonWith(t, "nbformat")
	script := `import sys, nbformat
nbformat.validate(nbformat.read(sys.argv[1], as_version=nbformat.NO_CONVERT))`
	cmd := exec.Command(py, "-c", script, path)
	cmd.Env = jupytertest.NewEnv(t).Environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("nbformat rejects the executed notebook: %v\n%s", err, out)
	}
}
