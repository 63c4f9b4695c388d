package plot

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/routelab/routelab/internal/testutil"
)

// browser is one headless Chromium that resolves no host but 127.0.0.1,
// and a test server there that serves the pages under test.
type browser struct {
	ctx    context.Context
	server *httptest.Server
	shots  string
	mu     sync.Mutex
	pages  map[string][]byte
}

func startBrowser(t *testing.T) *browser {
	exe := testutil.Chromium(t)
	b := &browser{pages: map[string][]byte{}, shots: t.TempDir()}
	if dir := os.Getenv("ROUTELAB_SCREENSHOTS"); dir != "" {
		b.shots = dir // keep them to look at
	}
	requirejs, err := os.ReadFile("testdata/requirejs/require.js")
	if err != nil {
		t.Fatal(err)
	}
	b.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/require.js" {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(requirejs)
			return
		}
		b.mu.Lock()
		page, ok := b.pages[r.URL.Path]
		b.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	t.Cleanup(b.server.Close)
	profile := browserProfile(t)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		browserOptions(exe, profile, "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1")...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	b.ctx = ctx
	return b
}

// browserProfile is a fresh Chromium profile directory, removed after the
// browser has gone. Chromium's helper processes can still write to it for a
// moment after the browser exits, which made t.TempDir's cleanup fail now
// and then ("directory not empty"), so removal retries briefly.
func browserProfile(t *testing.T) string {
	dir, err := os.MkdirTemp("", "routelab-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for try := 0; ; try++ {
			err := os.RemoveAll(dir)
			if err == nil {
				return
			}
			if try == 50 {
				t.Errorf("removing the browser profile: %v", err)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}

// figureReport is what the page says about one figure container.
type figureReport struct {
	ID, Figure, State, Theme, Text string
	Canvas                         bool
	Painted, Total                 int
	Hits                           map[string]int
}

// pageReport is one loaded page: its figures, and anything that went wrong
// there (console errors, exceptions, requests that left 127.0.0.1).
type pageReport struct {
	Figures  []figureReport
	Bold     int
	Problems []string
	tab      context.Context
}

// inspectJS describes every figure container; colours are counted where a
// canvas pixel matches one of them within a small tolerance.
const inspectJS = `(function (colors) {
  var want = colors.map(function (c) { return [c, parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)]; });
  var figs = Array.prototype.map.call(document.querySelectorAll("div[data-routelab-figure]"), function (el) {
    var c = el.querySelector("canvas"), painted = 0, total = 0, hits = {};
    if (c) {
      var px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      total = c.width * c.height;
      for (var i = 0; i < px.length; i += 4) {
        if (px[i + 3] === 0) continue;
        painted++;
        if (px[i + 3] < 150) continue; // scatter symbols are drawn at opacity 0.8
        for (var k = 0; k < want.length; k++) {
          var w = want[k];
          if (Math.abs(px[i] - w[1]) <= 6 && Math.abs(px[i + 1] - w[2]) <= 6 && Math.abs(px[i + 2] - w[3]) <= 6) hits[w[0]] = (hits[w[0]] || 0) + 1;
        }
      }
    }
    return { ID: el.id, Figure: el.getAttribute("data-routelab-figure"), State: el.getAttribute("data-routelab-state"),
      Theme: el.getAttribute("data-routelab-theme") || "", Text: el.textContent, Canvas: !!c, Painted: painted, Total: total, Hits: hits };
  });
  return { Figures: figs, Bold: document.getElementsByTagName("b").length };
})`

// load serves page at path, opens it in a new tab, waits until every figure
// has drawn or failed, and reports. The tab stays open until the test ends.
func (b *browser) load(t *testing.T, path string, page []byte, colors []string) *pageReport {
	t.Helper()
	b.mu.Lock()
	b.pages[path] = page
	b.mu.Unlock()
	tab, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	tab, cancelTimeout := context.WithTimeout(tab, 60*time.Second)
	t.Cleanup(cancelTimeout)
	rep := &pageReport{tab: tab}
	var mu sync.Mutex
	problem := func(format string, a ...any) {
		mu.Lock()
		rep.Problems = append(rep.Problems, fmt.Sprintf(format, a...))
		mu.Unlock()
	}
	chromedp.ListenTarget(tab, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				problem("console.%s: %s", ev.Type, strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			problem("exception: %s", ev.ExceptionDetails.Error())
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				problem("log: %s %s", ev.Entry.Text, ev.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			u := ev.Request.URL
			if !strings.HasPrefix(u, b.server.URL+"/") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") && !strings.HasPrefix(u, "about:") {
				problem("request left the test server: %s", u)
			}
		}
	})
	var states []string
	err := chromedp.Run(tab,
		cdppage.BringToFront(), // background tabs get no animation frames
		emulation.SetDeviceMetricsOverride(1000, 700, 1, false),
		chromedp.Navigate(b.server.URL+path),
		chromedp.Poll(figureStates, &states, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)),
	)
	if err != nil {
		t.Fatalf("%s: %v (problems so far: %v)", path, err, rep.Problems)
	}
	rep.inspect(t, colors)
	b.screenshots(t, rep, path)
	return rep
}

