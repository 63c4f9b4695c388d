package dsl_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
)

// Mistakes that would end the process in plain yaegi — unbounded
// recursion, an allocation larger than the machine — fail the cell, and the
// session keeps its variables.

func TestUnboundedRecursionIsAStackOverflow(t *testing.T) {
	s := newSession(t)
	run(t, s, "keep := 7")
	for name, code := range map[string]string{
		"named func": "func rec(n int) int { return rec(n+1) + 1 }\nrec(0)",
		"closure":    "var clo func(int) int\nclo = func(n int) int { return clo(n+1) + 1 }\nclo(0)",
		"method":     "type R struct{}\nfunc (r R) Deeper(n int) int { return r.Deeper(n+1) + 1 }\nR{}.Deeper(0)",
		"mutual":     "func ping(n int) int { return pong(n) + 1 }\nfunc pong(n int) int { return ping(n) + 1 }\nping(0)",
	} {
		start := time.Now()
		de := failsWith(t, s, code, dsl.StackOverflow)
		t.Logf("%s: %s after %v", name, de.Value, time.Since(start).Round(time.Millisecond))
		if !strings.Contains(de.Value, "more than 20000 nested calls") {
			t.Errorf("%s: message %q", name, de.Value)
		}
		if tb := strings.Join(de.Traceback, "\n"); !strings.Contains(tb, "nested calls") || len(de.Traceback) > 12 {
			t.Errorf("%s: traceback should show the recursion once, with its count:\n%s", name, tb)
		}
	}
	if got := value(t, s, "keep"); got != "7" {
		t.Errorf("after the overflows, keep = %s", got)
	}
}

func TestDeepRecursionWithinTheBoundWorks(t *testing.T) {
	s := newSession(t)
	run(t, s, "func depth(n int) int { if n == 0 { return 0 }; return depth(n-1) + 1 }")
	run(t, s, "var cdepth func(int) int\ncdepth = func(n int) int { if n == 0 { return 0 }; return cdepth(n-1) + 1 }")
	if got := value(t, s, "depth(10000) + cdepth(10000)"); got != "20000" {
		t.Errorf("depth(10000) + cdepth(10000) = %s", got)
	}
}

func TestAllocationTooLargeIsAMemoryError(t *testing.T) {
	s, err := dsl.New(dsl.Options{MaxAllocBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run(t, s, "keep := 7\nsmall := make([]byte, 1<<20)")
	for code, want := range map[string]string{
		"make([]int64, 1<<40)":          "make: 8.0 TiB",
		"m := make(map[int]int, 1<<40)": "make: 16.0 TiB",
		"big := make([]byte, 1<<29)\nsmall = append(small, big...)\nsmall = append(small, big...)": "append: 1.",
	} {
		de := failsWith(t, s, code, dsl.MemoryError)
		if !strings.Contains(de.Value, want) || !strings.Contains(de.Value, "(1.0 GiB)") {
			t.Errorf("%q: message %q, want it to contain %q and the bound", code, de.Value, want)
		}
	}
	de := failsWith(t, s, "var huge [1 << 40]int64", dsl.CompileError)
	if !strings.Contains(de.Value, "array of 1099511627776 int64") {
		t.Errorf("huge array: %q", de.Value)
	}
	// The first append of big fitted; the second did not, and changed
	// nothing.
	if got := value(t, s, "keep + len(small)/(1<<20)"); got != "520" {
		t.Errorf("after the failed allocations, keep + len(small)/(1<<20) = %s, want 7 + 513", got)
	}
}

// A slice grown one element at a time stops at the bound too.
func TestGrowingPastTheBoundIsAMemoryError(t *testing.T) {
	s, err := dsl.New(dsl.Options{MaxAllocBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	de := failsWith(t, s, "var xs []int64\nfor {\n\txs = append(xs, 1)\n}", dsl.MemoryError)
	if !strings.Contains(de.Value, "append: ") || !strings.Contains(de.Value, "(1.0 MiB)") {
		t.Errorf("message %q", de.Value)
	}
	if got := value(t, s, "len(xs) > 1<<16 && len(xs) <= 1<<17"); got != "true" {
		t.Errorf("xs grew to %s elements", value(t, s, "len(xs)"))
	}
}

// The default bound is half of the machine's memory: something, not zero.
func TestDefaultAllocationBound(t *testing.T) {
	if b := dsl.DefaultMaxAlloc(); b < 1<<28 {
		t.Errorf("DefaultMaxAlloc() = %d bytes", b)
	}
}

func failsWith(t *testing.T, s *dsl.Session, code, name string) *display.Error {
	t.Helper()
	_, err := s.Execute(context.Background(), code, &recorder{})
	var de *display.Error
	if !errors.As(err, &de) || de.Name != name {
		t.Fatalf("%q: error %v, want a %s", code, err, name)
	}
	return de
}

func value(t *testing.T, s *dsl.Session, code string) string {
	t.Helper()
	b, err := s.Execute(context.Background(), code, &recorder{})
	if err != nil {
		t.Fatalf("%q: %v", code, err)
	}
	return b.Text()
}

// Cell numbers go into positions; a long session keeps working, and
// tracebacks name recent cells right.
func TestLongSessions(t *testing.T) {
	s := newSession(t)
	for i := 0; i < 11000; i++ {
		run(t, s, "1+1")
	}
	run(t, s, "func late() int { var xs []int; return xs[3] }")
	de := failsWith(t, s, "late()", dsl.RuntimeError)
	if tb := strings.Join(de.Traceback, "\n"); !strings.Contains(tb, "in late, cell 11001, line 1:") {
		t.Errorf("traceback:\n%s", tb)
	}
}
