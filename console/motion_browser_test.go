package console

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// rafCounter counts requestAnimationFrame callbacks from the page's start.
const rafCounter = `window.__rafCalls = 0;
(function (raf) {
  window.requestAnimationFrame = function (cb) {
    return raf.call(window, function (t) { window.__rafCalls++; cb(t); });
  };
})(window.requestAnimationFrame);`

// motion is what a page animates: animation frames run so far, CSS
// animations and transitions running now, and frames rendered.
type motion struct {
	RAF, Running, Frames int
}

// countAnimationFrames installs rafCounter in every document the tab loads.
func countAnimationFrames() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(rafCounter).Do(ctx)
		return err
	})
}

const motionJS = `({ RAF: window.__rafCalls, Running: document.getAnimations().length, Frames: +document.documentElement.getAttribute("data-frames") })`

// With reduced motion the page starts no continuous animation — no
// animation frame, no transition — and updates at most once a second,
// comparison figure included. A hidden page stops simulated time.
func TestReducedMotionAndHiddenInChromium(t *testing.T) {
	tb := browse(t, "")
	c := startConsole(t, Config{})
	tb.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}),
		countAnimationFrames())
	tb.open(c.url+"/", 1280, 900)
	tb.run(chromedp.Click("#burst", chromedp.ByQuery))
	var first, m motion
	tb.eval(motionJS, &first)
	running := 0
	for i := 0; i < 20; i++ {
		time.Sleep(200 * time.Millisecond)
		tb.eval(motionJS, &m)
		running = max(running, m.Running)
	}
	if m.RAF != 0 || running != 0 {
		t.Errorf("with reduced motion: %d animation frames, up to %d animations running", m.RAF, running)
	}
	if n := m.Frames - first.Frames; n < 2 || n > 5 {
		t.Errorf("with reduced motion: %d frames rendered in 4 s, want about one a second", n)
	}
	t.Logf("reduced motion, 4 s: %d animation frames, %d animations, %d frames rendered", m.RAF, running, m.Frames-first.Frames)

	tb.run(chromedp.Click("#compare", chromedp.ByQuery))
	tb.waitFor("the comparison figure", `(function (f) { return !!f && f.getAttribute("data-routelab-state") === "ready"; })(document.querySelector("#comparison-figure [data-routelab-figure]"))`, 60*time.Second)
	time.Sleep(time.Second)
	var drawn, later motion
	tb.eval(motionJS, &drawn)
	time.Sleep(2 * time.Second)
	tb.eval(motionJS, &later)
	if later.RAF != drawn.RAF || later.Running != 0 {
		t.Errorf("after the comparison figure drew: %d more animation frames in 2 s, %d animations running", later.RAF-drawn.RAF, later.Running)
	}
	t.Logf("comparison figure with reduced motion: %d animation frames to draw it, then %d in 2 s", drawn.RAF, later.RAF-drawn.RAF)

	// The page hidden behind another tab: simulated time stops.
	p := onlyPage(t, c)
	other := tb.newTab()
	other.run(cdppage.BringToFront())
	tb.waitFor("the page to be hidden", `document.visibilityState === "hidden"`, 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	at := p.session().Now()
	time.Sleep(time.Second)
	if now := p.session().Now(); now != at {
		t.Errorf("hidden, simulated time went from %v to %v ms", at, now)
	}
	tb.run(cdppage.BringToFront())
	tb.waitFor("the page to be visible", `document.visibilityState === "visible"`, 10*time.Second)
	time.Sleep(time.Second)
	if now := p.session().Now(); now <= at {
		t.Errorf("visible again, simulated time stayed at %v ms", now)
	}
	tb.checkProblems()
}

// With motion, marks do move: the measure above sees animations.
func TestMotionAnimatesInChromium(t *testing.T) {
	tb := browse(t, "")
	c := startConsole(t, Config{})
	tb.run(countAnimationFrames())
	tb.open(c.url+"/", 1280, 900)
	running := 0
	var m motion
	for i := 0; i < 20 && running == 0; i++ {
		time.Sleep(200 * time.Millisecond)
		tb.eval(motionJS, &m)
		running = max(running, m.Running)
	}
	if running == 0 {
		t.Error("no animation ran in 4 s: marks should move from the router to their queues")
	}
	tb.checkProblems()
}

func onlyPage(t *testing.T, c *testConsole) *page {
	t.Helper()
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	if len(c.srv.pages) != 1 {
		t.Fatalf("%d pages", len(c.srv.pages))
	}
	for _, p := range c.srv.pages {
		return p
	}
	return nil
}

// Every control is reached with Tab, in page order, shows where the focus
// is, and works from the keyboard.
func TestKeyboardInChromium(t *testing.T) {
	tb := browse(t, "")
	c := startConsole(t, Config{})
	tb.open(c.url+"/", 1280, 900)
	var order []string
	for i := 0; i < 30; i++ {
		tb.run(chromedp.KeyEvent(kb.Tab))
		var focus struct{ ID, Tag, Outline string }
		tb.eval(`(function (e) { return { ID: e.id || e.name || e.textContent.trim(), Tag: e.tagName, Outline: getComputedStyle(e).outlineStyle }; })(document.activeElement)`, &focus)
		if focus.Tag == "BODY" {
			break
		}
		if focus.Outline == "none" {
			t.Errorf("%s %q has the focus and no outline", focus.Tag, focus.ID)
		}
		order = append(order, focus.ID)
	}
	want := "policy pause reset burst replica straggler fail recover Advanced controls compare-on compare dl-json dl-go"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("Tab visits %q, want %q", got, want)
	}
	tb.run(chromedp.Focus("#burst", chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the burst in the timeline", `document.getElementById("timeline").textContent.indexOf("rate 200 req/s") >= 0`, 10*time.Second)
	tb.run(chromedp.Focus("#pause", chromedp.ByQuery), chromedp.KeyEvent(" "))
	tb.waitFor("paused", `document.getElementById("pause").getAttribute("aria-pressed") === "true"`, 10*time.Second)
	tb.checkProblems()
}
