package plot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/routelab/routelab/engine"
)

// TestBrowserTextLayout draws every figure kind in Chromium at 640, 1000
// and 1600 px — the interactive option as a notebook shows it, the static
// option as PNG and PDF exports draw it, and the SVG export — and checks
// that no text overlaps another and none leaves the figure. ECharts' SVG
// renderer gives the browser a <text> element per line, whose box the
// browser measures with the font it draws; exports are also checked at the
// one- and two-column paper widths, and in the paper layouts themselves,
// where every text must be at least 7 pt.
func TestBrowserTextLayout(t *testing.T) {
	b := startBrowser(t)
	h := openHarness(t, b)
	h.marks = true
	r := NewSVGRenderer(1)
	shots := b.shots
	for _, c := range layoutCases(t) {
		t.Run(c.name, func(t *testing.T) {
			h.wantMarks = !c.blank
			for _, w := range []int{640, 1000, 1600} {
				f := c.at(t, w)
				h.check(t, fmt.Sprintf("%s-html-%d", c.name, w), f.OptionJS(), w, f.htmlHeight, shots, 0)
				h.check(t, fmt.Sprintf("%s-static-%d", c.name, w), f.staticJS, w, f.height, shots, 0)
			}
			one, two := paperWidth(OneColumn), paperWidth(TwoColumn)
			for _, w := range []int{one, 640, two, 1000, 1600} {
				f := c.at(t, w).WithSVGRenderer(r)
				svg, err := f.SVG()
				if err != nil {
					t.Fatal(err)
				}
				minPt := 0.0
				if w == one || w == two {
					minPt = 7
				}
				h.checkSVG(t, fmt.Sprintf("%s-svg-%d", c.name, w), svg, f.staticJS, w, f.height, shots, minPt)
			}
			// The paper layouts (WithPaper, lab's Figure.Paper) as their
			// PDFs draw them.
			for _, p := range []struct {
				name   string
				inches float64
			}{{"one-column", OneColumn}, {"two-column", TwoColumn}} {
				f, err := c.build(WithPaper(p.inches))
				if err != nil {
					t.Fatalf("%s on paper, %s: %v", c.name, p.name, err)
				}
				svg, err := f.WithSVGRenderer(r).SVG()
				if err != nil {
					t.Fatal(err)
				}
				h.checkSVG(t, fmt.Sprintf("%s-paper-%s", c.name, p.name), svg, f.staticJS, f.width, f.height, shots, 7)
			}
		})
	}
}

// layoutCase is a figure built at a given export width.
type layoutCase struct {
	name  string
	build func(options ...Option) (*Figure, error)
	blank bool // draws no data mark: every value is zero-sized
}

func (c layoutCase) at(t *testing.T, width int) *Figure {
	t.Helper()
	f, err := c.build(WithWidth(width))
	if err != nil {
		t.Fatalf("%s at %d px: %v", c.name, width, err)
	}
	return f
}

