package plot

import (
	"regexp"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/internal/testutil"
)

// routersOnChat is the 8 production routers compared on chat.
func routersOnChat(t testing.TB) *experiment.Comparison {
	t.Helper()
	scn, err := engine.BuiltinScenario("chat", engine.ScenarioRate("chat"), engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	policies := []engine.PolicySpec{engine.LLMD(), engine.VLLMDataParallel(), engine.VLLMPrefixAware(), engine.SGLang(),
		engine.DynamoKV(1), engine.RayPrefixAffinity(), engine.AIBrix(), engine.Prequal()}
	return compare(t, scn, policies, experiment.DefaultSeeds(3), engine.Protocol{Warmup: 2000, Measure: 8000, SLO: engine.DefaultProtocol().SLO})
}

// paperFigures are the figures a paper uses, each built with options.
func paperFigures(t testing.TB) map[string]func(...Option) (*Figure, error) {
	spec, routers, failure := testComparison(t, "straggler"), routersOnChat(t), testComparison(t, "failure")
	run, sweep := testRun(t, "failure", engine.Adaptive(engine.DefaultAdaptiveParams())), testSweep(t)
	return map[string]func(...Option) (*Figure, error){
		"comparison":            func(o ...Option) (*Figure, error) { return Comparison(spec, o...) },
		"comparison, 8 routers": func(o ...Option) (*Figure, error) { return Comparison(routers, o...) },
		"latency-cdf":           func(o ...Option) (*Figure, error) { return LatencyCDF(failure, o...) },
		"paired":                func(o ...Option) (*Figure, error) { return Paired(spec, "least-queue", "adaptive", o...) },
		"timeline":              func(o ...Option) (*Figure, error) { return Timeline(run, o...) },
		"rate-sweep":            func(o ...Option) (*Figure, error) { return RateSweep(sweep, o...) },
	}
}

var mediaBox = regexp.MustCompile(`/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]`)

// A paper figure's PDF page, measured from its MediaBox: one column is at
// most 3.5 in wide and about 2.6 in tall (2.4–2.8), two columns 7 in wide
// and at most 3 in tall, for every figure kind. The title block is not drawn (the PDF's text lacks
// the title) but is the caption, and a one-column comparison draws two
// panels.
func TestPaperPDFSizes(t *testing.T) {
	testutil.Chromium(t)
	r := NewSVGRenderer(1)
	axes := map[string][]string{"comparison": panelAxes(t, testComparison(t, "straggler")), "comparison, 8 routers": panelAxes(t, routersOnChat(t))}
	for name, build := range paperFigures(t) {
		for _, col := range []struct {
			name   string
			inches float64
			maxW   float64
			minH   float64
			maxH   float64
		}{{"OneColumn", OneColumn, 3.5, 2.4, 2.8}, {"TwoColumn", TwoColumn, 7, 0, 3}} {
			f, err := build(WithPaper(col.inches))
			if err != nil {
				t.Errorf("%s, %s: %v", name, col.name, err)
				continue
			}
			pdf, err := f.WithSVGRenderer(r).PDF()
			if err != nil {
				t.Fatalf("%s, %s: %v", name, col.name, err)
			}
			box := mediaBox.FindAllSubmatch(pdf, -1)
			if len(box) != 1 {
				t.Fatalf("%s, %s: %d pages", name, col.name, len(box))
			}
			w, h := atof(t, box[0][1])/72, atof(t, box[0][2])/72
			t.Logf("%-22s %-9s PDF page %.2f × %.2f in (%s × %s pt)", name, col.name, w, h, box[0][1], box[0][2])
			if w > col.maxW+0.01 || (col.name == "TwoColumn" && w < 6.99) {
				t.Errorf("%s, %s: page %.2f in wide, want ≤ %.1f in", name, col.name, w, col.maxW)
			}
			if h > col.maxH+0.01 || h < col.minH {
				t.Errorf("%s, %s: page %.2f × %.2f in, want width ≤ %.1f in and height %.1f–%.1f in", name, col.name, w, h, col.maxW, col.minH, col.maxH)
			}
			text := pdfText(t, pdf)
			if strings.Contains(text, f.Title()) {
				t.Errorf("%s, %s: the title %q is drawn in the figure; on paper it is the caption", name, col.name, f.Title())
			}
			if !strings.HasPrefix(f.Caption(), strings.TrimSuffix(f.Title(), ".")) {
				t.Errorf("%s, %s: caption %q does not start with the title %q", name, col.name, f.Caption(), f.Title())
			}
			if cap := f.CaptionLaTeX(); !strings.HasPrefix(cap, `\caption{`) || strings.IndexFunc(cap, func(r rune) bool { return r >= 0x80 }) >= 0 {
				t.Errorf("%s, %s: LaTeX caption %q", name, col.name, cap)
			}
			if axes, ok := axes[name]; ok {
				heads := 0
				for _, h := range axes {
					if strings.Contains(text, strings.Fields(h)[0]) {
						heads++
					}
				}
				if want := map[string]int{"OneColumn": 2, "TwoColumn": 4}[col.name]; heads != want {
					t.Errorf("%s, %s: %d panel headings in the PDF, want %d", name, col.name, heads, want)
				}
			}
		}
	}
}

// Without WithPaper the title block is drawn, and the caption is still
// the title block as a paragraph.
func TestCaptionOfScreenFigure(t *testing.T) {
	f, err := Comparison(testComparison(t, "straggler"))
	if err != nil {
		t.Fatal(err)
	}
	c := f.Caption()
	if !strings.HasPrefix(c, "straggler: 4 policies compared. ") || !strings.Contains(c, "lowest median p99") || strings.Contains(c, "\n") {
		t.Errorf("caption %q", c)
	}
}

// panelAxes are the axis names of a comparison figure's panels.
func panelAxes(t testing.TB, c *experiment.Comparison) []string {
	t.Helper()
	set, err := comparisonPanels(c)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, mp := range set.panels {
		out = append(out, mp.axisName(false))
	}
	return out
}
