package worker

import (
	"context"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
)

func TestCellsRunInTheWorkerAndKeepState(t *testing.T) {
	h := supervise(t, "serve", nil)
	h.Start()
	rec, v, err := run(t, h, "x = 7\nprint hi $x\neprint warn\nhtml <b>b</b>\necho $x")
	if err != nil || v.Text() != "7" {
		t.Fatalf("cell: %v, value %v", err, v)
	}
	if got := rec.String(); got != "stdout:hi 7\nstderr:warn\n" {
		t.Errorf("streams %q", got)
	}
	if len(rec.displays) != 1 || rec.displays[0][display.TextHTML] != "<b>b</b>" {
		t.Errorf("displays %v", rec.displays)
	}
	if _, v, err := run(t, h, "x"); err != nil || v.Text() != "7" {
		t.Errorf("x in the next cell: %v %v", v, err)
	}
	if _, _, err := run(t, h, "fail boom"); err == nil || err.Name != "EchoError" || err.Value != "boom" {
		t.Errorf("failing cell: %v", err)
	}
	if c := h.Complete("pri", 3); strings.Join(c.Matches, " ") != "print" || c.Start != 0 || c.End != 3 {
		t.Errorf("complete %+v", c)
	}
	if doc, found := h.Inspect("x", 1); !found || doc.Text() != "x = 7" {
		t.Errorf("inspect %v %v", doc, found)
	}
	if st, _ := h.IsComplete("{\necho 1"); st != "incomplete" {
		t.Errorf("is_complete %q", st)
	}
}

// While a cell runs, completion, inspection and is-complete are answered
// and an interrupt stops the cell; the interrupt takes one write.
func TestRequestsOverlapARunningCell(t *testing.T) {
	h := supervise(t, "serve", nil)
	run(t, h, "x = 1")
	done := make(chan *display.Error, 1)
	go func() { _, _, err := run(t, h, "loop"); done <- err }()
	time.Sleep(100 * time.Millisecond) // the cell runs
	if c := h.Complete("ech", 3); strings.Join(c.Matches, " ") != "echo" {
		t.Errorf("complete while a cell runs: %+v", c)
	}
	if st, _ := h.IsComplete("echo 1"); st != "complete" {
		t.Errorf("is_complete while a cell runs: %q", st)
	}
	if _, found := h.Inspect("x", 1); !found {
		t.Error("inspect while a cell runs found nothing")
	}
	t0 := time.Now()
	h.Interrupt()
	select {
	case err := <-done:
		t.Logf("interrupt -> cell ended: %v", time.Since(t0))
		if err == nil || err.Name != "Interrupted" {
			t.Errorf("interrupted cell: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cell did not stop after Interrupt")
	}
	if _, v, err := run(t, h, "x"); err != nil || v.Text() != "1" {
		t.Errorf("state after the interrupt: %v %v", v, err)
	}
}

// A context cancelled while a cell runs interrupts it, as in-process
// sessions do.
func TestCancelledContextInterruptsTheCell(t *testing.T) {
	h := supervise(t, "serve", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := h.Execute(ctx, "loop", &recorder{})
	if de, ok := err.(*display.Error); !ok || de.Name != "Interrupted" {
		t.Errorf("cell under an expiring context: %v", err)
	}
}

// Each way a Go process dies: the running cell fails with SessionDied and
// the reason, without the goroutine dump (which is in the log), and the
// next cell runs in a fresh session without the old variables.
func TestDeathInACellIsReportedAndAFreshSessionRuns(t *testing.T) {
	cases := []struct{ code, reason string }{
		{"mapwrites", "concurrent map writes"},
		{"throw", "sync: unlock of unlocked mutex"},
		{"exit 3", "the worker process exited with status 3"},
	}
	for _, c := range cases {
		t.Run(strings.Fields(c.code)[0], func(t *testing.T) {
			h := supervise(t, "serve", nil)
			run(t, h, "x = kept")
			before := h.pid(t)
			rec, _, err := run(t, h, "print started\n"+c.code)
			want := "the session died: " + c.reason + "; its variables are lost; a fresh session is ready"
			if err == nil || err.Name != "SessionDied" || err.Value != want {
				t.Fatalf("got %v\nwant SessionDied: %s", err, want)
			}
			if rec.String() != "stdout:started\n" {
				t.Errorf("output before the death: %q", rec.String())
			}
			if tb := strings.Join(err.Traceback, "\n"); strings.Contains(tb, "goroutine") || !strings.Contains(tb, "the test log") {
				t.Errorf("traceback:\n%s", tb)
			}
			if c.code != "exit 3" && !strings.Contains(h.logs.String(), "goroutine ") {
				t.Errorf("the runtime's report is not in the log:\n%s", h.logs.String())
			}
			_, _, err = run(t, h, "x")
			if err == nil || err.Name != "NameError" {
				t.Errorf("x after the death: %v (want NameError: a fresh session)", err)
			}
			if after := h.pid(t); after == before {
				t.Errorf("still worker %d", after)
			}
		})
	}
}

// The last position a session reported names the line a death happened on.
func TestDeathNamesTheLastPosition(t *testing.T) {
	h := supervise(t, "serve", nil)
	_, _, err := run(t, h, "at 3 9\nmapwrites")
	if err == nil || !strings.HasPrefix(err.Value, "the session died at line 3:9: concurrent map writes;") {
		t.Errorf("got %v", err)
	}
}

func TestKilledWorkerIsReported(t *testing.T) {
	h := supervise(t, "serve", nil)
	pid := h.pid(t)
	go func() {
		time.Sleep(100 * time.Millisecond)
		syscall.Kill(pid, syscall.SIGKILL)
	}()
	_, _, err := run(t, h, "loop")
	if want := "the session died: killed by signal 9 (killed); its variables are lost; a fresh session is ready"; err == nil || err.Value != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// A worker that dies between cells is replaced at once; the next cell says
// so on stderr and runs.
func TestDeathBetweenCellsIsToldByTheNextCell(t *testing.T) {
	h := supervise(t, "serve", nil)
	run(t, h, "x = 1")
	pid := h.pid(t)
	syscall.Kill(pid, syscall.SIGKILL)
	h.awaitDeath(t)
	rec, v, err := run(t, h, "echo fine")
	if err != nil || v.Text() != "fine" {
		t.Fatalf("cell after an idle death: %v %v", v, err)
	}
	want := "stderr:[routelab: the session died while no cell was running (killed by signal 9 (killed)); " +
		"a fresh session was started, and the variables of earlier cells are lost]\n"
	if rec.String() != want {
		t.Errorf("streams %q\nwant %q", rec.String(), want)
	}
	if rec, _, _ := run(t, h, "echo again"); rec.String() != "" {
		t.Errorf("told twice: %q", rec.String())
	}
}

// What the worker writes on its standard error or to its real standard
// output outside the protocol reaches the log, never a cell.
func TestStrayOutputGoesToTheLog(t *testing.T) {
	h := supervise(t, "serve", nil)
	rec, _, err := run(t, h, "stray yaegi: nil type\nstdout raw bytes\nprint ok")
	if err != nil || rec.String() != "stdout:ok\n" {
		t.Fatalf("cell: %v, streams %q", err, rec.String())
	}
	if _, v, _ := run(t, h, "echo 1"); v.Text() != "1" {
		t.Error("the worker is unusable after stray output")
	}
	for _, want := range []string{"nil type", "raw bytes"} {
		if !strings.Contains(h.logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, h.logs.String())
		}
	}
}

// Output a session sends outside any cell reaches the background sink.
func TestOutputOutsideACellReachesTheBackgroundSink(t *testing.T) {
	bg := &recorder{}
	h := supervise(t, "serve", bg)
	if _, _, err := run(t, h, "later tick"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); bg.String() == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
	}
	if bg.String() != "stdout:tick\n" {
		t.Errorf("background sink got %q", bg.String())
	}
}

// A background sink set on a running supervisor (kernel.Serve sets its
// own) receives what the worker it already runs sends outside any cell.
func TestSetBackgroundSinkReachesTheRunningWorker(t *testing.T) {
	h := supervise(t, "serve", nil)
	h.pid(t)
	bg := &recorder{}
	h.SetBackgroundSink(bg)
	if _, _, err := run(t, h, "later tock"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); bg.String() == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
	}
	if bg.String() != "stdout:tock\n" {
		t.Errorf("background sink got %q", bg.String())
	}
}

