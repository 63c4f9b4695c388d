package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"time"
)

// maxOutput bounds what is kept of a program's output: the largest .out
// file of the suite is far smaller, and a program printing in a loop must
// not fill the memory.
const maxOutput = 1 << 20

// interpreter is how a program is run: BIN exec FILE ARGS (routelab's
// form) or BIN FILE ARGS, in dir, for at most limit. goroot is set as
// GOROOT in the program's environment: a program that looks for its Go
// tree (runtime.GOROOT, winbatch.go) gets the one under test, whether or
// not the interpreter's binary recorded where it was built.
type interpreter struct {
	bin      string
	execForm bool
	dir      string
	goroot   string
	limit    time.Duration
}

// outcome is what one run of a program gave.
type outcome struct {
	Output   string // stdout and stderr interleaved, as Go's driver reads them
	Exit     int    // the exit status; -1 when a signal ended the process
	State    string // the process state when a signal ended it ("signal: killed")
	TimedOut bool
	Err      error // the program could not be started
}

// run runs file (a path the interpreter opens from dir) with args. Stdin
// is the null device: a program reading it sees end of file at once.
func (in interpreter) run(ctx context.Context, file string, args []string) outcome {
	ctx, cancel := context.WithTimeout(ctx, in.limit)
	defer cancel()
	argv := append([]string{file}, args...)
	if in.execForm {
		argv = append([]string{"exec"}, argv...)
	}
	cmd := exec.CommandContext(ctx, in.bin, argv...)
	cmd.Dir = in.dir
	cmd.Env = append(os.Environ(), "GOROOT="+in.goroot)
	out := &cappedBuffer{max: maxOutput}
	// One writer for both streams: exec gives the child a single pipe, so
	// the interleaving is the program's own.
	cmd.Stdout, cmd.Stderr = out, out
	// A child that outlives its process group's kill (or holds the pipe)
	// must not hold up the harness.
	cmd.WaitDelay = 2 * time.Second
	isolate(cmd)
	err := cmd.Run()
	reap(cmd)
	o := outcome{Output: out.String(), TimedOut: ctx.Err() == context.DeadlineExceeded}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		o.Exit = exitErr.ExitCode()
		if o.Exit == -1 {
			o.State = exitErr.ProcessState.String()
		}
	case err != nil && !o.TimedOut:
		o.Err = err
	}
	return o
}

// cappedBuffer keeps the first max bytes written to it and drops the rest,
// still reporting every write as whole so the child never sees an error.
type cappedBuffer struct {
	buf       []byte
	max       int
	truncated bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.max - len(b.buf)
	if len(p) > room {
		b.buf = append(b.buf, p[:max(room, 0)]...)
		b.truncated = true
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *cappedBuffer) String() string {
	if b.truncated {
		return string(b.buf) + "\n[output cut at 1 MiB]\n"
	}
	return string(b.buf)
}
