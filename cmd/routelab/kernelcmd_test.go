package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
)

// recorder keeps a cell's streams.
type recorder struct{ out strings.Builder }

func (r *recorder) Stream(_, text string)                { r.out.WriteString(text) }
func (r *recorder) Display(display.Bundle, string, bool) {}
func (r *recorder) Clear(bool)                           {}

func TestLazySessionRunsCellsOnceReady(t *testing.T) {
	var logs strings.Builder
	l := startSession(func() (*dsl.Session, error) { return symbols.NewSession(dsl.Options{}) }, &logs)
	l.Interrupt() // nothing runs yet: a no-op, whether or not the session exists
	defer l.Close()
	var rec recorder
	if _, err := l.Execute(context.Background(), "x := lab.Straggler()\nprintln(\"ok\")", &rec); err != nil || rec.out.String() != "ok\n" {
		t.Fatalf("cell: %v, output %q", err, rec.out.String())
	}
	if c := l.Complete("x.Ra", 4); strings.Join(c.Matches, " ") != "Rate" {
		t.Errorf("completion %v", c)
	}
	if st, _ := l.IsComplete("func f() {"); st != "incomplete" {
		t.Errorf("is_complete %q", st)
	}
	if _, found := l.Inspect("x", 1); !found {
		t.Error("inspect found nothing for a session variable")
	}
	if logs.Len() != 0 {
		t.Errorf("logged %q", logs.String())
	}
}

func TestLazySessionReportsAFailedStart(t *testing.T) {
	var logs strings.Builder
	l := startSession(func() (*dsl.Session, error) { return nil, errors.New("no pipes left") }, &logs)
	_, err := l.Execute(context.Background(), "1+1", &recorder{})
	var de *display.Error
	if !errors.As(err, &de) || de.Name != "SessionError" || !strings.Contains(de.Value, "no pipes left") {
		t.Fatalf("cell after a failed start: %v", err)
	}
	if !strings.Contains(logs.String(), "cannot start the Go session: no pipes left") {
		t.Errorf("log %q", logs.String())
	}
	if c := l.Complete("ab", 2); len(c.Matches) != 0 || c.Start != 2 {
		t.Errorf("completion %+v", c)
	}
	if st, _ := l.IsComplete("x"); st != "unknown" {
		t.Errorf("is_complete %q", st)
	}
	if _, found := l.Inspect("x", 1); found {
		t.Error("inspect found something without a session")
	}
	l.Interrupt()
	if err := l.Close(); err != nil {
		t.Error(err)
	}
}

func TestLazySessionStopsWaitingWhenTheKernelStops(t *testing.T) {
	block := make(chan struct{})
	l := startSession(func() (*dsl.Session, error) { <-block; return nil, errors.New("late") }, &strings.Builder{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := l.Execute(ctx, "1+1", &recorder{})
	var de *display.Error
	if !errors.As(err, &de) || de.Name != dsl.Interrupted {
		t.Errorf("cell while the kernel stops: %v", err)
	}
	close(block)
}
