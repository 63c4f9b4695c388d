package plot

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// compareImagesJS draws two SVG images of one size into canvases and
// counts the pixels whose colour differs by more than a channel tolerance:
// antialiasing moves by a quarter pixel, a dropped or moved mark does not.
const compareImagesJS = `(function (a, b, w, h) {
  function load(src) {
    return new Promise(function (ok, bad) { var i = new Image(); i.onload = function () { ok(i); }; i.onerror = function () { bad(new Error("image did not load")); }; i.src = src; });
  }
  function pixels(img) {
    var c = document.createElement("canvas"); c.width = w; c.height = h;
    var x = c.getContext("2d"); x.drawImage(img, 0, 0, w, h);
    return x.getImageData(0, 0, w, h).data;
  }
  return Promise.all([load(a), load(b)]).then(function (imgs) {
    var p = pixels(imgs[0]), q = pixels(imgs[1]), differ = 0;
    for (var i = 0; i < p.length; i += 4) {
      if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2]), Math.abs(p[i + 3] - q[i + 3])) > 96) differ++;
    }
    return {Differ: differ, Total: w * h};
  });
})`

// compactSVG must change what the SVG is, not what it shows: each figure
// kind, drawn by Chromium from ECharts' own SVG and from the compacted one,
// differs in almost no pixel, and the compacted SVG is smaller. Both travel
// as data: URLs, the compacted one the way notebook outputs carry it.
func TestBrowserCompactSVGLooksTheSame(t *testing.T) {
	b := startBrowser(t)
	r := NewSVGRenderer(1)
	b.mu.Lock()
	b.pages["/blank"] = htmlDoc("", "", "")
	b.mu.Unlock()
	tab, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	tab, cancelTimeout := context.WithTimeout(tab, 5*time.Minute)
	defer cancelTimeout()
	if err := chromedp.Run(tab, cdppage.BringToFront(), chromedp.Navigate(b.server.URL+"/blank")); err != nil {
		t.Fatal(err)
	}
	for _, k := range figureKinds() {
		t.Run(k.name, func(t *testing.T) {
			f := buildKind(t, k.name)
			raw, err := r.raw(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			small := compactSVG(raw, svgIDPrefix(f))
			if len(small) > len(raw) {
				t.Errorf("compacted SVG is larger: %d bytes, from %d", len(small), len(raw))
			}
			w, h := f.Size()
			a := "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(raw))
			bURL := "data:image/svg+xml;charset=utf-8," + svgDataURL(small)
			if _, err := url.Parse(bURL); err != nil {
				t.Fatalf("the static image's data URL does not parse: %v", err)
			}
			differ := func(a, b string) (got struct{ Differ, Total int }) {
				call := fmt.Sprintf("%s(%q, %q, %d, %d)", compareImagesJS, a, b, w, h)
				if err := chromedp.Run(tab, chromedp.Evaluate(call, &got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
					t.Fatal(err)
				}
				return got
			}
			// The comparison sees a change that matters: the longest text gone.
			longest := ""
			for _, l := range strings.Split(raw, "\n") {
				if strings.HasPrefix(l, "<text") && len(l) > len(longest) {
					longest = l
				}
			}
			if cut := differ(a, "data:image/svg+xml;charset=utf-8,"+svgDataURL(strings.Replace(raw, longest, "", 1))); float64(cut.Differ) <= 0.001*float64(cut.Total) {
				t.Fatalf("dropping the text %q changes only %d of %d pixels: the comparison cannot see a change", longest, cut.Differ, cut.Total)
			}
			got := differ(a, bURL)
			t.Logf("%s: %d → %d bytes (%.0f %%); %d of %d pixels differ", k.name, len(raw), len(small), 100*float64(len(small))/float64(len(raw)), got.Differ, got.Total)
			if got.Total == 0 || float64(got.Differ) > 0.001*float64(got.Total) {
				t.Errorf("%d of %d pixels differ between ECharts' SVG and the compacted one (at most 0.1 %% may)", got.Differ, got.Total)
			}
		})
	}
}
