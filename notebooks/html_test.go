package notebooks_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/internal/testutil"
	"github.com/routelab/routelab/kernel"
	"github.com/routelab/routelab/plot"
)

// The HTML export of every notebook works offline and reads as written:
// opened in Chromium with no network, every chart the notebook shows
// draws, and its markdown's lists, formulas and links come out as the
// source writes them (markdownProblems).
func TestHTMLExportDrawsEveryChartOffline(t *testing.T) {
	testutil.Chromium(t)
	t.Setenv("TMPDIR", t.TempDir())
	nbs, _ := filepath.Glob("*.ipynb")
	for _, nb := range nbs {
		t.Run(strings.TrimSuffix(nb, ".ipynb"), func(t *testing.T) {
			executed, page := export(t, nb)
			want := strings.Count(string(page), "data-routelab-figure=")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			drawn, err := plot.CheckPage(ctx, page)
			if err != nil {
				t.Fatal(err)
			}
			if want == 0 || drawn != want {
				t.Errorf("%d charts drew offline; the page has %d", drawn, want)
			}
			t.Logf("%d charts drew offline", drawn)
			for _, p := range markdownProblems(executed, readMarkdown(t, page), ".") {
				t.Error(p)
			}
		})
	}
}

// export runs a notebook headless and returns the executed notebook and
// its HTML export.
func export(t *testing.T, path string) (*kernel.Notebook, []byte) {
	t.Helper()
	sess, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	dir := t.TempDir()
	out, html := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "nb.html")
	if err := kernel.Run(context.Background(), sess, path, kernel.RunOptions{Output: out, HTML: html}); err != nil {
		t.Fatal(err)
	}
	nb, err := kernel.ReadNotebook(out)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	return nb, page
}
