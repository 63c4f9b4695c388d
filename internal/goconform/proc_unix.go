//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// isolate puts the program in a process group of its own, so a time-out
// kills whatever it started too (a nested go run, a child process), not
// only the interpreter.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// reap kills what is left of the program's process group after it ended:
// a child it started must not run on into the next program's time.
func reap(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
