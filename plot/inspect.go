package plot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"
)

// EvaluatePage opens an HTML document in headless Chromium with every host
// name unresolvable, waits until its figures (if any) have drawn or
// failed, evaluates the JavaScript expression script and stores its JSON
// value in result. Tests use it to read what a reader sees: the lists and
// links a notebook's markdown became, say.
func EvaluatePage(ctx context.Context, page []byte, script string, result any) error {
	exe, err := chromiumPath()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "routelab-inspect-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "page.html")
	if err := os.WriteFile(file, page, 0o600); err != nil {
		return err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, browserOptions(exe, filepath.Join(dir, "profile"), "MAP * ~NOTFOUND")...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	const settled = `(function () {
  var all = document.querySelectorAll("div[data-routelab-figure]");
  for (var i = 0; i < all.length; i++) {
    var s = all[i].getAttribute("data-routelab-state");
    if (s !== "ready" && s !== "error" && s !== "static") return false;
  }
  return true;
})()`
	var ok bool
	err = chromedp.Run(tab,
		chromedp.Navigate("file://"+file),
		chromedp.Poll(settled, &ok, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(pngDrawTimeout)),
		chromedp.Evaluate(script, result),
	)
	if err != nil {
		return fmt.Errorf("plot: evaluating a script on the page in Chromium: %w", err)
	}
	return nil
}
