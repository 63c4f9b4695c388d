package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/routelab/routelab/internal/jupytertest"
	"github.com/routelab/routelab/internal/testutil"
)

// liveCells is the notebook the classic Notebook test runs: a live view at
// the specification's pace, a later cell that changes its rate, the replay
// of what was recorded, and a second view to interrupt.
var liveCells = []string{
	`live := lab.Live(lab.Steady().Rate(150), lab.Adaptive(), 7)`,
	`live.SetRate(250)`,
	`live.Finish()
res, replay := live.Result(), lab.Run(live.Scenario(), live.Policy(), 7)
same := res.Fingerprint == replay.Fingerprint && res.Cohort == replay.Cohort && res.Completed == replay.Completed &&
	res.Shed == replay.Shed && res.Unfinished == replay.Unfinished &&
	res.Latency.P50 == replay.Latency.P50 && res.Latency.P90 == replay.Latency.P90 && res.Latency.P99 == replay.Latency.P99
fmt.Println("identical:", same, "completed:", res.Completed, replay.Completed, "p99:", res.Latency.P99, replay.Latency.P99)`,
	`again := lab.Live(lab.Steady(), lab.RoundRobin(), 1)`,
}

// The live view in the classic Notebook (Debian's jupyter-notebook, driven
// in headless Chromium, with the routelab kernel installed in a private
// Jupyter path): the view's display updates in place in the DOM while the
// simulation advances; a later cell changes the rate and the display shows
// the new rate; the recorded session replays headless to identical
// results; interrupting the kernel stops a running view, which says so.
func TestLiveViewInTheClassicNotebook(t *testing.T) {
	py := jupytertest.PythonWith(t, "notebook", "jupyter_client")
	browser := testutil.Chromium(t)
	j := installKernel(t)
	dir := t.TempDir()
	writeNotebook(t, filepath.Join(dir, "live.ipynb"), liveCells...)
	url := startNotebookServer(t, py, j, dir)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser), chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1200, 1000)}...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	page := &notebookPage{t: t, ctx: tab}
	defer page.screenshot()
	page.run(chromedp.Navigate(url + "/notebooks/live.ipynb?token=" + notebookToken))
	page.wait(`typeof Jupyter !== "undefined" && !!Jupyter.notebook && !!Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()`, time.Minute)

	page.execute(0)
	page.wait(viewJS(0, `v !== null`), time.Minute)
	first := page.number(viewJS(0, `+v.dataset.now`))
	page.wait(viewJS(0, fmt.Sprintf(`+v.dataset.now > %v`, first+24)), 30*time.Second) // two frames later at 120 ms/s
	if n := page.number(`document.querySelectorAll(".cell")[0].querySelectorAll(".routelab-live").length`); n != 1 {
		t.Errorf("the first cell holds %v live views; updates must replace the display, not add to it", n)
	}
	if rate := page.text(viewJS(0, `v.dataset.rate`)); rate != "150" {
		t.Errorf("the view shows a rate of %q before the change, want 150", rate)
	}

	page.execute(1)
	page.wait(viewJS(0, `v.dataset.rate === "250"`), 30*time.Second)
	if got := page.text(outputJS(1)); !strings.HasPrefix(got, "rate 250 req/s at ") {
		t.Errorf("the control's cell shows %q", got)
	}
	t.Logf("the display in the first cell updated in place to rate 250 after the second cell ran")

	page.execute(2)
	page.wait(outputJS(2)+`.includes("identical:")`, time.Minute)
	if got := page.text(outputJS(2)); !strings.HasPrefix(got, "identical: true") {
		t.Errorf("the replay of the recorded session: %s", got)
	}
	if state := page.text(viewJS(0, `v.dataset.state`)); state != "ended" {
		t.Errorf("the finished view's state is %q", state)
	}

	page.execute(3)
	page.wait(viewJS(3, `v !== null && v.dataset.state === "running" && +v.dataset.now > 24`), 30*time.Second)
	page.run(chromedp.Evaluate(`Jupyter.notebook.kernel.interrupt()`, nil))
	page.wait(viewJS(3, `v.dataset.state === "ended" && v.textContent.includes("stopped by an interrupt")`), 30*time.Second)
}

// viewJS evaluates cond with v, the live view in cell i's output (or null).
func viewJS(i int, cond string) string {
	return fmt.Sprintf(`(() => { const v = document.querySelectorAll(".cell")[%d].querySelector(".routelab-live"); return %s; })()`, i, cond)
}

