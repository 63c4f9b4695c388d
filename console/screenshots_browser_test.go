package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The screenshots of docs/console.md, taken as a user would get there:
// the straggler scenario at 150 req/s under Round Robin, then Adaptive and
// a comparison; light and dark; wide and narrow. With
// ROUTELAB_SCREENSHOTS=../docs/console they go to docs/console/; otherwise they go
// to the test's directory, and the test checks the page got there.
func TestConsoleScreenshots(t *testing.T) {
	tb := browse(t, "")
	c := startConsole(t, Config{Policies: writePolicies(t, docsPolicies)})
	tb.open(c.url+"/", 1280, 860)
	tb.run(chromedp.Click("#advanced > summary", chromedp.ByQuery),
		chromedp.SetValue("#scenario", "straggler", chromedp.ByQuery), chromedp.SetValue("#rate", "150", chromedp.ByQuery),
		chromedp.SetValue("#policy", "round-robin", chromedp.ByQuery), chromedp.SetValue("#speed", "1000", chromedp.ByQuery))
	tb.run(chromedp.Click("#reset", chromedp.ByQuery))
	// The page itself slows to the default dilation the moment the
	// straggler has bitten, so a loaded machine cannot let the run reach
	// the recovery at 10 s first; input and change, as a user's choice.
	tb.waitFor("the straggler to bite", `(function () {
  if (parseFloat(document.getElementById("r-time").textContent) < 7.2) { return false; }
  var s = document.getElementById("speed");
  s.value = "120";
  s.dispatchEvent(new Event("input", { bubbles: true }));
  s.dispatchEvent(new Event("change", { bubbles: true }));
  return true;
})()`, 60*time.Second)
	tb.waitFor("the default dilation", `document.getElementById("run-state").textContent.indexOf("running at 120 ") >= 0`, 10*time.Second)
	time.Sleep(1500 * time.Millisecond)
	got := tb.cluster()
	if got.Rows[0].Status != "slowed ×5" || got.Rows[0].Waiting <= got.Rows[1].Waiting {
		t.Errorf("Round Robin should be feeding the straggler: %+v", got.Rows)
	}
	tb.save("console-straggler", "")

	tb.run(chromedp.SetValue("#policy", "adaptive", chromedp.ByQuery), chromedp.Click("#compare", chromedp.ByQuery))
	tb.waitFor("the comparison figure", `(function (f) { return !!f && f.getAttribute("data-routelab-state") === "ready"; })(document.querySelector("#comparison-figure [data-routelab-figure]"))`, 60*time.Second)
	tb.save("console-compare", "#comparison")

	tb.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
		chromedp.Evaluate(`window.scrollTo(0, 0)`, nil))
	time.Sleep(1500 * time.Millisecond)
	var bg string
	tb.eval(`getComputedStyle(document.body).backgroundColor`, &bg)
	if bg != "rgb(22, 22, 26)" {
		t.Errorf("dark mode: the page's background is %s", bg)
	}
	tb.save("console-dark", "")

	tb.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}),
		chromedp.EmulateViewport(420, 900), chromedp.Evaluate(`window.scrollTo(0, 0)`, nil))
	time.Sleep(1500 * time.Millisecond)
	tb.save("console-narrow", "")
	tb.checkProblems()
}

// docsPolicies is the policies file docs/console.md shows (the test below
// keeps them the same).
const docsPolicies = `// Policies for the console's picker: every top-level lab.PolicySpec.
var queueEWMA = lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
	return float64(r.Outstanding+1) * r.ServiceEWMA // lowest cost wins
})
`

func TestDocsShowThePoliciesFile(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "console.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```go\n"+docsPolicies+"```") {
		t.Errorf("docs/console.md does not show the policies file the screenshots use:\n%s", docsPolicies)
	}
}
