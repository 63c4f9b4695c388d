package main

import (
	"fmt"
	"log"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/kernel"
	"github.com/routelab/routelab/kernel/worker"
	"github.com/spf13/cobra"
)

// The dsl session tells the worker where its cell is and shows displays
// made between cells (a live view).
var (
	_ worker.Positioner   = (*dsl.Session)(nil)
	_ kernel.Backgrounder = (*dsl.Session)(nil)
)

// memoryLimitEnv bounds a worker's memory (a size in GOMEMLIMIT's syntax,
// e.g. 4GiB; 0 for no limit); by default it is worker.DefaultMemoryLimit.
const memoryLimitEnv = "ROUTELAB_MEMORY_LIMIT"

// The kernel and `routelab run` run cells in a worker process (this binary's
// hidden "worker" subcommand), so a cell that kills its session (a fatal
// runtime error, running out of memory) costs its variables, never the
// kernel or the run. `routelab exec` runs its script in process: a script
// is one program with no session to keep, Go's own report on its standard
// error is what its author needs, and it would pay a second process start.
func newWorkerCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "worker",
		Short:  "Serve a Go session to the kernel or notebook run that started it (internal)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE:   func(*cobra.Command, []string) error { return serveWorker() },
	}
}

func serveWorker() error {
	// The worker lives as long as its standard input: signals a terminal
	// sends the whole process group (Ctrl-C) are the kernel's to act on.
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer devnull.Close()
	// The protocol owns the real standard input and output; compiled code
	// that reads os.Stdin or prints to os.Stdout would corrupt it, so it
	// gets /dev/null and standard error (the kernel's log) instead.
	stdin := os.Stdin
	requests, events := pollable(stdin), os.Stdout
	defer stdin.Close()
	os.Stdin, os.Stdout = devnull, os.Stderr
	var closeSession func() error
	defer func() {
		if closeSession != nil {
			closeSession()
		}
	}()
	return worker.Serve(func() (kernel.Interpreter, error) {
		if err := limitMemory(); err != nil {
			return nil, err
		}
		s, err := symbols.NewSession(sessionOptions(nil))
		if err != nil {
			return nil, err
		}
		closeSession = s.Close
		return s, nil
	}, requests, events, os.Stderr)
}

// limitMemory applies the memory limit before the session exists.
func limitMemory() error {
	limit, err := memoryLimit()
	if err != nil || limit == 0 {
		return err
	}
	return worker.LimitMemory(limit)
}

// memoryLimit reads memoryLimitEnv; 0 means no limit.
func memoryLimit() (uint64, error) {
	v, ok := os.LookupEnv(memoryLimitEnv)
	if !ok || v == "" {
		return worker.DefaultMemoryLimit(), nil
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %v", memoryLimitEnv, v, err)
	}
	return n, nil
}

// parseSize reads a byte count with an optional B, KiB, MiB, GiB or TiB
// suffix, as GOMEMLIMIT does.
func parseSize(s string) (uint64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	shift := uint(0)
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			s, shift = num, u.shift
			break
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > (^uint64(0))>>shift {
		return 0, fmt.Errorf("want a whole number of bytes, optionally with a B, KiB, MiB, GiB or TiB suffix (e.g. 4GiB), or 0 for no limit")
	}
	return n << shift, nil
}

// formatSize writes n in the largest unit parseSize knows that fits.
func formatSize(n uint64) string {
	for _, u := range []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		switch {
		case n < 1<<u.shift:
			continue
		case n%(1<<u.shift) == 0:
			return fmt.Sprintf("%d%s", n>>u.shift, u.suffix)
		default:
			return fmt.Sprintf("%.1f%s", float64(n)/float64(uint64(1)<<u.shift), u.suffix)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// supervisedSession runs cells in workers started from this binary, in
// dir ("" for the current directory); the log (and logName, how cells
// refer to it) receives the workers' standard error and deaths.
func supervisedSession(logger *log.Logger, logName, dir string) (*worker.Supervisor, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find this program to start its session: %w", err)
	}
	path := exe
	if runtime.GOOS == "linux" {
		// The very binary that runs, even if a newer build has replaced
		// the file since.
		path = "/proc/self/exe"
	}
	cfg := worker.Config{Path: path, Name: exe, Args: []string{"worker"}, Dir: dir, Log: logger, LogName: logName}
	if limit, err := memoryLimit(); err == nil && limit > 0 {
		cfg.OutOfMemoryHint = fmt.Sprintf("the session's limit is %s; %s changes it", formatSize(limit), memoryLimitEnv)
	}
	return worker.New(cfg), nil
}
