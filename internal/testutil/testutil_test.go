package testutil

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Writes from many goroutines all land, whole (run under -race, the
// buffer's mutex is what keeps this clean).
func TestSyncBufferKeepsConcurrentWrites(t *testing.T) {
	var b SyncBuffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 100 {
				fmt.Fprintf(&b, "w%d.%d\n", i, j)
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 800 {
		t.Fatalf("%d lines, want 800", len(lines))
	}
	seen := map[string]bool{}
	for _, l := range lines {
		seen[l] = true
	}
	if len(seen) != 800 || !seen["w7.99"] {
		t.Errorf("%d distinct lines, want 800", len(seen))
	}
}

// gate records what a Chromium gate did to the test.
type gate struct {
	testing.TB
	fatal, skipped bool
	logged         string
}

func (g *gate) Helper() {}
func (g *gate) Fatalf(format string, args ...any) {
	g.fatal = true
	g.logged = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (g *gate) Skipf(format string, args ...any) {
	g.skipped = true
	g.logged = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (g *gate) Log(args ...any) { g.logged = fmt.Sprint(args...) }

// run calls f with a recording TB on its own goroutine, as the testing
// package runs a test, so that Fatalf and Skipf end only f.
func run(f func(testing.TB)) *gate {
	g := &gate{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(g)
	}()
	<-done
	return g
}

// Without a Chromium the gate skips, unless ROUTELAB_REQUIRE_CHROMIUM is
// set, when it fails: CI never passes a browser test it did not run.
func TestChromiumGateSkipsOrFails(t *testing.T) {
	paths, names := chromiumPaths, chromiumNames
	t.Cleanup(func() { chromiumPaths, chromiumNames = paths, names })
	chromiumPaths, chromiumNames = []string{t.TempDir() + "/no-chromium"}, []string{"routelab-no-such-browser"}

	t.Setenv(RequireChromiumVar, "")
	if g := run(func(tb testing.TB) { Chromium(tb) }); !g.skipped || g.fatal {
		t.Errorf("not required: skipped %v, failed %v", g.skipped, g.fatal)
	}
	if g := run(func(tb testing.TB) {
		if HaveChromium(tb) {
			tb.Fatalf("HaveChromium says yes")
		}
	}); g.skipped || g.fatal || g.logged == "" {
		t.Errorf("HaveChromium, not required: skipped %v, failed %v, logged %q", g.skipped, g.fatal, g.logged)
	}

	t.Setenv(RequireChromiumVar, "1")
	for name, f := range map[string]func(testing.TB){"Chromium": func(tb testing.TB) { Chromium(tb) }, "HaveChromium": func(tb testing.TB) { HaveChromium(tb) }} {
		if g := run(f); !g.fatal || !strings.Contains(g.logged, RequireChromiumVar) {
			t.Errorf("%s, required: failed %v, said %q", name, g.fatal, g.logged)
		}
	}
}

// A browser on PATH is found, and returned as its path.
func TestChromiumGateFindsABrowserOnPath(t *testing.T) {
	paths := chromiumPaths
	t.Cleanup(func() { chromiumPaths = paths })
	chromiumPaths = nil
	t.Setenv("PATH", "/bin:/usr/bin")
	names := chromiumNames
	t.Cleanup(func() { chromiumNames = names })
	chromiumNames = []string{"sh"} // any program on PATH stands in
	if g := run(func(tb testing.TB) {
		if exe := Chromium(tb); !strings.HasSuffix(exe, "/sh") {
			tb.Fatalf("Chromium returned %q", exe)
		}
	}); g.fatal || g.skipped {
		t.Errorf("a browser on PATH: %s", g.logged)
	}
}
