package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/internal/testutil"
	"github.com/routelab/routelab/kernel"
	"github.com/routelab/routelab/kernel/worker"
)

// Cells that end a Go process in ways Go cannot recover from.
const (
	mapWritesCell = `m := map[int]int{}
for i := 0; i < 8; i++ {
	go func() {
		for j := 0; ; j++ {
			m[j] = j
		}
	}()
}
select {}`
	throwCell = `import "sync"

var mu sync.Mutex
mu.Unlock()`
	allocateCell = `var keep [][]byte
for {
	b := make([]byte, 64<<20)
	b[0] = 1
	keep = append(keep, b)
}`
)

// testMemoryLimit keeps running out of memory quick and harmless; a worker
// starts well under it (TestWorkerSessionDeathsWithTheRealBinary logs how
// much it uses).
const testMemoryLimit = "1GiB"

// streams keeps a cell's output.
type streams struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (s *streams) Stream(name, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(&s.buf, "%s: %s", name, text)
}
func (s *streams) Display(display.Bundle, string, bool) {}
func (s *streams) Clear(bool)                           {}

func (s *streams) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// childPIDs lists the processes pid started.
func childPIDs(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		data, _ := os.ReadFile(f)
		for _, p := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(p); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// procStatus reads fields (in kB) of /proc/PID/status.
func procStatus(pid int, fields ...string) string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		for _, f := range fields {
			if strings.HasPrefix(line, f+":") {
				out = append(out, strings.Join(strings.Fields(line), " "))
			}
		}
	}
	return strings.Join(out, ", ")
}

// The real routelab worker under a supervisor, as the kernel runs it: each
// cell that ends the process fails with SessionDied and the reason, and
// the next cells run in a fresh session.
func TestWorkerSessionDeathsWithTheRealBinary(t *testing.T) {
	var logs testutil.SyncBuffer
	sup := worker.New(worker.Config{Path: routelab.Path(t), Args: []string{"worker"},
		Env: append(os.Environ(), memoryLimitEnv+"="+testMemoryLimit), Log: log.New(&logs, "", 0)})
	defer sup.Close()
	ctx := context.Background()
	cell := func(code string) (display.Bundle, *display.Error) {
		t.Helper()
		v, err := sup.Execute(ctx, code, &streams{})
		var de *display.Error
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("%q: %T %v", code, err, err)
		}
		return v, de
	}
	if _, err := cell("x := 41"); err != nil {
		t.Fatal(err)
	}
	for _, pid := range childPIDs(os.Getpid()) {
		t.Logf("worker %d after its first cell, under a %s limit: %s", pid, testMemoryLimit, procStatus(pid, "VmData", "VmRSS", "VmHWM", "Threads"))
	}
	for _, c := range []struct{ code, at, reason string }{
		{mapWritesCell, "9:1", "concurrent map writes"},
		{throwCell, "4:1", "sync: unlock of unlocked mutex"},
		{allocateCell, "2:1", "out of memory"},
	} {
		t0 := time.Now()
		_, err := cell(c.code)
		t.Logf("%-32q died after %v", c.reason, time.Since(t0).Round(time.Millisecond))
		// The position is the top-level statement the cell was running.
		want := "the session died at line " + c.at + ": " + c.reason + "; its variables are lost; a fresh session is ready"
		if err == nil || err.Name != "SessionDied" || err.Value != want {
			t.Errorf("%.30q: %v\nwant SessionDied: %s", c.code, err, want)
		}
		if _, err := cell("x"); err == nil || !strings.Contains(err.Value, "undefined: x") {
			t.Errorf("x after %.30q: %v (want undefined: a fresh session)", c.code, err)
		}
		if v, err := cell("y := 2\ny + 40"); err != nil || v.Text() != "42" {
			t.Errorf("a cell after %.30q: %v %v", c.code, v, err)
		}
	}
	if log := logs.String(); !strings.Contains(log, "goroutine ") || !strings.Contains(log, "fatal error: concurrent map writes") {
		t.Errorf("the runtime's report is not in the log:\n%.2000s", log)
	}
}

