// Package testlib is a small compiled library for the dsl's own tests. It
// stands in for the lab package: it calls interpreted callbacks, honours
// contexts, writes output and returns values that display richly.
package testlib

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// Version is the library's version.
const Version = "1.0"

// Replicas is the default number of replicas.
const Replicas = 3

// Scale is a package variable cells can read and set.
var Scale = 2

// Square returns x*x.
func Square(x int) int { return x * x }

// Pair returns two values, for tests of multi-value display.
func Pair() (int, string) { return 7, "seven" }

// Decide picks a replica for request i.
type Decide func(i int) int

// RouteContext asks decide where to send each of n requests and counts the
// requests per replica. It stops with ctx's error as soon as ctx is done.
func RouteContext(ctx context.Context, n, replicas int, decide Decide) ([]int, error) {
	counts := make([]int, replicas)
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return counts, err
		}
		r := decide(i)
		if r < 0 || r >= replicas {
			return counts, fmt.Errorf("decide(%d) = %d: want a replica in [0, %d)", i, r, replicas)
		}
		counts[r]++
	}
	return counts, nil
}

// Route is RouteContext without a context. In a session it is bound to the
// running cell's context, so interrupting the cell stops it.
func Route(n, replicas int, decide Decide) ([]int, error) {
	return RouteContext(context.Background(), n, replicas, decide)
}

// Spin calls f once, then until ctx is done, and returns how many calls it
// made: at least one, so a caller sees the call ran even when ctx ended
// before it began.
func Spin(ctx context.Context, f func(int) int) (int, error) {
	for n := 0; ; n++ {
		if n > 0 {
			if err := ctx.Err(); err != nil {
				return n, err
			}
		}
		f(n)
	}
}

// Forever calls f until the running cell is interrupted. It is bound per
// session to the cell's context; unbound, it never returns.
func Forever(f func(int) int) (int, error) {
	return Spin(context.Background(), f)
}

// Go calls f on a new goroutine of its own, as an engine running callbacks
// concurrently would.
func Go(f func()) { go f() }

// Call calls f once and returns its result.
func Call(f func() int) int { return f() }

// Greet writes a greeting to w.
func Greet(w io.Writer, name string) { fmt.Fprintf(w, "hello, %s\n", name) }

// Hello greets name on standard output (bound per session to the cell's
// output).
func Hello(name string) { Greet(os.Stdout, name) }

// Show displays v (bound per session to the cell's display).
func Show(v any) { fmt.Println(v) }

// Report is a result that shows as an HTML table.
type Report struct {
	Title string
	Rows  int
}

// NewReport returns a report with a title and a number of rows.
func NewReport(title string, rows int) *Report { return &Report{Title: title, Rows: rows} }

// HTML renders the report.
func (r *Report) HTML() string {
	return "<table><caption>" + r.Title + "</caption>" + strings.Repeat("<tr><td></td></tr>", r.Rows) + "</table>"
}

// String is the report's text form.
func (r *Report) String() string { return fmt.Sprintf("report %q (%d rows)", r.Title, r.Rows) }
