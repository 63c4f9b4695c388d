package main

import (
	"fmt"
	"io"
	"os"
	"time"
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

// progress draws "compare: 1200/40000 runs (3%), 2s elapsed, about 1m5s
// left", the time left extrapolated from the pace so far (shown after the
// first second, when the pace is more than the first run's start-up), and
// clears the line when the last run is done.
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
	line := fmt.Sprintf("%s: %d/%d runs (%d%%)", p.what, done, total, 100*done/total)
	if elapsed := t.Sub(p.start); elapsed >= time.Second {
		left := time.Duration(float64(elapsed) * float64(total-done) / float64(max(done, 1)))
		line += fmt.Sprintf(", %s elapsed, about %s left", elapsed.Round(time.Second), left.Round(time.Second))
	}
	fmt.Fprintf(p.w, "\r%s\033[K", line)
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