// writeNotebook writes a notebook of code cells for the routelab kernel.
func writeNotebook(t *testing.T, path string, sources ...string) {
	t.Helper()
	var cells []any
	for i, src := range sources {
		cells = append(cells, map[string]any{"cell_type": "code", "id": fmt.Sprintf("c%d", i), "metadata": map[string]any{},
			"outputs": []any{}, "execution_count": nil, "source": src})
	}
	data, _ := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "cells": cells, "metadata": map[string]any{
		"kernelspec": map[string]string{"name": "routelab", "display_name": "Go (routelab)", "language": "go"}}})
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// `routelab run` on a notebook whose third of five cells kills the
// session: the output notebook and page are written with the first two
// cells' outputs and the error in the third. Without --allow-errors the run
// stops there and fails; with it, cells 4 and 5 run in a fresh session and
// the run succeeds, as nbconvert's --allow-errors does.
func TestRunRecordsASessionDeathAndWritesTheNotebook(t *testing.T) {
	dir := t.TempDir()
	nb := filepath.Join(dir, "dies.ipynb")
	writeNotebook(t, nb, "import \"fmt\"\n\na := 1\nfmt.Println(\"one\", a)", "a + 1", mapWritesCell,
		"b := 40\nprintln(\"fresh\")", "b + 2")
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow-errors=%v", allow), func(t *testing.T) {
			out, page := filepath.Join(dir, fmt.Sprintf("out-%v.ipynb", allow)), filepath.Join(dir, fmt.Sprintf("out-%v.html", allow))
			args := []string{"run", nb, "-o", out, "--html", page, "-q"}
			if allow {
				args = append(args, "--allow-errors")
			}
			cmd := exec.Command(routelab.Path(t), args...)
			cmd.Env = append(os.Environ(), memoryLimitEnv+"="+testMemoryLimit)
			stderr, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); allow != (code == 0) {
				t.Errorf("exit status %d (%v)\n%s", code, err, stderr)
			}
			got := readNotebook(t, out).Cells
			shape := func(i int) string { return strings.Join(outputShape(got[i]), " | ") }
			if shape(0) != "stream stdout\none 1\n" || shape(1) != "execute_result text/plain\n2" || shape(2) != "error SessionDied" {
				t.Errorf("cells 1-3: %q, %q, %q", shape(0), shape(1), shape(2))
			}
			if e := got[2].Outputs[0]; !strings.HasPrefix(e.EValue, "the session died at line 9:1: concurrent map writes;") {
				t.Errorf("cell 3's error: %s", e.EValue)
			}
			want4, want5 := "", ""
			if allow {
				want4, want5 = "stream stdout\nfresh\n", "execute_result text/plain\n42"
			}
			if shape(3) != want4 || shape(4) != want5 {
				t.Errorf("cells 4-5: %q, %q; want %q, %q", shape(3), shape(4), want4, want5)
			}
			if html, err := os.ReadFile(page); err != nil || !bytes.Contains(html, []byte("the session died at line 9:1: concurrent map writes")) {
				t.Errorf("HTML page: %v (%d bytes)", err, len(html))
			}
		})
	}
}

func TestRunHelpStatesTheExitStatus(t *testing.T) {
	out, _, _ := runCLI(t, "run", "--help")
	for _, want := range []string{"Without --allow-errors the run stops at the first\nfailing cell and exits non-zero",
		"with --allow-errors it runs every cell and exits 0", "always written"} {
		if !strings.Contains(out, want) {
			t.Errorf("run --help lacks %q:\n%s", want, out)
		}
	}
}

// freePorts reserves n distinct local TCP ports.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// `routelab kernel CONNECTION_FILE extra...` (what `jupyter run` starts)
// serves and logs the ignored arguments; SIGTERM then ends the kernel and
// its worker.
func TestKernelIgnoresExtraArgumentsAndEndsItsWorkerOnSIGTERM(t *testing.T) {
	ports := freePorts(t, 5)
	conn := filepath.Join(t.TempDir(), "kernel.json")
	data, _ := json.Marshal(kernel.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: ports[0], ControlPort: ports[1],
		IOPubPort: ports[2], StdinPort: ports[3], HBPort: ports[4], Key: "k", SignatureScheme: "hmac-sha256"})
	if err := os.WriteFile(conn, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(routelab.Path(t), "kernel", conn, "script.go", "--flag")
	var logs testutil.SyncBuffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer cmd.Process.Kill()
	var workers []int
	for deadline := time.Now().Add(10 * time.Second); len(workers) == 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		workers = childPIDs(cmd.Process.Pid)
	}
	if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", ports[4])); err != nil {
		t.Fatalf("the kernel does not listen: %v\n%s", err, logs.String())
	} else {
		c.Close()
	}
	if len(workers) != 1 {
		t.Fatalf("workers %v\n%s", workers, logs.String())
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("kernel after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the kernel did not exit after SIGTERM")
	}
	if err := syscall.Kill(workers[0], 0); err == nil {
		t.Errorf("worker %d outlived its kernel", workers[0])
	}
	if want := `ignoring arguments after the connection file: ["script.go"]`; !strings.Contains(logs.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, logs.String())
	}
}

func TestMemoryLimitSizes(t *testing.T) {
	for in, want := range map[string]uint64{"0": 0, "4096": 4096, "512MiB": 512 << 20, "4GiB": 4 << 30, "1TiB": 1 << 40, "7B": 7, "3KiB": 3 << 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "lots", "-1", "1.5GiB", "4G", "4 GiB", "99999999999TiB"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) accepted", bad)
		}
	}
	for n, want := range map[uint64]string{512 << 20: "512MiB", 1 << 30: "1GiB", 3 << 29: "1.5GiB", 1000: "1000B"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// A bad ROUTELAB_MEMORY_LIMIT fails the cells with a message naming it;
// the run still writes its notebook.
func TestBadMemoryLimitIsReportedInTheCell(t *testing.T) {
	dir := t.TempDir()
	nb, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	writeNotebook(t, nb, "1 + 1")
	cmd := exec.Command(routelab.Path(t), "run", nb, "-o", out, "-q")
	cmd.Env = append(os.Environ(), memoryLimitEnv+"=lots")
	if msg, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("run succeeded:\n%s", msg)
	}
	got := readNotebook(t, out).Cells[0].Outputs
	if len(got) != 1 || got[0].EName != "SessionError" || !strings.Contains(got[0].EValue, `ROUTELAB_MEMORY_LIMIT="lots": want a whole number of bytes`) {
		t.Errorf("outputs %+v", got)
	}
}
