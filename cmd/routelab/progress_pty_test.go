//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair: the controlling side, read by the
// test, and the terminal a child writes to (what a user's shell gives it).
func openPTY(t *testing.T) (control, term *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var n, unlock uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, control.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlocking the pseudo-terminal: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, control.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("naming the pseudo-terminal: %v", e)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { control.Close(); term.Close() })
	return control, term
}

// A shard long enough to take over a second shows its progress line, with
// the time left, when its stderr is a terminal — a real pseudo-terminal,
// the binary in its own process — and nothing of it on a pipe; its shard
// file is the same either way.
func TestShardProgressOnATerminalOnly(t *testing.T) {
	exe, dir := routelab.Path(t), t.TempDir()
	args := []string{"compare", "--scenario", "burst", "--seeds", "6000", "--workers", "1", "--shard", "1/2"}
	control, term := openPTY(t)
	onTerm := exec.Command(exe, append(args, "--out", filepath.Join(dir, "tty.json"))...)
	onTerm.Env, onTerm.Stderr = cleanEnv(), term
	if err := onTerm.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close() // the child holds it; the control side reads EOF (EIO) when the child exits
	var seen bytes.Buffer
	io.Copy(&seen, control) // ends with an error once the terminal is closed
	if err := onTerm.Wait(); err != nil {
		t.Fatalf("the shard on a terminal: %v: %q", err, seen.String())
	}
	line := seen.String()
	for _, want := range []string{"\rcompare shard 1/2: ", " runs (", " elapsed, ", " runs/s, about ", " left\033[K", "\r\033[K"} {
		if !strings.Contains(line, want) {
			t.Errorf("the terminal shows %q; want it to contain %q", line, want)
		}
	}

	var piped bytes.Buffer
	onPipe := exec.Command(exe, append(args, "--out", filepath.Join(dir, "pipe.json"))...)
	onPipe.Env, onPipe.Stderr = cleanEnv(), &piped
	if err := onPipe.Run(); err != nil {
		t.Fatalf("the shard on a pipe: %v: %s", err, piped.String())
	}
	if s := piped.String(); strings.ContainsAny(s, "\r\033") || strings.Contains(s, "runs (") {
		t.Errorf("a pipe gets progress: %q", s)
	}
	if read(t, filepath.Join(dir, "tty.json")) != read(t, filepath.Join(dir, "pipe.json")) {
		t.Error("the shard file depends on where its progress went")
	}
}

// Under `routelab run`, a cell's long comparison draws its progress line
// on a terminal's stderr — redrawn in place, cleared at the end — and
// nothing of it on a pipe; the notebook written is the same either way,
// with no progress in it.
func TestRunProgressOnATerminalOnly(t *testing.T) {
	exe, dir := routelab.Path(t), t.TempDir()
	nb := filepath.Join(dir, "long.ipynb")
	cell := `c := lab.Compare(lab.Steady().Seeds(8000), lab.RoundRobin(), lab.LeastQueue())` + "\n" + `c.Summary("least-queue").Runs`
	if err := os.WriteFile(nb, []byte(`{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {}, "outputs": [], "source": `+
		strconv.Quote(cell)+`}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	control, term := openPTY(t)
	onTerm := exec.Command(exe, "run", nb, "-o", filepath.Join(dir, "tty.ipynb"))
	onTerm.Env, onTerm.Stderr = cleanEnv(), term
	if err := onTerm.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close()
	var seen bytes.Buffer
	io.Copy(&seen, control)
	if err := onTerm.Wait(); err != nil {
		t.Fatalf("routelab run on a terminal: %v: %q", err, seen.String())
	}
	for _, want := range []string{"\rlab.Compare: ", " runs (", " runs/s, about ", " left\033[K", "\r\033[K", "cells[0] In [1] ok"} {
		if !strings.Contains(seen.String(), want) {
			t.Errorf("the terminal shows %q; want it to contain %q", seen.String(), want)
		}
	}
	var piped bytes.Buffer
	onPipe := exec.Command(exe, "run", nb, "-o", filepath.Join(dir, "pipe.ipynb"))
	onPipe.Env, onPipe.Stderr = cleanEnv(), &piped
	if err := onPipe.Run(); err != nil {
		t.Fatalf("routelab run on a pipe: %v: %s", err, piped.String())
	}
	if s := piped.String(); strings.ContainsAny(s, "\r\033") || strings.Contains(s, "runs (") {
		t.Errorf("a pipe gets progress: %q", s)
	}
	tty, pipe := read(t, filepath.Join(dir, "tty.ipynb")), read(t, filepath.Join(dir, "pipe.ipynb"))
	if tty != pipe || strings.Contains(tty, "runs/s") || !strings.Contains(tty, `"8000"`) {
		t.Errorf("the notebooks written differ or hold progress:\n%s\n%s", tty, pipe)
	}
}
