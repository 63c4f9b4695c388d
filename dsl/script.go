package dsl

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/routelab/routelab/display"
)

// RunScript runs a Go script through the session, as `routelab exec` does:
// either a package main file with a func main (which runs once, at the
// end), or any sequence of declarations and statements a cell could hold.
// Output goes to stdout and stderr; displayed values and the value of a
// final expression are written to stdout as text. A failure is returned as
// the *display.Error Execute would return (print its Traceback).
//
// A script that calls os.Exit(code) ends there: RunScript returns an
// *ExitError with the code (nil for os.Exit(0)).
func (s *Session) RunScript(ctx context.Context, src string, stdout, stderr io.Writer) error {
	w := &writerSink{stdout: stdout, stderr: stderr}
	s.exitCode.Store(-1)
	s.script = true
	b, err := s.Execute(ctx, src, w)
	if b != nil {
		w.Display(b, "", false)
	}
	if code := s.exitCode.Load(); code >= 0 && err != nil {
		if code == 0 {
			return nil
		}
		return &ExitError{Code: int(code)}
	}
	return err
}

// ExitError is a script's os.Exit with a non-zero code.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// exit is os.Exit in cells: it ends the cell (the session, a kernel's
// process, goes on) and, for a script, the script with that code.
func (s *Session) exit(code int) {
	s.exitCode.Store(int64(code))
	panic(exitPanic(code))
}

// exitPanic is the panic value of os.Exit in a cell.
type exitPanic int

func (e exitPanic) Error() string {
	return fmt.Sprintf("os.Exit(%d) ends the cell; the session goes on", int(e))
}
func (e exitPanic) ErrorName() string { return "Exit" }

// writerSink is a display.Sink over two writers; displays show as text.
type writerSink struct {
	mu             sync.Mutex
	stdout, stderr io.Writer
}

func (w *writerSink) Stream(name, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if name == "stderr" {
		io.WriteString(w.stderr, text)
		return
	}
	io.WriteString(w.stdout, text)
}

// Headless: a script's output is text that nobody watches change.
func (w *writerSink) Headless() bool { return true }

func (w *writerSink) Display(b display.Bundle, _ string, _ bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	text := b.Text()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	fmt.Fprint(w.stdout, text)
}

func (w *writerSink) Clear(bool) {}