// headlessRecorder is the sink of a headless run (routelab run, nbclient).
type headlessRecorder struct{ recorder }

func (*headlessRecorder) Headless() bool { return true }

// Whether a cell's sink is headless reaches the session in the worker.
func TestHeadlessReachesTheWorker(t *testing.T) {
	h := supervise(t, "serve", nil)
	for _, c := range []struct {
		sink display.Sink
		want string
	}{{&recorder{}, "false"}, {&headlessRecorder{}, "true"}} {
		v, err := h.Execute(context.Background(), "headless", c.sink)
		if err != nil || v.Text() != c.want {
			t.Errorf("sink %T: the worker's cell says headless %q (%v), want %s", c.sink, v.Text(), err, c.want)
		}
	}
}

func TestAWorkerThatCannotStartIsReported(t *testing.T) {
	h := supervise(t, "fail-start", nil)
	for range 2 { // and again: each cell tries a fresh start
		_, _, err := run(t, h, "echo 1")
		if err == nil || err.Name != "SessionError" || !strings.Contains(err.Value, "no symbols today") {
			t.Errorf("cell: %v", err)
		}
	}
	if c := h.Complete("ech", 3); len(c.Matches) != 0 {
		t.Errorf("completion without a session: %+v", c)
	}
}

// Close with a cell running stops the worker (it interrupts the cell and
// exits); the harness checks that no worker is left.
func TestCloseStopsAWorkerWithARunningCell(t *testing.T) {
	h := supervise(t, "serve", nil)
	pid := h.pid(t)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		run(t, h, "loop")
	}()
	time.Sleep(50 * time.Millisecond)
	h.Close()
	wg.Wait()
	if alive(pid) {
		t.Errorf("worker %d still runs after Close", pid)
	}
	if _, _, err := run(t, h, "echo 1"); err == nil || err.Name != "SessionError" {
		t.Errorf("cell after Close: %v", err)
	}
}
