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
func (s *Session) RunScript(ctx context.Context, src string, stdout, stderr io.Writer) error {
	w := &writerSink{stdout: stdout, stderr: stderr}
	b, err := s.Execute(ctx, src, w)
	if b != nil {
		w.Display(b, "", false)
	}
	return err
}

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