// layoutCases are the figures of issue 10's list: comparisons of 2, 4 and
// 10 policies (long names included), one without p99 for some policies,
// one of the serving model (its own panels), a CDF, a timeline with
// overlapping and nested events, a rate sweep, a study, and paired charts,
// one of two policies identical on every seed.
func layoutCases(t *testing.T) []layoutCase {
	spec := testComparison(t, "straggler")
	two := compare(t, mustScenario(t, "burst"), specPolicies(2), testSeeds(), testProtocol())
	ten := compare(t, mustScenario(t, "failure"), longPolicies(), testSeeds(), testProtocol())
	same := compare(t, mustScenario(t, "steady"), twins(), testSeeds(), testProtocol())
	sparse := sparseComparison(t)
	serving := servingComparison(t)
	cdf := testComparison(t, "failure")
	run := testRun(t, "straggler", engine.Adaptive(engine.DefaultAdaptiveParams()))
	run.Events = overlappingEvents()
	sw, st := testSweep(t), testStudy(t)
	return []layoutCase{
		{"comparison-2", func(o ...Option) (*Figure, error) { return Comparison(two, o...) }, false},
		{"comparison-4", func(o ...Option) (*Figure, error) { return Comparison(spec, o...) }, false},
		{"comparison-10-long", func(o ...Option) (*Figure, error) { return Comparison(ten, o...) }, false},
		{"comparison-sparse", func(o ...Option) (*Figure, error) { return Comparison(sparse, o...) }, false},
		{"comparison-serving", func(o ...Option) (*Figure, error) { return Comparison(serving, o...) }, false},
		{"latency-cdf", func(o ...Option) (*Figure, error) { return LatencyCDF(cdf, o...) }, false},
		{"latency-cdf-10-long", func(o ...Option) (*Figure, error) { return LatencyCDF(ten, o...) }, false},
		{"timeline-overlapping", func(o ...Option) (*Figure, error) { return Timeline(run, o...) }, false},
		{"rate-sweep", func(o ...Option) (*Figure, error) { return RateSweep(sw, o...) }, false},
		{"study", func(o ...Option) (*Figure, error) { return StudyHeatmap(st, o...) }, false},
		{"paired", func(o ...Option) (*Figure, error) { return Paired(spec, "least-queue", "adaptive", o...) }, false},
		{"paired-identical", func(o ...Option) (*Figure, error) { return Paired(same, twinNames[0], twinNames[1], o...) }, true},
	}
}

// harness is a tab holding the ECharts library and measure functions.
// With marks set, a check also fails on text drawn on a data mark.
// wantMarks makes a check fail when it finds no data mark at all, so that
// a figure whose marks the collector misses cannot pass unchecked.
type harness struct {
	tab       context.Context
	marks     bool
	wantMarks bool
}

// harnessJS draws an option (or inserts an SVG) at a size in a fresh
// container and returns every visible text element's box, relative to the
// container, with its font size in px.
const harnessJS = `
window.__box = function (el) {
  var out = [], base = el.getBoundingClientRect();
  el.querySelectorAll("text").forEach(function (t) {
    var s = getComputedStyle(t), r = t.getBoundingClientRect();
    if (!t.textContent.trim() || s.display === "none" || s.visibility === "hidden" || +s.opacity === 0 || r.width === 0) return;
    out.push({Text: t.textContent, X: r.left - base.left, Y: r.top - base.top, W: r.width, H: r.height, Size: parseFloat(s.fontSize)});
  });
  return out;
};
window.__fresh = function (w, h) {
  var old = document.getElementById("fig");
  if (old) { var c = echarts.getInstanceByDom(old); if (c) c.dispose(); old.remove(); }
  var el = document.createElement("div");
  el.id = "fig";
  el.style.cssText = "width:" + w + "px;height:" + h + "px;background:#fff";
  document.body.appendChild(el);
  return el;
};
window.__marks = function (chart) {
  // The data marks: every drawn element of a series view but its texts
  // (and a heatmap's cells, which hold their values by design). A line
  // (a zrender Line, or a polyline's vertices) is kept as its segments;
  // anything else as its box. A bar keeps its own label's text, which
  // may sit inside it.
  var out = [], seen = [];
  chart.getModel().eachSeries(function (s) {
    var type = s.subType, view = chart.getViewOfSeriesModel(s);
    if (!view || type === "heatmap") return;
    view.group.traverse(function (e) {
      if (e.isGroup || e.ignore || e.invisible || e.type === "text" || e.type === "tspan" || e.type === "image") return;
      var st = e.style || {};
      if (st.opacity === 0 || ((!st.fill || st.fill === "none") && (!st.stroke || st.stroke === "none" || !st.lineWidth))) return;
      var m = e.getComputedTransform(), pt = function (x, y) {
        return m ? [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]] : [x, y];
      };
      var own = e.getTextContent && e.getTextContent() ? (e.getTextContent().style.text || "") : "";
      var sh = e.shape || {};
      if (sh.x1 !== undefined && sh.y2 !== undefined) {
        var a = pt(sh.x1, sh.y1), b = pt(sh.x2, sh.y2);
        out.push({Series: s.name || type, Kind: "segment", Seg: [a[0], a[1], b[0], b[1]]});
        return;
      }
      if (sh.points && !(st.fill && st.fill !== "none")) {
        var p = sh.points, n = p.length, flat = typeof p[0] === "number";
        var at = function (i) { return flat ? pt(p[2 * i], p[2 * i + 1]) : pt(p[i][0], p[i][1]); };
        var k = flat ? n / 2 : n;
        for (var i = 1; i < k; i++) {
          var a = at(i - 1), b = at(i);
          if (isNaN(a[0] + a[1] + b[0] + b[1])) continue;
          out.push({Series: s.name || type, Kind: "segment", Seg: [a[0], a[1], b[0], b[1]]});
        }
        return;
      }
      if (sh.points) return; // an area's fill is no mark
      var r = e.getBoundingRect().clone();
      r.applyTransform(m);
      if (r.width === 0 && r.height === 0) return;
      out.push({Series: s.name || type, Kind: type === "bar" ? "bar" : type === "scatter" || type === "line" ? "marker" : "box",
        Own: own, X: r.x, Y: r.y, W: r.width, H: r.height});
    });
  });
  return out;
};
window.__draw = function (option, w, h) {
  var el = __fresh(w, h);
  var chart = echarts.init(el, null, {renderer: "svg"});
  option.animation = false;
  chart.setOption(option);
  return {Texts: __box(el), Marks: __marks(chart)};
};
window.__svg = function (svg, w, h) {
  var el = __fresh(w, h);
  el.innerHTML = svg;
  return __box(el);
};`

