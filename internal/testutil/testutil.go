package testutil

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// SyncBuffer is a bytes.Buffer guarded by a mutex: a log or a stream that
// a command's or server's goroutines write while the test reads it. The
// zero value is ready to use.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p to the buffer.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// RequireChromiumVar is the environment variable that makes the Chromium
// tests mandatory: set to anything but "", a missing Chromium fails them.
// .ci/run sets it.
const RequireChromiumVar = "ROUTELAB_REQUIRE_CHROMIUM"

// ChromiumRequired tells whether RequireChromiumVar is set, so that a
// test that found no Chromium must fail rather than skip.
func ChromiumRequired() bool { return os.Getenv(RequireChromiumVar) != "" }

// chromiumPaths are looked for first, then chromiumNames on PATH: the
// browsers plot's export looks for (plot/png.go), Debian's first.
var (
	chromiumPaths = []string{"/usr/bin/chromium"}
	chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
)

// FindChromium is the path of the Chromium to test with, or "".
func FindChromium() string {
	for _, p := range chromiumPaths {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Chromium returns the Chromium to test with. Without one it skips the
// test, or fails it when ChromiumRequired.
func Chromium(t testing.TB) string {
	t.Helper()
	exe := FindChromium()
	if exe == "" {
		if ChromiumRequired() {
			t.Fatalf("%s is set and no Chromium was found (install Debian's chromium)", RequireChromiumVar)
		}
		t.Skipf("no Chromium (install Debian's chromium, or set %s=1 to require it)", RequireChromiumVar)
	}
	return exe
}

// HaveChromium is for a test that checks more than Chromium's part: it
// reports whether Chromium is there, logging that its part goes unchecked
// when not, and fails the test when ChromiumRequired.
func HaveChromium(t testing.TB) bool {
	t.Helper()
	if FindChromium() != "" {
		return true
	}
	if ChromiumRequired() {
		t.Fatalf("%s is set and no Chromium was found (install Debian's chromium)", RequireChromiumVar)
	}
	t.Log("no Chromium: its part of the test is not checked")
	return false
}
