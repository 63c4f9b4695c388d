package notebooks_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/kernel"
	"github.com/routelab/routelab/plot"
)

// The HTML export of every notebook works offline: opened in Chromium with
// no network, every chart the notebook shows draws.
func TestHTMLExportDrawsEveryChartOffline(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		if os.Getenv("ROUTELAB_REQUIRE_CHROMIUM") != "" {
			t.Fatal("chromium is required (ROUTELAB_REQUIRE_CHROMIUM=1) but not installed")
		}
		t.Skip("chromium not installed")
	}
	t.Setenv("TMPDIR", t.TempDir())
	nbs, _ := filepath.Glob("*.ipynb")
	for _, nb := range nbs {
		t.Run(strings.TrimSuffix(nb, ".ipynb"), func(t *testing.T) {
			sess, err := symbols.NewSession(dsl.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			out := filepath.Join(t.TempDir(), "nb.html")
			if err := kernel.Run(context.Background(), sess, nb, kernel.RunOptions{HTML: out}); err != nil {
				t.Fatal(err)
			}
			page, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
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
		})
	}
}
