package plot

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/routelab/routelab/internal/testutil"
)

// fontFiles are the fonts the metric table is generated from (Debian's
// fonts-dejavu-core, which Chromium's packages pull in).
var fontFiles = []string{"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"}

// The committed table is what fontgen makes of the installed fonts.
func TestTextMetricsTableIsCurrent(t *testing.T) {
	for _, f := range fontFiles {
		if _, err := os.Stat(f); err != nil {
			if testutil.ChromiumRequired() {
				t.Fatalf("%v (fonts-dejavu-core comes with Chromium)", err)
			}
			t.Skip(err)
		}
	}
	out := filepath.Join(t.TempDir(), "table.go")
	cmd := exec.Command("go", append([]string{"run", "./internal/fontgen", "-o", out}, fontFiles...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fontgen: %v\n%s", err, msg)
	}
	got, _ := os.ReadFile(out)
	want, _ := os.ReadFile("textmetrics_table.go")
	if !bytes.Equal(got, want) {
		t.Error("textmetrics_table.go is stale: run go generate ./plot")
	}
}

// Text measured in Go is as wide as Chromium draws it with the sans-serif
// font it uses for figures, and never narrower: every character of the
// table in both weights within 0.5% (but the soft hyphen, which a browser
// does not draw), and sentences, which kerning can narrow, within 3%.
func TestTextMetricsMatchChromium(t *testing.T) {
	b := startBrowser(t)
	tab, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	tab, cancelTimeout := context.WithTimeout(tab, time.Minute)
	defer cancelTimeout()
	var samples []string
	for _, run := range dejaVuSans.runs {
		for k := range run.widths {
			if r := run.first + rune(k); r > ' ' {
				samples = append(samples, string(r))
			}
		}
	}
	samples = append(samples, "p99 latency: median, seeds, range", "least queue with ewma service estimate 2",
		"replica 2 ×3 slower at 14 s", "LatencyAwareWithRetriesAndBackoffVersion")
	for _, f := range []font{fontText, {12, true}} {
		var widths []float64
		js := fmt.Sprintf(`(function (texts) { var c = document.createElement("canvas").getContext("2d");
		  c.font = %q; return texts.map(function (s) { return c.measureText(s).width; }); })(%s)`,
			fmt.Sprintf("%s100px sans-serif", map[bool]string{true: "bold ", false: ""}[f.bold]), jsArray(samples))
		if err := chromedp.Run(tab, chromedp.Navigate("about:blank"), chromedp.Evaluate(js, &widths)); err != nil {
			t.Fatal(err)
		}
		big := font{100, f.bold}
		bad := 0
		for i, s := range samples {
			want, got := widths[i], big.width(s)
			slack := 0.03
			if len([]rune(s)) == 1 && want > 0 {
				slack = 0.005
			}
			if got < want-0.01 || (want > 0 && got > want*(1+slack)+0.01) {
				if bad++; bad <= 10 {
					t.Errorf("bold %v: %q measures %.2f px in Go, Chromium draws it %.2f", f.bold, s, got, want)
				}
			}
		}
		if bad > 10 {
			t.Errorf("bold %v: %d of %d texts measured wrong", f.bold, bad, len(samples))
		}
	}
}
