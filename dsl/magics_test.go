package dsl_test

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/dsl"
)

// timeReport is what %time and %%time print, as IPython prints it.
var timeReport = regexp.MustCompile(`^CPU times: user [0-9.]+ (?:ns|µs|ms|s), sys: [0-9.]+ (?:ns|µs|ms|s), total: [0-9.]+ (?:ns|µs|ms|s)\nWall time: ([0-9.]+) (ns|µs|ms|s)\n`)

// wallTime is the wall time a %time report states.
func wallTime(t *testing.T, out string) time.Duration {
	t.Helper()
	m := timeReport.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %%time report in %q", out)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	unit := map[string]time.Duration{"ns": time.Nanosecond, "µs": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[m[2]]
	return time.Duration(v * float64(unit))
}

// %time runs the rest of its line and reports its times; what the line
// declares stays declared, and a cell's value is still shown.
func TestTimeMagic(t *testing.T) {
	s := newSession(t)
	rec := &recorder{}
	b, err := s.Execute(context.Background(), "%time time.Sleep(60 * time.Millisecond)\n%time n := 21\nn * 2", rec)
	if err != nil {
		t.Fatal(err)
	}
	out := rec.stdout()
	if d := wallTime(t, out); d < 60*time.Millisecond || d > 10*time.Second {
		t.Errorf("a 60 ms sleep took %v by %%time:\n%s", d, out)
	}
	if strings.Count(out, "Wall time:") != 2 {
		t.Errorf("two %%time lines gave %d reports:\n%s", strings.Count(out, "Wall time:"), out)
	}
	if b.Text() != "42" {
		t.Errorf("the cell's value after two %%time lines = %q, want 42", b.Text())
	}
	if got := run(t, s, "n"); got != "21" {
		t.Errorf("n declared on a %%time line = %s in the next cell, want 21", got)
	}
}

// %%time times the whole rest of the cell, and reports even when it fails.
func TestTimeCellMagic(t *testing.T) {
	s := newSession(t)
	rec := &recorder{}
	b, err := s.Execute(context.Background(), "%%time\nsum := 0\nfor i := range 1000 {\n\tsum += i\n}\nsum", rec)
	if err != nil {
		t.Fatal(err)
	}
	wallTime(t, rec.stdout())
	if b.Text() != "499500" {
		t.Errorf("%%%%time cell value = %q, want 499500", b.Text())
	}
	rec = &recorder{}
	_, err = s.Execute(context.Background(), "%%time\nvar m map[string]int\nm[\"a\"] = 1", rec)
	if err == nil || !strings.Contains(err.Error(), "nil map") {
		t.Errorf("a failing %%%%time cell: %v", err)
	}
	wallTime(t, rec.stdout())
	if got := run(t, s, "sum"); got != "499500" {
		t.Errorf("after a failed cell sum = %s", got)
	}
}

// A script is a Go file: a % line in it is Go's syntax error, not a magic.
func TestScriptsHaveNoMagics(t *testing.T) {
	s, err := dsl.New(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out, errs bytes.Buffer
	err = s.RunScript(context.Background(), "%who\n", &out, &errs)
	if err == nil || strings.Contains(err.Error(), "UsageError") || out.Len() > 0 {
		t.Errorf("RunScript(%%who) = %v, output %q", err, out.String())
	}
}
