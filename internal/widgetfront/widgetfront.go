// Package widgetfront drives web/widgetfront, a minimal Jupyter widgets
// front end, in headless Chromium against a real Jupyter Notebook server:
// the harness of the tests that check that widgets render and talk to their
// kernel in a browser. Only tests import it.
package widgetfront

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/routelab/routelab/internal/jupytertest"
	"github.com/routelab/routelab/internal/testutil"
)

// Options says which kernel the front end starts, and in what environment.
type Options struct {
	// KernelName is the kernelspec's name.
	KernelName string
	// Env is added to the Jupyter server's private environment (a
	// jupytertest.Env), e.g. JUPYTER_PATH=DIR for DIR/kernels/NAME.
	Env []string
}

// Front is the page, connected to a kernel through the server.
type Front struct {
	t       testing.TB
	ctx     context.Context
	console testutil.SyncBuffer
	offsite testutil.SyncBuffer // requests that left 127.0.0.1
	logged  int                 // entries of front.log already reported
}

// token authenticates the page to the server; the server listens on
// 127.0.0.1 only and lives as long as the test.
const token = "routelab-widgetfront"

// Dir is web/widgetfront in the source tree, found from this file's path.
func Dir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("widgetfront: no caller information to find web/widgetfront")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "web", "widgetfront")
	if _, err := os.Stat(filepath.Join(dir, "dist", "front.js")); err != nil {
		t.Fatalf("widgetfront: the built front end is missing (see web/widgetfront/README.md): %v", err)
	}
	return dir
}

// Start starts a Jupyter Notebook server, serves the front end, opens it in
// headless Chromium and connects it to a new kernel. Cleanup shuts the
// kernel down and stops the browser and the server; the server's log and
// the page's console are logged if the test failed.
func Start(t testing.TB, opts Options) *Front {
	t.Helper()
	exe := testutil.Chromium(t)
	py := jupytertest.PythonWith(t, "notebook", "tornado")
	page := httptest.NewServer(http.FileServer(http.Dir(Dir(t))))
	t.Cleanup(page.Close)
	port := startServer(t, py, opts.Env)

	f := &Front{t: t}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), browserOptions(exe, profile(t))...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *cdpruntime.EventConsoleAPICalled:
			var args []string
			for _, a := range ev.Args {
				if a.Value != nil {
					args = append(args, string(a.Value))
				} else {
					args = append(args, a.Description)
				}
			}
			fmt.Fprintf(&f.console, "console.%s: %s\n", ev.Type, strings.Join(args, " "))
		case *cdpruntime.EventExceptionThrown:
			fmt.Fprintf(&f.console, "exception: %s\n", ev.ExceptionDetails.Error())
		case *network.EventRequestWillBeSent:
			// The bundle must be self-contained: only the page's server and
			// the Jupyter server, both on 127.0.0.1, may be asked.
			if u, err := url.Parse(ev.Request.URL); err == nil && u.Scheme != "data" && u.Hostname() != "127.0.0.1" {
				f.offsite.Write([]byte(ev.Request.URL + "\n"))
			}
		}
	})
	// The browser belongs to the first Run's context: start it on ctx, not
	// on a child with a timeout, whose end would close it.
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	f.ctx = ctx
	t.Cleanup(func() {
		if off := f.offsite.String(); off != "" {
			t.Errorf("the page requested URLs off 127.0.0.1:\n%s", off)
		}
		if t.Failed() {
			t.Logf("page console:\n%s", f.console.String())
		}
	})
	if err := f.do(time.Minute, chromedp.Navigate(page.URL+"/"),
		chromedp.WaitReady("#cells", chromedp.ByQuery)); err != nil {
		t.Fatalf("opening the front end: %v", err)
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port) + "/"
	connect := fmt.Sprintf("front.connect({baseUrl: %q, wsUrl: %q, token: %q, kernelName: %q})",
		base, "ws://127.0.0.1:"+strconv.Itoa(port)+"/", token, opts.KernelName)
	var kernelID string
	if err := f.do(time.Minute, chromedp.Evaluate(connect, &kernelID, awaitPromise)); err != nil {
		t.Fatalf("connecting to a %q kernel: %v", opts.KernelName, err)
	}
	t.Cleanup(func() {
		// Before the browser goes (cleanups run last first).
		if err := f.do(20*time.Second, chromedp.Evaluate("front.shutdown()", nil, awaitPromise)); err != nil {
			t.Errorf("shutting down kernel %s: %v", kernelID, err)
		}
	})
	return f
}

