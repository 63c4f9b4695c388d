package worker

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync"
	"syscall"
)

// stderrLimit bounds how much of one worker's standard error reaches the
// log: the head of a Go runtime report (the goroutine that failed comes
// first) is what helps; a dump of thousands of goroutines does not.
const stderrLimit = 256 << 10

// stderrLog copies a worker's standard error to the kernel's log, line by
// line, and remembers the lines of a Go runtime report that say why the
// process ended. Nothing of it reaches a cell: stray lines (an interpreter's
// own log.Print) belong in the log, and the reason is told in the cell that
// ran when the worker died.
type stderrLog struct {
	log *log.Logger
	pid int

	mu      sync.Mutex
	logged  int
	omitted int
	fatal   string // the first "fatal error: ..." line
	panic   string // the first "panic: ..." line
	cgo     string // the first "runtime/cgo: ..." line
}

func newStderrLog(l *log.Logger, pid int) *stderrLog {
	return &stderrLog{log: l, pid: pid}
}

// read consumes r until it ends. Overlong lines are split rather than
// buffered without bound: the worker must never block on a full pipe.
func (l *stderrLog) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			l.line(strings.TrimRight(string(line), "\r\n"))
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.omitted > 0 {
		l.log.Printf("worker %d: (%d more bytes of its standard error not logged)", l.pid, l.omitted)
	}
}

func (l *stderrLog) line(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range []struct {
		prefix string
		into   *string
	}{{"fatal error: ", &l.fatal}, {"panic: ", &l.panic}, {"runtime/cgo: ", &l.cgo}} {
		if *m.into == "" && strings.HasPrefix(s, m.prefix) {
			*m.into = s
		}
	}
	if l.logged+len(s) > stderrLimit {
		l.omitted += len(s) + 1
		return
	}
	l.logged += len(s) + 1
	l.log.Printf("worker %d: %s", l.pid, s)
}

// reason says why a worker ended, in words for a cell: the Go runtime's own
// one-line verdict when it ended the process (exit status 2, or SIGABRT),
// else the signal or exit status.
func (l *stderrLog) reason(st *os.ProcessState) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	ws, _ := st.Sys().(syscall.WaitStatus)
	byRuntime := st.ExitCode() == 2 || (ws.Signaled() && ws.Signal() == syscall.SIGABRT)
	switch {
	// A session at its memory limit dies either allocating or starting a
	// thread (thread stacks count against the limit too), whichever comes
	// first: both are told as running out of memory, and the runtime's own
	// lines are in the log.
	case byRuntime && strings.Contains(l.cgo, "pthread_create failed"):
		return "out of memory"
	case byRuntime && l.fatal != "":
		r := strings.TrimPrefix(strings.TrimPrefix(l.fatal, "fatal error: "), "runtime: ")
		if strings.Contains(r, "out of memory") || r == "newosproc" {
			return "out of memory"
		}
		return r
	case byRuntime && l.panic != "":
		return l.panic
	case ws.Signaled():
		return fmt.Sprintf("killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("the worker process exited with status %d", st.ExitCode())
}
