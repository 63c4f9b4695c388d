package main

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"

	"github.com/routelab/routelab/experiment"
)

// On a terminal the status line shows runs done and, after the first
// second, elapsed time and the time left at the pace so far; it is redrawn
// at most every 100 ms and cleared at the end.
func TestProgressLine(t *testing.T) {
	clock := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	p := newProgress(&out, "compare", func() time.Time { return clock })
	step := func(d time.Duration, done int) string {
		clock = clock.Add(d)
		out.Reset()
		p.update(done, 400)
		return out.String()
	}
	if got, want := step(500*time.Millisecond, 1), "\rcompare: 1/400 runs (0%)\033[K"; got != want {
		t.Errorf("first redraw %q, want %q", got, want)
	}
	if got, want := step(9500*time.Millisecond, 100), "\rcompare: 100/400 runs (25%), 10s elapsed, 10.0 runs/s, about 30s left\033[K"; got != want {
		t.Errorf("redraw after 10 s %q, want %q", got, want)
	}
	if got := step(50*time.Millisecond, 101); got != "" {
		t.Errorf("redrawn after 50 ms: %q", got)
	}
	if got, want := step(110*time.Second, 300), "\rcompare: 300/400 runs (75%), 2m0s elapsed, 2.50 runs/s, about 40s left\033[K"; got != want {
		t.Errorf("second redraw %q, want %q", got, want)
	}
	if got := step(time.Millisecond, 400); got != "\r\033[K" {
		t.Errorf("last run: %q, want the line cleared", got)
	}
}

// Pipes, files and the null device get no progress at all.
func TestNoProgressOffTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.Create(t.TempDir() + "/log")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, w := range []io.Writer{&bytes.Buffer{}, null, file} {
		if p := progressReporter(w, "compare"); p != nil {
			t.Errorf("%T gets a progress line", w)
		}
	}
	_, stderr, code := runCLI(t, "compare", "--scenario", "steady", "--seeds", "3")
	if code != 0 || stderr != "" {
		t.Errorf("compare on a pipe: exit %d, stderr %q", code, stderr)
	}
}

// The CLI keeps only each run's summary unless a figure needs the runs.
func TestCompareKeepsSummariesUnlessDrawing(t *testing.T) {
	var c compareConfig
	if c.keep() != experiment.KeepSummaries {
		t.Errorf("compare without figures keeps %v", c.keep())
	}
	c.figures.svg = "x.svg"
	if c.keep() != experiment.KeepRuns {
		t.Errorf("compare with a figure keeps %v", c.keep())
	}
}
