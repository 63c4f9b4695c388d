package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/routelab/routelab/experiment"
)

// progressReporter returns a progress callback that redraws one status line
// on w when w is a terminal, and nil otherwise (pipes, files and logs stay
// clean).
func progressReporter(w io.Writer, what string) func(done, total int) {
	if !isTerminal(w) {
		return nil
	}
	return newProgress(w, what, time.Now).update
}

// redrawEvery bounds how often the status line is redrawn: an experiment of
// 400,000 runs reports each one, the terminal needs a few lines a second.
const redrawEvery = 100 * time.Millisecond

// progress draws experiment.ProgressLine ("compare: 1200/40000 runs (3%),
// 2s elapsed, 600 runs/s, about 1m5s left") and clears the line when the
// last run is done.
type progress struct {
	w           io.Writer
	what        string
	now         func() time.Time
	start, last time.Time
}

func newProgress(w io.Writer, what string, now func() time.Time) *progress {
	return &progress{w: w, what: what, now: now, start: now()}
}

func (p *progress) update(done, total int) {
	if done >= total {
		fmt.Fprint(p.w, "\r\033[K")
		return
	}
	t := p.now()
	if !p.last.IsZero() && t.Sub(p.last) < redrawEvery {
		return
	}
	p.last = t
	fmt.Fprintf(p.w, "\r%s\033[K", experiment.ProgressLine(p.what, done, total, t.Sub(p.start)))
}

// isTerminal reports whether w is a terminal: a character device other than
// the null device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}
