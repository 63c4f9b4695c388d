package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/routelab/routelab/internal/widgetfront"
)

// TestWidgetsInChromium runs routelab's kernel behind a real Notebook
// server and renders its widgets in Chromium through web/widgetfront:
// moving a lab.Interact slider redraws the comparison figure for the new
// rate, and the live view's straggler button marks the replica slowed.
// Screenshots go to the test's directory and to $ROUTELAB_SCREENSHOTS.
func TestWidgetsInChromium(t *testing.T) {
	j := installKernel(t)
	var env []string
	for _, kv := range j.env {
		if strings.HasPrefix(kv, "JUPYTER_PATH=") {
			env = append(env, kv)
		}
	}
	f := widgetfront.Start(t, widgetfront.Options{KernelName: "routelab", Env: env})
	shots := []string{t.ArtifactDir()}
	if d := os.Getenv("ROUTELAB_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		shots = append(shots, d)
	}
	shot := func(name string) {
		for _, d := range shots {
			f.Screenshot(filepath.Join(d, "widgets-"+name+".png"))
		}
	}

	// The figure's title names the rate, so the chart the page draws says
	// which run it shows.
	if st := f.Run(`it := lab.Interact(func(rate float64, policy string) any {
	scn := lab.Steady().Rate(rate).Seeds(2).Measure(3).Name(fmt.Sprintf("steady at %g req/s", rate))
	return lab.Compare(scn, lab.RoundRobin(), lab.LeastQueue()).Chart()
}, lab.Range("rate", 50, 400, 10).From(100.0), lab.Choice("policy", "round-robin", "least-queue"))
it`); st != "ok" {
		t.Fatalf("the Interact cell: %s", st)
	}
	const cell0 = ".cell[data-index='0'] "
	f.Wait(cell0+".widget-slider .noUi-handle", 20*time.Second)
	title := func() string {
		var s string
		f.Eval(`(() => {
	const el = [...document.querySelectorAll(".cell[data-index='0'] .widget-output [_echarts_instance_]")].pop();
	const chart = el && window.echarts && echarts.getInstanceByDom(el);
	return chart ? JSON.stringify(chart.getOption().title.map(t => t.text)) : "";
})()`, &s)
		return s
	}
	waitTitle := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if got := title(); strings.Contains(got, want) {
				return
			} else if time.Now().After(deadline) {
				shot("timeout")
				t.Fatalf("the figure's title is %q, want it to contain %q", got, want)
			}
		}
	}
	waitTitle("steady at 100 req/s")
	shot("interact-100")
	f.Do(chromedp.Focus(cell0+".widget-slider .noUi-handle", chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight))
	f.Idle()
	waitTitle("steady at 110 req/s")
	if got := f.Text(cell0 + ".widget-readout"); !strings.Contains(got, "110") {
		t.Errorf("the slider's readout shows %q after one step right", got)
	}
	shot("interact-110")

	// The live view: its controls above it; the straggler button slows the
	// replica the dropdown names (replica 1), and the view marks it.
	if st := f.Run(`lv := lab.Live(lab.Steady(), lab.RoundRobin(), 1, lab.Speed(60))`); st != "ok" {
		t.Fatalf("the live view cell: %s", st)
	}
	const cell1 = ".cell[data-index='1'] "
	f.Wait(cell1+"button.widget-button", 20*time.Second)
	var buttons []string
	f.Eval(`[...document.querySelectorAll(".cell[data-index='1'] button.widget-button")].map(b => b.textContent)`, &buttons)
	straggler := -1
	for i, b := range buttons {
		if strings.HasPrefix(b, "straggler") {
			straggler = i
		}
	}
	if straggler < 0 {
		t.Fatalf("no straggler button among %q", buttons)
	}
	// The view's element is replaced at every update: read it in one go.
	view := func() string {
		var s string
		f.Eval(`(document.querySelector(".cell[data-index='1'] [data-display-id]") || {}).textContent || ""`, &s)
		return s
	}
	if strings.Contains(view(), "slowed") {
		t.Fatal("a replica is marked slowed before the button was clicked")
	}
	var nodes []*cdp.Node
	f.Do(chromedp.Nodes(cell1+"button.widget-button", &nodes, chromedp.ByQueryAll))
	f.Do(chromedp.MouseClickNode(nodes[straggler]))
	f.Idle()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(view(), "slowed ×4"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			shot("timeout")
			t.Fatalf("the live view does not mark replica 1 slowed: %.400s", view())
		}
	}
	shot("live-straggler")
	if st := f.Run(`lv.Stop()
fmt.Println(lv.Actions())`); st != "ok" {
		t.Fatalf("stopping the view: %s", st)
	}
	if got := f.Text(".cell[data-index='2'] .stream"); !strings.Contains(got, "replica 1 ×4 slower") {
		t.Errorf("the view recorded %q", got)
	}
}
