package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/internal/testutil"
)

// `routelab console` starts with a policies file that does not compile:
// the dsl's positioned error on stderr, then the URL; the page is served
// and Ctrl-C (here, the context) stops it with status 0.
func TestConsoleCommandStartsDespiteABadPoliciesFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.go")
	os.WriteFile(bad, []byte("var mine = lab.Policy(\"mine\", func(r lab.Replica) float64 {\n\treturn r.Outstanding + \"x\"\n})\n"), 0o644)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr testutil.SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"console", "--addr", addr, "--policies", bad}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(stderr.String(), "http://") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the console page: %v %v\nstderr: %s", resp, err, stderr.String())
	}
	resp.Body.Close()
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after the context ended", code)
	}
	want := "routelab console: policies: policy file " + bad + ": CompileError: 2:9: invalid operation: r.Outstanding + \"x\" (mismatched types int and untyped string)"
	if !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), "routelab console: http://"+addr+"/ (Ctrl-C stops it)") {
		t.Errorf("stderr:\n%s\nwant %q and the URL", stderr.String(), want)
	}
}

// A port in use is one clear line and a non-zero exit.
func TestConsoleCommandPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, stderr, code := runCLI(t, "console", "--addr", ln.Addr().String())
	want := "routelab: console: " + ln.Addr().String() + " is already in use (another console?); choose another address with --addr\n"
	if code == 0 || stderr != want {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
	}
	if _, stderr, code := runCLI(t, "console", "--addr", "nohost"); code == 0 || !strings.Contains(stderr, `--addr "nohost": `) {
		t.Errorf("--addr nohost: exit %d, %q", code, stderr)
	}
}
