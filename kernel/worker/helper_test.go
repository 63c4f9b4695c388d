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
	switch os.Getenv(helperEnv) {
	case "serve":
		// As routelab's worker does: the protocol owns the real standard
		// output, stray writes go to standard error.
		proto := os.Stdout
		os.Stdout = os.Stderr
		err := Serve(func() (kernel.Interpreter, error) { return newTestLang(), nil }, os.Stdin, proto, os.Stderr)
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
//
// Lines run one at a time (fakelang's braces do not group them).
type testLang struct {
	*fakelang.Session
	position   func(line, col int)
	background display.Sink
}

func newTestLang() *testLang { return &testLang{Session: fakelang.New()} }

func (l *testLang) SetPositionHook(f func(line, col int)) { l.position = f }
func (l *testLang) SetBackgroundSink(s display.Sink)      { l.background = s }

func (l *testLang) Execute(ctx context.Context, code string, sink display.Sink) (display.Bundle, error) {
	var value display.Bundle
	for _, line := range strings.Split(code, "\n") {
		word, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		if l.special(word, arg) {
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
func (l *testLang) special(word, arg string) bool {
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
