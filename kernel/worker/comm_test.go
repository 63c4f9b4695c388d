package worker

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
)

// await polls cond for up to 5 seconds.
func await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// A cell's comm messages reach its sink with its other output, in the
// order sent; a sink that does not speak comms leaves them to the
// background sink; with neither they are logged and dropped.
func TestCommsOfACellReachItsSinkInOrder(t *testing.T) {
	bg := &commRecorder{}
	h := supervise(t, "serve", bg)
	cell := &commRecorder{}
	code := "print one\ncomm open A echo\ncomm msg A hi\nprint two\ncomm close A\nprint three"
	if _, err := h.Execute(context.Background(), code, cell); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"stdout:one",
		"open A echo map[n:1] map[version:2.1]",
		"msg A map[text:hi] map[]",
		"stdout:two",
		"close A map[bye:true]",
		"stdout:three",
	}, "\n")
	if got := cell.events(); got != want {
		t.Errorf("the cell's sink got\n%s\nwant\n%s", got, want)
	}
	if got := bg.events(); got != "" {
		t.Errorf("the background sink got %q", got)
	}

	rec, _, err := run(t, h, "print x\ncomm open B echo\ncomm close B")
	if err != nil || rec.String() != "stdout:x\n" {
		t.Fatalf("cell with a sink without comms: %v, streams %q", err, rec.String())
	}
	if got, want := bg.events(), "open B echo map[n:1] map[version:2.1]\nclose B map[bye:true]"; got != want {
		t.Errorf("the background sink got\n%s\nwant\n%s", got, want)
	}

	nowhere := supervise(t, "serve", nil)
	if _, _, err := run(t, nowhere, "comm open C echo"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(nowhere.logs.String(), `dropped comm open on comm "C"`) {
		t.Errorf("the log does not name the dropped comm:\n%s", nowhere.logs.String())
	}
}

// Comm messages a session sends outside any cell reach the background sink.
func TestCommsOutsideACellReachTheBackgroundSink(t *testing.T) {
	bg := &commRecorder{}
	h := supervise(t, "serve", bg)
	if _, _, err := run(t, h, "latercomm L"); err != nil {
		t.Fatal(err)
	}
	want := "open L echo map[n:1] map[version:2.1]\nmsg L map[text:tick] map[]\nclose L map[bye:true]"
	await(t, "the background comms", func() bool { return strings.Count(bg.events(), "\n") == 2 })
	if got := bg.events(); got != want {
		t.Errorf("the background sink got\n%s\nwant\n%s", got, want)
	}
}

// The front end's comm calls reach the session in order; CommOpen returns
// its answer, and false while no worker runs.
func TestFrontEndCommsReachTheSession(t *testing.T) {
	h := supervise(t, "serve", nil)
	if h.CommOpen("X", "echo", nil) {
		t.Error("CommOpen with no worker: true")
	}
	h.CommMsg("X", nil)
	if !strings.Contains(h.logs.String(), `dropped comm msg on comm "X"`) {
		t.Errorf("the log does not name the dropped comm:\n%s", h.logs.String())
	}
	h.pid(t)
	if !h.CommOpen("F", "echo", map[string]any{"a": 1}) {
		t.Error(`CommOpen("F", "echo"): false, want true`)
	}
	if h.CommOpen("R", "refuse", nil) {
		t.Error(`CommOpen("R", "refuse"): true, want false`)
	}
	h.CommMsg("F", map[string]any{"text": "1"})
	h.CommMsg("F", map[string]any{"text": "2"})
	h.CommClose("F", map[string]any{"bye": true})
	rec, _, err := run(t, h, "heard")
	want := "stdout:open F echo map[a:1]\nstdout:open R refuse map[]\nstdout:msg F map[text:1]\nstdout:msg F map[text:2]\nstdout:close F map[bye:true]\n"
	if err != nil || rec.String() != want {
		t.Errorf("the session heard (%v)\n%s\nwant\n%s", err, rec.String(), want)
	}
}

// A session that does not answer within commOpenTimeout refuses the comm,
// and its late yes does not count it open (Close closes nothing).
func TestCommOpenTimesOut(t *testing.T) {
	bg := &commRecorder{}
	h := supervise(t, "serve", bg)
	h.pid(t)
	t0 := time.Now()
	if h.CommOpen("S", "slow", nil) {
		t.Error("a comm answered too late was accepted")
	}
	if d := time.Since(t0); d < commOpenTimeout || d > commOpenTimeout+time.Second {
		t.Errorf("CommOpen returned after %v, want %v", d, commOpenTimeout)
	}
	h.Close() // returns once the worker has answered and exited
	if got := bg.events(); got != "" {
		t.Errorf("the background sink got %q", got)
	}
}

// A session that is not a kernel.Commer refuses every comm and ignores
// messages on them (which the worker logs).
func TestASessionWithoutCommsRefusesThem(t *testing.T) {
	h := supervise(t, "plain", nil)
	h.pid(t)
	if h.CommOpen("P", "echo", nil) {
		t.Error("CommOpen: true from a session without comms")
	}
	h.CommMsg("P", nil)
	await(t, "the worker's log line", func() bool {
		return strings.Contains(h.logs.String(), `dropped comm msg on comm "P": the session does not answer comms`)
	})
}

// The comms a worker had open when it died, whichever side opened them,
// are closed through the background sink; so are those of a worker that
// is closed.
func TestAnEndedWorkersCommsAreClosed(t *testing.T) {
	bg := &commRecorder{}
	h := supervise(t, "serve", bg)
	cell := &commRecorder{}
	if _, err := h.Execute(context.Background(), "comm open A echo\ncomm open B echo\ncomm close A", cell); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"F", "G"} {
		if !h.CommOpen(id, "echo", nil) {
			t.Fatalf("CommOpen(%q): false", id)
		}
	}
	h.CommOpen("R", "refuse", nil)
	h.CommClose("G", nil)
	syscall.Kill(h.pid(t), syscall.SIGKILL)
	h.awaitDeath(t)
	if got, want := bg.events(), "close B map[]\nclose F map[]"; got != want {
		t.Errorf("after the death the background sink got\n%s\nwant\n%s", got, want)
	}

	if _, err := h.Execute(context.Background(), "comm open C echo", cell); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if got, want := bg.events(), "close B map[]\nclose F map[]\nclose C map[]"; got != want {
		t.Errorf("after Close the background sink got\n%s\nwant\n%s", got, want)
	}
}