// outputJS is the text of cell i's first output ("" before it has one).
func outputJS(i int) string {
	return fmt.Sprintf(`(document.querySelectorAll(".cell")[%d].querySelector(".output_subarea") || {innerText: ""}).innerText.trim()`, i)
}

// notebookPage drives one page of the Notebook.
type notebookPage struct {
	t   *testing.T
	ctx context.Context
}

func (p *notebookPage) run(actions ...chromedp.Action) {
	p.t.Helper()
	if err := chromedp.Run(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func (p *notebookPage) execute(i int) {
	p.t.Helper()
	p.run(chromedp.Evaluate(fmt.Sprintf(`Jupyter.notebook.execute_cells([%d])`, i), nil))
}

// wait polls a JavaScript condition until it holds.
func (p *notebookPage) wait(cond string, timeout time.Duration) {
	p.t.Helper()
	var ok bool
	if err := chromedp.Run(p.ctx, chromedp.Poll(cond, &ok, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(timeout))); err != nil {
		p.t.Fatalf("waiting for %s: %v", cond, err)
	}
}

func (p *notebookPage) number(js string) float64 {
	p.t.Helper()
	var n float64
	p.run(chromedp.Evaluate(js, &n))
	return n
}

func (p *notebookPage) text(js string) string {
	p.t.Helper()
	var s string
	p.run(chromedp.Evaluate(js, &s))
	return s
}

// screenshot keeps the page as the test left it, in the test's artifact
// directory (kept with go test -artifacts).
func (p *notebookPage) screenshot() {
	var png []byte
	if err := chromedp.Run(p.ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		p.t.Logf("no screenshot: %v", err)
		return
	}
	path := filepath.Join(p.t.ArtifactDir(), "notebook-live.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Logf("no screenshot: %v", err)
		return
	}
	p.t.Logf("screenshot: %s", path)
}

// notebookToken guards the test's Notebook server.
const notebookToken = "routelab-live-view-test"

// startNotebookServer runs Debian's classic Notebook server on a free
// loopback port in j's private Jupyter environment, serving dir; it is
// stopped (and its kernels with it) when the test ends.
func startNotebookServer(t *testing.T, py string, j *jupyter, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	args := []string{"-m", "notebook", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--port-retries=0", "--NotebookApp.token=" + notebookToken, "--NotebookApp.notebook_dir=" + dir}
	if os.Geteuid() == 0 { // CI containers run as root, which the server refuses by default
		args = append(args, "--allow-root")
	}
	cmd := exec.Command(py, args...)
	cmd.Env = j.env
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("notebook server log:\n%s", logs.String())
		}
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case <-done:
			t.Fatalf("the notebook server exited:\n%s", logs.String())
		default:
		}
		if resp, err := http.Get(url + "/api/status?token=" + notebookToken); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
	}
	t.Fatalf("the notebook server did not answer within a minute:\n%s", logs.String())
	return ""
}

// Under nbclient (jupyter nbconvert --execute) the kernel runs cells
// headless: a live view shows its run completed at once, and a later
// control updates that display in place, where the executed notebook
// keeps it.
func TestLiveViewUnderNbclientIsHeadless(t *testing.T) {
	py := jupytertest.PythonWith(t, "nbclient", "nbformat", "jupyter_client")
	j := installKernel(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.ipynb"), filepath.Join(dir, "out.ipynb")
	writeNotebook(t, in, `live := lab.Live(lab.Steady(), lab.Adaptive(), 7)`, "live.Wait(2 * time.Second)\nlive.Fail(2)")
	j.python(t, py, "nbexec.py", "execute", "routelab", in, out)
	nb := readNotebook(t, out)
	view := nb.Cells[0].Outputs
	if len(view) != 1 || view[0].Type != "display_data" {
		t.Fatalf("the first cell's outputs: %+v", view)
	}
	text := view[0].Data.Text()
	for _, want := range []string{"15.00 s of 15 s, ended", "replica 2: failed", "headless"} {
		if !strings.Contains(text, want) {
			t.Errorf("the view lacks %q:\n%s", want, text)
		}
	}
	if got := nb.Cells[1].Outputs; len(got) != 1 || got[0].Data.Text() != "fail replica 2 at 2.0005 s" {
		t.Errorf("the control's cell: %+v", got)
	}
}
