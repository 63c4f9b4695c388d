package plot

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// A notebook output made WithStatic shows the figure as a picture where no
// script runs, and the interactive figure in its place where scripts do.
func TestBrowserStaticFallback(t *testing.T) {
	b := startBrowser(t)
	f := buildKind(t, "timeline").WithSVGRenderer(NewSVGRenderer(1))
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	page := htmlDoc("", "", `<div style="width:800px">`+f.WithStatic(svg)+`</div>`)

	b.mu.Lock()
	b.pages["/static-noscript"] = page
	b.mu.Unlock()
	tab, cancel := chromedp.NewContext(b.ctx)
	defer cancel()
	tab, cancelTimeout := context.WithTimeout(tab, time.Minute)
	defer cancelTimeout()
	var img struct{ Loaded, Width, Height float64 }
	err = chromedp.Run(tab, cdppage.BringToFront(), emulation.SetScriptExecutionDisabled(true),
		emulation.SetDeviceMetricsOverride(1000, 900, 1, false),
		chromedp.Navigate(b.server.URL+"/static-noscript"),
		chromedp.Poll(`(function () { var i = document.querySelector("div[data-routelab-figure] img");
		  return i && i.complete ? {Loaded: i.naturalWidth, Width: i.getBoundingClientRect().width, Height: i.getBoundingClientRect().height} : false; })()`,
			&img, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	w, h := f.Size()
	if img.Loaded != float64(w) || img.Width != 800 || img.Height < 0.9*800*float64(h)/float64(w) {
		t.Errorf("without scripts the static image is %+v, want the %d×%d SVG scaled to 800 px", img, w, h)
	}
	var shot []byte
	if err := chromedp.Run(tab, chromedp.Screenshot("div[data-routelab-figure]", &shot, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, "static-noscript.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}

	rep := b.load(t, "/static-script", page, nil)
	rep.clean(t)
	rep.Figures[0].drawn(t, nil)
	var imgs int
	if err := chromedp.Run(rep.tab, chromedp.Evaluate(`document.querySelectorAll("div[data-routelab-figure] img").length`, &imgs)); err != nil || imgs != 0 {
		t.Errorf("with scripts the static image stays (%d, %v)", imgs, err)
	}
}