func (rep *pageReport) inspect(t *testing.T, colors []string) {
	t.Helper()
	if err := chromedp.Run(rep.tab, chromedp.Evaluate(inspectJS+"("+jsArray(colors)+")", rep)); err != nil {
		t.Fatalf("inspecting: %v", err)
	}
}

func jsArray(s []string) string {
	quoted := make([]string, len(s))
	for i, v := range s {
		quoted[i] = jsString(v)
	}
	return "[" + strings.Join(quoted, ",") + "]"
}

// screenshots writes a PNG of every figure container and checks it holds a
// real picture.
func (b *browser) screenshots(t *testing.T, rep *pageReport, path string) {
	t.Helper()
	for _, f := range rep.Figures {
		var buf []byte
		if err := chromedp.Run(rep.tab, chromedp.Screenshot("#"+f.ID, &buf, chromedp.ByQuery)); err != nil {
			t.Errorf("screenshot of %s: %v", f.ID, err)
			continue
		}
		name := filepath.Join(b.shots, strings.Trim(strings.ReplaceAll(path, "/", "-"), "-")+"-"+f.ID+".png")
		if err := os.WriteFile(name, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(buf))
		if err != nil {
			t.Errorf("screenshot %s: %v", name, err)
			continue
		}
		min := 5_000 // an empty figure-sized PNG is about 2 KB
		if f.State != "ready" {
			min = 1_000 // a message, not a chart
		}
		if len(buf) < min || img.Bounds().Dx() < 100 {
			t.Errorf("screenshot %s: %d bytes, %v: too small to hold the figure", name, len(buf), img.Bounds())
		}
	}
}

// drawn checks that a figure drew: ready, a canvas with at least 2% of its
// pixels painted, and each of colors present.
func (f figureReport) drawn(t *testing.T, colors []string) {
	t.Helper()
	if f.State != "ready" || !f.Canvas {
		t.Errorf("figure %s (%s): state %q, canvas %v, text %q", f.ID, f.Figure, f.State, f.Canvas, f.Text)
		return
	}
	if f.Painted*50 < f.Total {
		t.Errorf("figure %s: only %d of %d pixels painted", f.ID, f.Painted, f.Total)
	}
	for _, c := range colors {
		if f.Hits[c] < 20 {
			t.Errorf("figure %s: series colour %s on %d pixels", f.ID, c, f.Hits[c])
		}
	}
}

func (rep *pageReport) clean(t *testing.T) {
	t.Helper()
	for _, p := range rep.Problems {
		t.Error(p)
	}
	if rep.Bold != 0 {
		t.Errorf("%d <b> elements: a user string became markup", rep.Bold)
	}
}

// seriesColors is what each sample must show: its series' palette colours
// (heat maps are coloured by value instead).
func seriesColors(f *Figure) []string {
	if f.kind == "heatmap" {
		return nil
	}
	return DefaultPalette().colors(f.Series())
}

func allSampleFigures(t *testing.T) []*Figure {
	var figs []*Figure
	for _, s := range samples {
		figs = append(figs, sampleFigure(t, s.name))
	}
	return figs
}

func colorsOf(figs ...*Figure) []string {
	var out []string
	for _, f := range figs {
		out = append(out, seriesColors(f)...)
	}
	return out
}

// htmlDoc wraps body in a minimal document; head goes first in <head>.
func htmlDoc(head, bodyAttrs, body string) []byte {
	return []byte(`<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>test</title>` +
		head + `</head><body ` + bodyAttrs + `>` + body + `</body></html>`)
}

func checkAll(t *testing.T, rep *pageReport, figs []*Figure) {
	t.Helper()
	rep.clean(t)
	if len(rep.Figures) != len(figs) {
		t.Fatalf("%d figure containers, want %d", len(rep.Figures), len(figs))
	}
	for i, f := range figs {
		rep.Figures[i].drawn(t, seriesColors(f))
	}
}

// The tests' Chromium gate (internal/testutil) finds the browser the
// exports use, so a test that passes the gate exercises that browser.
func TestChromiumGateFindsTheExportsBrowser(t *testing.T) {
	exe, err := chromiumPath()
	got := testutil.FindChromium()
	if (err == nil) != (got != "") || (err == nil && got != exe) {
		t.Errorf("the exports use %q (%v); the tests' gate finds %q", exe, err, got)
	}
}