func awaitPromise(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams {
	return p.WithAwaitPromise(true)
}

// startServer starts the Notebook server on a free port and waits until its
// API answers. The page comes from another origin (the test's HTTP server),
// hence allow_origin; requests carry the token, so XSRF checks are moot.
func startServer(t testing.TB, py string, env []string) int {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(py, "-m", "notebook", "--no-browser", "--allow-root",
		"--ip=127.0.0.1", "--port="+strconv.Itoa(port), "--NotebookApp.port_retries=0",
		"--NotebookApp.token="+token, "--NotebookApp.allow_origin=*",
		"--NotebookApp.disable_check_xsrf=True", "--NotebookApp.notebook_dir="+t.TempDir())
	cmd.Env = jupytertest.NewEnv(t).Environ(env...)
	var log testutil.SyncBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the Notebook server: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		// SIGTERM lets the server shut its kernels down.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("Notebook server log:\n%s", log.String())
		}
	})
	api := fmt.Sprintf("http://127.0.0.1:%d/api?token=%s", port, token)
	for deadline := time.Now().Add(30 * time.Second); ; {
		if resp, err := http.Get(api); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return port
			}
		}
		select {
		case <-exited:
			t.Fatalf("the Notebook server exited: %v\n%s", cmd.ProcessState, log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Notebook server did not answer %s within 30 s\n%s", api, log.String())
		}
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// browserOptions: headless, a fresh profile, and no host but 127.0.0.1
// resolvable, so that the page cannot load anything from the network.
func browserOptions(exe, profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.WindowSize(1000, 800),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.WSURLReadTimeout(time.Minute),
	}
}

// profile is a fresh Chromium profile, removed once the browser has gone;
// its helper processes may still write there for a moment, so removal
// retries.
func profile(t testing.TB) string {
	dir, err := os.MkdirTemp("", "routelab-widgetfront-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for try := 0; os.RemoveAll(dir) != nil; try++ {
			if try == 50 {
				t.Errorf("removing the browser profile %s", dir)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}

func (f *Front) do(timeout time.Duration, actions ...chromedp.Action) error {
	ctx, cancel := context.WithTimeout(f.ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, actions...)
}

// Context is the page's chromedp context, for custom actions.
func (f *Front) Context() context.Context { return f.ctx }

// Do runs chromedp actions on the page, failing the test on error.
func (f *Front) Do(actions ...chromedp.Action) {
	f.t.Helper()
	if err := f.do(30*time.Second, actions...); err != nil {
		f.t.Fatal(err)
	}
}

// Run executes code in a new cell and returns the execute reply's status
// ("ok", "error") once the cell's outputs have rendered. Errors the page
// saw meanwhile fail the test.
func (f *Front) Run(code string) string {
	f.t.Helper()
	src, _ := json.Marshal(code)
	var status string
	err := f.do(time.Minute, chromedp.Evaluate("front.run("+string(src)+")", &status, awaitPromise))
	f.checkLog()
	if err != nil {
		f.t.Fatalf("running %q: %v", code, err)
	}
	return status
}

// Idle waits until the kernel is idle and every message the page sent
// (a widget's update, say) has been answered.
func (f *Front) Idle() {
	f.t.Helper()
	err := f.do(time.Minute, chromedp.Evaluate("front.idle()", nil, awaitPromise))
	f.checkLog()
	if err != nil {
		f.t.Fatalf("waiting for the kernel: %v", err)
	}
}

// checkLog fails the test with the errors front.log gained since last
// checked.
func (f *Front) checkLog() {
	f.t.Helper()
	var log []string
	if err := f.do(10*time.Second, chromedp.Evaluate("front.log", &log)); err != nil {
		f.t.Errorf("reading front.log: %v", err)
		return
	}
	for _, e := range log[f.logged:] {
		f.t.Errorf("front end: %s", e)
	}
	f.logged = len(log)
}

// Wait waits until an element matching the CSS selector sel is visible.
func (f *Front) Wait(sel string, timeout time.Duration) {
	f.t.Helper()
	if err := f.do(timeout, chromedp.WaitVisible(sel, chromedp.ByQuery)); err != nil {
		f.t.Fatalf("waiting for %s: %v", sel, err)
	}
}

// Text is the text content of the first element matching sel.
func (f *Front) Text(sel string) string {
	f.t.Helper()
	var s string
	if err := f.do(30*time.Second, chromedp.TextContent(sel, &s, chromedp.ByQuery)); err != nil {
		f.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// Eval evaluates js in the page (awaiting a promise) into out.
func (f *Front) Eval(js string, out any) {
	f.t.Helper()
	if err := f.do(30*time.Second, chromedp.Evaluate(js, out, awaitPromise)); err != nil {
		f.t.Fatalf("evaluating %s: %v", js, err)
	}
}

// Screenshot saves a full-page PNG to path.
func (f *Front) Screenshot(path string) {
	f.t.Helper()
	var png []byte
	if err := f.do(30*time.Second, chromedp.FullScreenshot(&png, 100)); err != nil {
		f.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		f.t.Fatal(err)
	}
}
