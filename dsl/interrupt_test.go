package dsl_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlibsym"
)

// run executes a cell that must succeed and returns its value's text.
func run(t *testing.T, s *dsl.Session, code string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rec := &recorder{}
	b, err := s.Execute(ctx, code, rec)
	if err != nil {
		t.Fatalf("cell %q failed: %v\n%s", code, err, rec.transcript(b, err))
	}
	return b.Text()
}

// fail executes a cell that must fail and returns the error's name.
func fail(t *testing.T, s *dsl.Session, code string) *display.Error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := s.Execute(ctx, code, &recorder{})
	var de *display.Error
	if !errors.As(err, &de) {
		t.Fatalf("cell %q: want a *display.Error, got %v", code, err)
	}
	return de
}

// settle waits for the goroutine count to fall to want or below
// (goroutines of a stopped evaluation take a moment to return), or to stay
// the same for 100 ms when want is 0, and returns the last count.
func settle(want int) int {
	n, same := runtime.NumGoroutine(), 0
	for i := 0; i < 300 && (want == 0 && same < 10 || want > 0 && n > want); i++ {
		time.Sleep(10 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			same++
		} else {
			same = 0
		}
		n = m
	}
	return n
}

// interruptCase runs code, interrupts it once it runs and checks that
// the cell fails as Interrupted, the next cell answers within a second with
// the variables intact, and no goroutine is left behind.
func interruptCase(t *testing.T, s *dsl.Session, code string) *display.Error {
	t.Helper()
	if raceDetector {
		// yaegi's ExecuteWithContext keeps writing from the evaluation
		// goroutine it abandons on cancellation (its results, the global
		// frame), with nothing the race detector can see ordering it before
		// the next cell.
		t.Skip("yaegi v0.16.1's cancellation is not race-detector clean")
	}
	run(t, s, "kept := 41")
	base := settle(0)
	before, _, _ := s.Position()
	go func() {
		// The interrupt comes once the cell runs its first statement (a
		// loaded machine may take longer than any fixed delay to compile
		// it), and a little after.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if cell, line, _ := s.Position(); cell > before && line > 0 {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
		s.Interrupt()
	}()
	de := fail(t, s, code)
	if de.Name != dsl.Interrupted {
		t.Fatalf("interrupted cell: got %s: %s", de.Name, de.Value)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	b, err := s.Execute(ctx, "kept + 1", &recorder{})
	if err != nil || b.Text() != "42" {
		t.Fatalf("next cell: got %v, %v; want 42 within a second", b, err)
	}
	if n := settle(base); n > base {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after the interrupt, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
	return de
}

func TestInterruptEmptyLoop(t *testing.T) {
	interruptCase(t, newSession(t), "for {}")
}

func TestInterruptLongLoop(t *testing.T) {
	s := newSession(t)
	interruptCase(t, s, "total := 0\nfor i := 0; i < 1<<62; i++ { total += i % 7 }")
	if got := run(t, s, "total > 0"); got != "true" {
		t.Errorf("the loop's variable: total > 0 is %s", got)
	}
}

// A compiled call that honours Host.Context returns by itself when the run
// context is canceled (phase one): the rest of its statement runs, which a
// stopped interpreter (phase two) would not do. The grace period is made
// long so that phase two cannot be what ended the cell.
func TestInterruptLibraryCall(t *testing.T) {
	s, err := dsl.New(dsl.Options{Libraries: []dsl.Library{testlibsym.Library(true)}, InterruptGrace: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run(t, s, "calls, returned := 0, false")
	interruptCase(t, s, "_, err := testlib.Forever(func(i int) int { calls++; return i }); returned = err != nil")
	if got := run(t, s, "returned && calls > 0"); got != "true" {
		t.Errorf("the library call did not return through its context: returned && calls > 0 is %s", got)
	}
}

// Without a context-aware library the interpreter is stopped after the
// grace period.
func TestInterruptBlockedCompiledCall(t *testing.T) {
	s := newSession(t)
	run(t, s, `import "time"`)
	interruptCase(t, s, "ch := make(chan int)\n<-ch")
}

func TestExecuteContextCanceled(t *testing.T) {
	if raceDetector {
		t.Skip("yaegi v0.16.1's cancellation is not race-detector clean")
	}
	s := newSession(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := s.Execute(ctx, "for {}", &recorder{})
	var de *display.Error
	if !errors.As(err, &de) || de.Name != dsl.Interrupted {
		t.Fatalf("got %v, want Interrupted", err)
	}
	if got := run(t, s, "1 + 1"); got != "2" {
		t.Errorf("next cell: %s", got)
	}
}

func TestInterruptIdleIsHarmless(t *testing.T) {
	s := newSession(t)
	s.Interrupt()
	if got := run(t, s, "2 * 3"); got != "6" {
		t.Errorf("got %s", got)
	}
}

func TestInterruptSleep(t *testing.T) {
	s := newSession(t)
	run(t, s, `import "time"`)
	interruptCase(t, s, "time.Sleep(time.Hour)")
}
