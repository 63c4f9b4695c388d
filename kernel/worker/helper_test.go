package worker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/internal/testutil"
	"github.com/routelab/routelab/kernel"
	"github.com/routelab/routelab/kernel/internal/fakelang"
)

// The tests run workers that are this test binary itself: with helperEnv
// set, TestMain serves a testLang session on its standard input and output
// instead of running tests.
const helperEnv = "ROUTELAB_WORKER_TEST_HELPER"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(helperEnv); mode {
	case "serve", "plain":
		// As routelab's worker does: the protocol owns the real standard
		// output, stray writes go to standard error.
		proto := os.Stdout
		os.Stdout = os.Stderr
		err := Serve(func() (kernel.Interpreter, error) {
			if mode == "plain" {
				return plainLang{fakelang.New()}, nil
			}
			return newTestLang(), nil
		}, os.Stdin, proto, os.Stderr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "fail-start":
		err := Serve(func() (kernel.Interpreter, error) { return nil, errors.New("no symbols today") }, os.Stdin, os.Stdout, os.Stderr)
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// plainLang is a session that does not answer comms: only the
// Interpreter's methods of what it wraps show.
type plainLang struct{ kernel.Interpreter }

// testLang is fakelang's echo language plus statements that end the
// process the ways a Go session can die, and hooks for positions and
// output outside a cell:
//
//	mapwrites       concurrent map writes from 8 goroutines (fatal)
//	throw           a compiled call that throws (unlock of an unlocked mutex)
//	exit N          os.Exit(N)
//	stray TEXT      TEXT logged on standard error (as yaegi's log.Print does)
//	stdout TEXT     TEXT written to the process's os.Stdout
//	at LINE COL     report the position LINE:COL, then wait 50 ms
//	later TEXT      TEXT on stdout outside any cell, 50 ms after this one ends
//	comm KIND ID [TARGET]  the session's side of a comm (open, msg or close)
//	                through the cell's sink
//	latercomm ID    comm ID opened, sent "tick" and closed outside any cell,
//	                50 ms after this cell ends
//	heard           the front end's comm calls the session heard, one a line
//
// As a kernel.Commer it accepts every comm but those on target "refuse",
// and answers those on target "slow" only after commOpenTimeout.
//
// Lines run one at a time (fakelang's braces do not group them).
type testLang struct {
	*fakelang.Session
	position   func(line, col int)
	background display.Sink

	mu    sync.Mutex
	heard []string // the front end's comm calls, in order
}

var _ kernel.Commer = (*testLang)(nil)

func newTestLang() *testLang { return &testLang{Session: fakelang.New()} }

func (l *testLang) SetPositionHook(f func(line, col int)) { l.position = f }
func (l *testLang) SetBackgroundSink(s display.Sink)      { l.background = s }

func (l *testLang) CommOpen(id, target string, data map[string]any) bool {
	if target == "slow" {
		time.Sleep(commOpenTimeout + 500*time.Millisecond)
	}
	l.hear("open %s %s %v", id, target, data)
	return target != "refuse"
}

func (l *testLang) CommMsg(id string, data map[string]any)   { l.hear("msg %s %v", id, data) }
func (l *testLang) CommClose(id string, data map[string]any) { l.hear("close %s %v", id, data) }

func (l *testLang) hear(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.heard = append(l.heard, fmt.Sprintf(format, args...))
}

// sendComm is the comm statement: KIND ID [TARGET] through to.
func sendComm(to display.Sink, arg string) {
	c, ok := to.(display.Comms)
	if !ok {
		panic(fmt.Sprintf("comm %s: sink %T does not speak comms", arg, to))
	}
	f := strings.Fields(arg)
	switch f[0] {
	case "open":
		c.CommOpen(f[1], f[2], map[string]any{"n": 1}, map[string]any{"version": "2.1"})
	case "msg":
		c.CommMsg(f[1], map[string]any{"text": f[2]}, nil)
	case "close":
		c.CommClose(f[1], map[string]any{"bye": true})
	}
}

func (l *testLang) Execute(ctx context.Context, code string, sink display.Sink) (display.Bundle, error) {
	var value display.Bundle
	for _, line := range strings.Split(code, "\n") {
		word, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		if l.special(word, arg, sink) {
			continue
		}
		v, err := l.Session.Execute(ctx, line, sink)
		if err != nil {
			return nil, err
		}
		if v != nil {
			value = v
		}
	}
	return value, nil
}

// special runs a statement of testLang's own; false for fakelang's.
func (l *testLang) special(word, arg string, sink display.Sink) bool {
	switch word {
	case "mapwrites":
		m := map[int]int{}
		for range 8 {
			go func() {
				for j := 0; ; j++ {
					m[j] = j
				}
			}()
		}
		select {}
	case "throw":
		var mu sync.Mutex
		mu.Unlock()
	case "exit":
		n, _ := strconv.Atoi(arg)
		os.Exit(n)
	case "stray":
		log.Print(arg)
	case "stdout":
		fmt.Fprintln(os.Stdout, arg)
	case "at":
		var line, col int
		fmt.Sscan(arg, &line, &col)
		l.position(line, col)
		time.Sleep(50 * time.Millisecond)
	case "later":
		go func() {
			time.Sleep(50 * time.Millisecond)
			l.background.Stream("stdout", arg+"\n")
		}()
	case "comm":
		sendComm(sink, arg)
	case "latercomm":
		go func() {
			time.Sleep(50 * time.Millisecond)
			sendComm(l.background, "open "+arg+" echo")
			sendComm(l.background, "msg "+arg+" tick")
			sendComm(l.background, "close "+arg)
		}()
	case "heard":
		l.mu.Lock()
		for _, h := range l.heard {
			sink.Stream("stdout", h+"\n")
		}
		l.mu.Unlock()
	default:
		return false
	}
	return true
}

// recorder is a sink that keeps what a cell sent.
type recorder struct {
	mu       sync.Mutex
	streams  strings.Builder
	displays []display.Bundle
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(&r.streams, "%s:%s", name, text)
}

func (r *recorder) Display(b display.Bundle, _ string, _ bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.displays = append(r.displays, b)
}

func (r *recorder) Clear(bool) {}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.streams.String()
}

// commRecorder is a recorder that speaks comms; its log has its streams
// and comm messages in the order they came.
type commRecorder struct {
	recorder
	log []string
}

var _ display.Comms = (*commRecorder)(nil)

func (r *commRecorder) Stream(name, text string) {
	r.recorder.Stream(name, text)
	r.note("%s:%s", name, strings.TrimSuffix(text, "\n"))
}

func (r *commRecorder) CommOpen(id, target string, data, metadata map[string]any) {
	r.note("open %s %s %v %v", id, target, data, metadata)
}

func (r *commRecorder) CommMsg(id string, data, metadata map[string]any) {
	r.note("msg %s %v %v", id, data, metadata)
}

func (r *commRecorder) CommClose(id string, data map[string]any) { r.note("close %s %v", id, data) }

func (r *commRecorder) note(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, fmt.Sprintf(format, args...))
}

