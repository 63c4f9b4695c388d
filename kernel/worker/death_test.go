package worker

import (
	"io"
	"log"
	"os"
	"os/exec"
	"testing"
)

// exited is the state of a shell that ran script.
func exited(t *testing.T, script string) *os.ProcessState {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	_ = cmd.Run() // it fails on purpose
	if cmd.ProcessState == nil {
		t.Fatalf("sh -c %q did not run", script)
	}
	return cmd.ProcessState
}

// The reason a worker died, from the Go runtime's report on its standard
// error and how it ended; a session at its memory limit is out of memory
// however the runtime found out (allocating, or starting a thread with or
// without cgo).
func TestReasonNamesTheRuntimesVerdict(t *testing.T) {
	status2, abort, status3 := exited(t, "exit 2"), exited(t, "kill -ABRT $$"), exited(t, "exit 3")
	for _, c := range []struct {
		lines []string
		st    *os.ProcessState
		want  string
	}{
		{[]string{"fatal error: runtime: out of memory", "", "goroutine 1 [running]:"}, status2, "out of memory"},
		{[]string{"runtime/cgo: pthread_create failed: Resource temporarily unavailable", "SIGABRT: abort"}, abort, "out of memory"},
		{[]string{"runtime: failed to create new OS thread (have 9 already; errno=11)", "fatal error: newosproc"}, status2, "out of memory"},
		{[]string{"fatal error: concurrent map writes"}, status2, "concurrent map writes"},
		{[]string{"panic: boom", "", "goroutine 1 [running]:"}, status2, "panic: boom"},
		{[]string{"fatal error: concurrent map writes"}, status3, "the worker process exited with status 3"},
	} {
		l := newStderrLog(log.New(io.Discard, "", 0), 1)
		for _, s := range c.lines {
			l.line(s)
		}
		if got := l.reason(c.st); got != c.want {
			t.Errorf("%q, %v: %q, want %q", c.lines, c.st, got, c.want)
		}
	}
}