func openHarness(t *testing.T, b *browser) *harness {
	var page bytes.Buffer
	if err := writePageHead(&page, "layout", "body { margin: 0; }"); err != nil {
		t.Fatal(err)
	}
	page.WriteString("<script>" + harnessJS + "</script></body></html>")
	b.mu.Lock()
	b.pages["/harness"] = page.Bytes()
	b.mu.Unlock()
	tab, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	var ok bool
	err := chromedp.Run(tab, cdppage.BringToFront(),
		emulation.SetDeviceMetricsOverride(1700, 1400, 1, false),
		chromedp.Navigate(b.server.URL+"/harness"),
		chromedp.Poll(`typeof window.__draw === "function" && !!window.echarts`, &ok, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	return &harness{tab: tab}
}

// textBox is one line of text as the browser laid it out.
type textBox struct {
	Text       string
	X, Y, W, H float64
	Size       float64
}

// markBox is a data mark as ECharts drew it: a segment of a line or
// whisker (Seg: x1, y1, x2, y2), or the box of a marker, bar or box.
type markBox struct {
	Series     string
	Kind       string
	Own        string // a bar's own label, which may sit inside it
	X, Y, W, H float64
	Seg        []float64
}

// drawn is what __draw returns: the texts and the data marks.
type drawn struct {
	Texts []textBox
	Marks []markBox
}

func (h *harness) draw(t *testing.T, name, optionJS string, w, ht int) drawn {
	t.Helper()
	var d drawn
	if err := chromedp.Run(h.tab, chromedp.Evaluate(fmt.Sprintf("__draw(%s, %d, %d)", optionJS, w, ht), &d)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d
}

func (h *harness) check(t *testing.T, name, optionJS string, w, ht int, shots string, minPt float64) {
	t.Helper()
	d := h.draw(t, name, optionJS, w, ht)
	if !h.marks {
		d.Marks = nil
	}
	h.verify(t, name, d.Texts, d.Marks, w, ht, shots, minPt)
}

// checkSVG checks an SVG export. Its texts are measured from the SVG as
// the browser draws it; its data marks are those ECharts lays out for the
// option the export renders (staticJS, at the same size): marks sit at
// data coordinates, which no font measurement moves.
func (h *harness) checkSVG(t *testing.T, name, svg, staticJS string, w, ht int, shots string, minPt float64) {
	t.Helper()
	var marks []markBox
	if h.marks {
		marks = h.draw(t, name, staticJS, w, ht).Marks
	}
	lit, _ := json.Marshal(svg)
	var boxes []textBox
	if err := chromedp.Run(h.tab, chromedp.Evaluate(fmt.Sprintf("__svg(%s, %d, %d)", lit, w, ht), &boxes)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	h.verify(t, name, boxes, marks, w, ht, shots, minPt)
}

// overlapTolerance is how far (px) two boxes may intrude on each other:
// glyph boxes are whole pixels apart at best, and a browser rounds them.
const overlapTolerance = 0.5

// verify checks the boxes and keeps a screenshot.
func (h *harness) verify(t *testing.T, name string, boxes []textBox, marks []markBox, w, ht int, shots string, minPt float64) {
	t.Helper()
	var shot []byte
	if err := chromedp.Run(h.tab, chromedp.Screenshot("#fig", &shot, chromedp.ByQuery)); err != nil {
		t.Errorf("%s: screenshot: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(shots, name+".png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(boxes) < 5 {
		t.Errorf("%s: only %d texts drawn: %v", name, len(boxes), boxes)
	}
	var problems []string
	for i, a := range boxes {
		if a.X < -overlapTolerance || a.Y < -overlapTolerance || a.X+a.W > float64(w)+overlapTolerance || a.Y+a.H > float64(ht)+overlapTolerance {
			problems = append(problems, fmt.Sprintf("%q at %s leaves the %d×%d figure", a.Text, a.rect(), w, ht))
		}
		if minPt > 0 && a.Size*72/96 < minPt-1e-9 {
			problems = append(problems, fmt.Sprintf("%q is %.1f px, %.2f pt at print size: under %g pt", a.Text, a.Size, a.Size*72/96, minPt))
		}
		for _, b := range boxes[i+1:] {
			if a.overlaps(b) {
				problems = append(problems, fmt.Sprintf("%q at %s overlaps %q at %s", a.Text, a.rect(), b.Text, b.rect()))
			}
		}
		for _, m := range marks {
			if a.onMark(m) {
				problems = append(problems, fmt.Sprintf("%q at %s is drawn on %s", a.Text, a.rect(), m))
			}
		}
	}
	if h.wantMarks && len(marks) == 0 {
		problems = append(problems, "no data marks found")
	}
	if len(problems) > 0 {
		t.Errorf("%s (screenshot %s):\n  %s", name, filepath.Join(shots, name+".png"), strings.Join(problems, "\n  "))
	}
}

func (a textBox) overlaps(b textBox) bool {
	dx := min(a.X+a.W, b.X+b.W) - max(a.X, b.X)
	dy := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	return dx > overlapTolerance && dy > overlapTolerance
}

func (a textBox) rect() string {
	return fmt.Sprintf("(%.1f,%.1f %.1f×%.1f)", a.X, a.Y, a.W, a.H)
}

// onMark reports whether text a is drawn on data mark m: on its box by
// more than overlapTolerance each way, or crossed by its segment. A bar's
// own label may sit inside that bar.
func (a textBox) onMark(m markBox) bool {
	if m.Kind == "segment" {
		if len(m.Seg) != 4 {
			return false
		}
		return segmentHits(m.Seg[0], m.Seg[1], m.Seg[2], m.Seg[3],
			a.X+overlapTolerance, a.Y+overlapTolerance, a.X+a.W-overlapTolerance, a.Y+a.H-overlapTolerance)
	}
	if m.Kind == "bar" && m.Own != "" && strings.Contains(m.Own, strings.TrimSpace(a.Text)) {
		return false
	}
	return a.overlaps(textBox{X: m.X, Y: m.Y, W: m.W, H: m.H})
}

func (m markBox) String() string {
	if m.Kind == "segment" && len(m.Seg) == 4 {
		return fmt.Sprintf("a line segment of %q (%.1f,%.1f)–(%.1f,%.1f)", m.Series, m.Seg[0], m.Seg[1], m.Seg[2], m.Seg[3])
	}
	return fmt.Sprintf("a %s of %q at (%.1f,%.1f %.1f×%.1f)", m.Kind, m.Series, m.X, m.Y, m.W, m.H)
}
