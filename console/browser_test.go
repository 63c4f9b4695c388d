package console

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/routelab/routelab/internal/testutil"
)

// tab is one page of the console in headless Chromium, which resolves no
// host name but 127.0.0.1: anything loaded from elsewhere is a problem, as
// is any console error or exception.
type tab struct {
	t        *testing.T
	ctx      context.Context
	shots    string
	mu       sync.Mutex
	problems []string
	expected []string // problems that are not: parts of their text
}

// browse starts Chromium (one per test) and returns a tab; more tabs of
// the same browser come from newTab.
func browse(t *testing.T, downloads string) *tab {
	exe := testutil.Chromium(t)
	profile, err := os.MkdirTemp("", "routelab-console-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.UserDataDir(profile), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		for try := 0; try < 50 && os.RemoveAll(profile) != nil; try++ { // helpers may still write for a moment
			time.Sleep(100 * time.Millisecond)
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	if downloads != "" {
		if err := chromedp.Run(ctx, browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(downloads)); err != nil {
			t.Fatal(err)
		}
	}
	return watch(t, ctx)
}

// newTab opens another tab in the same browser.
func (tb *tab) newTab() *tab {
	ctx, cancel := chromedp.NewContext(tb.ctx)
	tb.t.Cleanup(cancel)
	if err := chromedp.Run(ctx); err != nil {
		tb.t.Fatal(err)
	}
	return watch(tb.t, ctx)
}

func watch(t *testing.T, ctx context.Context) *tab {
	tb := &tab{t: t, ctx: ctx, shots: t.TempDir()}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				tb.problem("console.error: %s", strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			tb.problem("exception: %s", ev.ExceptionDetails.Error())
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				tb.problem("log: %s %s", ev.Entry.Text, ev.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			if u := ev.Request.URL; !strings.HasPrefix(u, "http://127.0.0.1:") && !strings.HasPrefix(u, "data:") {
				tb.problem("a request left the console: %s", u)
			}
		}
	})
	return tb
}

func (tb *tab) problem(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, e := range tb.expected {
		if strings.Contains(msg, e) {
			return
		}
	}
	tb.problems = append(tb.problems, msg)
}

// expect says that a problem whose text contains part is expected.
func (tb *tab) expect(part string) {
	tb.mu.Lock()
	tb.expected = append(tb.expected, part)
	tb.mu.Unlock()
}

// checkProblems fails the test for anything that went wrong in the tab.
func (tb *tab) checkProblems() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		tb.t.Error(p)
	}
}

func (tb *tab) run(actions ...chromedp.Action) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression into out.
func (tb *tab) eval(js string, out any) {
	tb.t.Helper()
	tb.run(chromedp.Evaluate(js, out))
}

// waitFor polls a JavaScript condition until it holds.
func (tb *tab) waitFor(what, cond string, timeout time.Duration) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, timeout)
	defer cancel()
	var ok bool
	if err := chromedp.Run(ctx, chromedp.Poll(cond, &ok, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		var dump string
		_ = chromedp.Run(tb.ctx, chromedp.Evaluate(`document.getElementById("run-state").textContent + " | " + document.getElementById("message").textContent`, &dump))
		tb.t.Fatalf("waiting for %s: %v (page: %s)", what, err, dump)
	}
}

// open loads the console at a viewport size and waits for its first frames.
func (tb *tab) open(url string, width, height int64) {
	tb.t.Helper()
	tb.run(cdppage.BringToFront(), emulation.SetDeviceMetricsOverride(width, height, 1, false), chromedp.Navigate(url))
	tb.waitFor("frames", `+document.documentElement.getAttribute("data-frames") >= 2`, 20*time.Second)
}

// save writes a PNG of the viewport (what ""), of the whole page ("page")
// or of the element a CSS selector finds, as NAME.png in
// ROUTELAB_SCREENSHOTS or else the test's directory, and prints the path.
func (tb *tab) save(name, what string) {
	tb.t.Helper()
	var png []byte
	switch what {
	case "":
		tb.run(chromedp.CaptureScreenshot(&png))
	case "page":
		tb.run(chromedp.FullScreenshot(&png, 100))
	default:
		tb.run(chromedp.Screenshot(what, &png, chromedp.ByQuery))
	}
	dir := tb.shots
	if d := os.Getenv("ROUTELAB_SCREENSHOTS"); d != "" {
		dir = d
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Logf("screenshot: %s", path)
}