// events is the log so far, one entry a line.
func (r *commRecorder) events() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.log, "\n")
}

// harness is a supervisor of test workers; Close runs when the test ends
// and checks that no worker it started is left running.
type harness struct {
	*Supervisor
	logs *testutil.SyncBuffer
	pids []int
}

func supervise(t testing.TB, mode string, background display.Sink) *harness {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{logs: &testutil.SyncBuffer{}}
	h.Supervisor = New(Config{Path: exe, Env: append(os.Environ(), helperEnv+"="+mode),
		Log: log.New(h.logs, "test: ", 0), LogName: "the test log", Background: background})
	t.Cleanup(func() {
		h.Close()
		for _, pid := range h.pids {
			if alive(pid) {
				t.Errorf("worker %d still runs after Close", pid)
			}
		}
		if t.Failed() {
			t.Logf("supervisor log:\n%s", h.logs.String())
		}
	})
	return h
}

// pid is the current worker's process id, remembered for the orphan check.
func (h *harness) pid(t *testing.T) int {
	t.Helper()
	if _, err := h.Execute(context.Background(), "", &recorder{}); err != nil {
		t.Fatalf("worker not ready: %v", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	pid := h.cur.pid()
	h.pids = append(h.pids, pid)
	return pid
}

// awaitDeath waits until the supervisor has seen its worker die.
func (h *harness) awaitDeath(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		h.mu.Lock()
		seen := h.lost != nil
		h.mu.Unlock()
		if seen {
			return
		}
	}
	t.Fatal("the supervisor did not notice the worker's death")
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func run(t *testing.T, h *harness, code string) (*recorder, display.Bundle, *display.Error) {
	t.Helper()
	rec := &recorder{}
	v, err := h.Execute(context.Background(), code, rec)
	if err == nil {
		return rec, v, nil
	}
	var de *display.Error
	if !errors.As(err, &de) {
		t.Fatalf("%q: error %T %v, want a *display.Error", code, err, err)
	}
	return rec, v, de
}
