package plot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// ErrNoChromium is returned by PNG exports on a machine without Chromium.
var ErrNoChromium = errors.New("plot: PNG export needs Chromium, and none was found " +
	"(looked for /usr/bin/chromium, chromium, chromium-browser, google-chrome on PATH): " +
	"install Debian's chromium package (apt-get install chromium)")

// defaultPNGScale is the device pixel ratio of PNG exports unless
// WithScale says otherwise: twice the figure's CSS size, sharp enough for
// write-ups.
const defaultPNGScale = 2

// maxPNGSide bounds a PNG export's side in device pixels (Chromium's
// screenshots grow unreliable beyond it).
const maxPNGSide = 16384

// WithScale returns a copy of f whose PNG exports have scale device pixels
// per CSS pixel (2 by default; 3 or 4 for print at 300 dpi and more).
func (f *Figure) WithScale(scale float64) (*Figure, error) {
	if f == nil {
		return nil, errNilFigure
	}
	if !defined(scale) || scale < 0.5 || scale > 8 || float64(max(f.width, f.height))*scale > maxPNGSide {
		return nil, fmt.Errorf("plot: PNG scale %g for figure %q (%d×%d px) is not allowed: use 0.5 to 8, with at most %d device pixels per side", scale, f.id, f.width, f.height, maxPNGSide)
	}
	c := *f
	c.pngScale = scale
	return &c, nil
}

// pngDrawTimeout bounds the wait for the page to draw.
const pngDrawTimeout = 30 * time.Second

// chromiumPath finds the browser PNG exports and browser tests run:
// Debian's, else one on PATH.
func chromiumPath() (string, error) { return findBrowser([]string{"/usr/bin/chromium"}) }

func findBrowser(paths []string) (string, error) {
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// browserOptions are the flags headless Chromium needs on this project's
// machines, with a fresh profile directory and name resolution limited by
// resolverRules (Chromium's --host-resolver-rules syntax).
func browserOptions(exe, profile, resolverRules string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("host-resolver-rules", resolverRules),
		// Chromium's start on a busy machine can outlast chromedp's 20 s
		// default; the caller's context still bounds the whole export.
		chromedp.WSURLReadTimeout(time.Minute),
	}
}

// PNG implements display.PNGer: PNGContext with a two-minute limit.
func (f *Figure) PNG() ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return f.PNGContext(ctx)
}

// PNGContext draws the figure's static option in headless Chromium, from a
// standalone page in a temporary directory with every host name
// unresolvable, and returns a PNG of its size times its scale (2 unless
// WithScale says otherwise). An auto theme exports as light on white.
func (f *Figure) PNGContext(ctx context.Context) ([]byte, error) {
	if f == nil {
		return nil, errNilFigure
	}
	exe, err := chromiumPath()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "routelab-png-")
	if err != nil {
		return nil, fmt.Errorf("plot: PNG export of %q: %w", f.id, err)
	}
	defer os.RemoveAll(dir)
	page, err := exportPage(f)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "figure.html")
	if err := os.WriteFile(file, page, 0o600); err != nil {
		return nil, fmt.Errorf("plot: PNG export of %q: %w", f.id, err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, browserOptions(exe, filepath.Join(dir, "profile"), "MAP * ~NOTFOUND")...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	png, err := screenshotFigure(tab, "file://"+file, f.width, f.height, f.pngScale)
	if err != nil {
		return nil, fmt.Errorf("plot: PNG export of %q: %w", f.id, err)
	}
	return png, nil
}

// figureStates reports data-routelab-state of every figure container, once
// none is still loading.
const figureStates = `(function () {
  var all = document.querySelectorAll("div[data-routelab-figure]"), out = [];
  for (var i = 0; i < all.length; i++) {
    var s = all[i].getAttribute("data-routelab-state");
    if (s !== "ready" && s !== "error" && s !== "static") return false;
    out.push(s);
  }
  return out.length ? out : false;
})()`

// screenshotFigure loads url at the given viewport and returns a PNG of the
// page's (only) figure once it has drawn.
func screenshotFigure(tab context.Context, url string, width, height int, scale float64) ([]byte, error) {
	var states []string
	err := chromedp.Run(tab,
		emulation.SetDeviceMetricsOverride(int64(width), int64(height), scale, false),
		chromedp.Navigate(url),
		chromedp.Poll(figureStates, &states, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(pngDrawTimeout)),
	)
	if err != nil {
		return nil, fmt.Errorf("drawing in Chromium: %w", err)
	}
	if len(states) != 1 || states[0] != "ready" {
		var msg string
		_ = chromedp.Run(tab, chromedp.Text("div[data-routelab-figure]", &msg, chromedp.ByQuery))
		return nil, fmt.Errorf("the figure did not draw: %s", msg)
	}
	var png []byte
	if err := chromedp.Run(tab, chromedp.Screenshot("div[data-routelab-figure]", &png, chromedp.ByQuery)); err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return png, nil
}

// CheckPage opens an HTML document (a report, a page, an exported notebook)
// in headless Chromium with every host name unresolvable, waits until each
// figure has drawn or failed, and returns how many drew. A figure that
// failed, or a page without figures, is an error. It proves a document
// works offline, as it would for a reader without network.
func CheckPage(ctx context.Context, page []byte) (int, error) {
	exe, err := chromiumPath()
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "routelab-check-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "page.html")
	if err := os.WriteFile(file, page, 0o600); err != nil {
		return 0, err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, browserOptions(exe, filepath.Join(dir, "profile"), "MAP * ~NOTFOUND")...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	var figures int
	err = chromedp.Run(tab,
		chromedp.Navigate("file://"+file),
		chromedp.Evaluate(`document.querySelectorAll("div[data-routelab-figure]").length`, &figures),
	)
	if err != nil {
		return 0, fmt.Errorf("plot: checking the page in Chromium: %w", err)
	}
	if figures == 0 {
		return 0, errors.New("plot: the page has no figure")
	}
	var states []string
	err = chromedp.Run(tab, chromedp.Poll(figureStates, &states, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(pngDrawTimeout)))
	if err != nil {
		return 0, fmt.Errorf("plot: checking the page in Chromium (a figure still loading): %w", err)
	}
	drawn := 0
	for i, s := range states {
		if s != "ready" {
			return drawn, fmt.Errorf("plot: figure %d of %d did not draw (%s)", i+1, len(states), s)
		}
		drawn++
	}
	return drawn, nil
}
