package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"time"
)

// config is the command line.
type config struct {
	bin, form, refused string
	goroot, tables     string
	suites, match      string
	limit              time.Duration
	workers            int
	update, check      bool
	verbose            bool
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code, err := run(ctx, cfg, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "goconform:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// routelabRefusal is how `routelab exec` reports a program it refuses at
// compile time: "routelab: FILE.go: CompileError: LINE:COL: message" on
// stderr, with exit status 1 (cmd/routelab/exec.go prints the traceback
// of the dsl's CompileError, dsl/errors.go).
const routelabRefusal = `^routelab: \S+\.go: CompileError: `

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("goconform", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.bin, "bin", "", "the interpreter to judge (default: ./cmd/routelab, built into a temporary directory)")
	fs.StringVar(&c.form, "form", "exec", `how the interpreter is called: "exec" (BIN exec FILE) or "plain" (BIN FILE)`)
	fs.StringVar(&c.refused, "refused", routelabRefusal, "a regular expression matching the output line of a program refused at compile time")
	fs.StringVar(&c.goroot, "goroot", "", "the Go tree whose test directory is run (default: go env GOROOT)")
	fs.StringVar(&c.tables, "tables", "", "the directory of verdicts.tsv and errorcheck.tsv (default: internal/goconform/testdata)")
	fs.StringVar(&c.suites, "suite", "all", `which programs: "run", "errorcheck" or "all"`)
	fs.StringVar(&c.match, "match", "", "only the programs whose path under $GOROOT/test matches this regular expression")
	fs.DurationVar(&c.limit, "timeout", 10*time.Second, "the time limit of one program")
	fs.IntVar(&c.workers, "workers", 2, "how many programs run at once")
	fs.BoolVar(&c.update, "update", false, "write the tables from this run")
	fs.BoolVar(&c.check, "check", false, "compare this run with the tables and fail on a regression")
	fs.BoolVar(&c.verbose, "v", false, "print each verdict as it comes")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	return c, validate(c, stderr)
}

// validate refuses flag values that cannot work, before anything runs.
func validate(c config, stderr io.Writer) error {
	var err error
	switch {
	case c.form != "exec" && c.form != "plain":
		err = fmt.Errorf(`-form %q: want "exec" or "plain"`, c.form)
	case c.suites != "all" && c.suites != "run" && c.suites != "errorcheck":
		err = fmt.Errorf(`-suite %q: want "run", "errorcheck" or "all"`, c.suites)
	case c.update && c.check:
		err = fmt.Errorf("-update and -check: choose one")
	case c.workers < 1 || c.limit <= 0:
		err = fmt.Errorf("-workers and -timeout must be positive")
	}
	if err == nil {
		_, err = regexp.Compile(c.refused)
	}
	if err == nil {
		_, err = regexp.Compile(c.match)
	}
	if err != nil {
		fmt.Fprintln(stderr, "goconform:", err)
	}
	return err
}
