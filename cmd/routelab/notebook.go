package main

import (
	"fmt"
	"log"
	"path/filepath"
	"time"

	"github.com/routelab/routelab/kernel"
	"github.com/spf13/cobra"
)

type runConfig struct {
	output      string
	html        string
	allowErrors bool
	timeout     time.Duration
	inPlace     bool
	quiet       bool
}

func newRunCmd() *cobra.Command {
	cfg := runConfig{}
	cmd := &cobra.Command{
		Use:   "run NOTEBOOK.ipynb",
		Short: "Execute a notebook headless, without Jupyter",
		Long: `run executes a notebook's code cells in order in one routelab session — the same
path the Jupyter kernel uses, in a worker process — and writes the outputs as nbformat 4.
A failing cell (including one whose session died: the next cells then run in a fresh
session) gets its error as output. Without --allow-errors the run stops at the first
failing cell and exits non-zero; with --allow-errors it runs every cell and exits 0, as
"jupyter nbconvert --execute --allow-errors" does. The output notebook and the --html page
are always written, with every cell run so far. Cells run in the notebook's directory, as
under Jupyter, so relative paths resolve alike; --html's page works offline.`,
		Example: `  routelab run notebooks/01-tour.ipynb -o out.ipynb --html out.html
  routelab run analysis.ipynb --inplace --timeout 2m`,
		Args: wantArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return cfg.run(cmd, args[0]) },
	}
	f := cmd.Flags()
	f.StringVarP(&cfg.output, "output", "o", "", "write the executed notebook here")
	f.BoolVar(&cfg.inPlace, "inplace", false, "overwrite the input notebook with the executed one")
	f.StringVar(&cfg.html, "html", "", "write a standalone HTML page of the executed notebook")
	f.BoolVar(&cfg.allowErrors, "allow-errors", false, "run every cell, record errors in their cells and exit 0")
	f.DurationVar(&cfg.timeout, "timeout", 0, "interrupt any cell running longer (e.g. 90s; 0: no limit)")
	f.BoolVarP(&cfg.quiet, "quiet", "q", false, "no per-cell progress on stderr")
	cmd.MarkFlagsMutuallyExclusive("output", "inplace")
	return cmd
}

func (c *runConfig) run(cmd *cobra.Command, path string) error {
	// Read it here too, so errors name the path as given.
	if _, err := kernel.ReadNotebook(path); err != nil {
		return err
	}
	if c.timeout < 0 {
		return fmt.Errorf("--timeout: %v is not allowed (want a duration >= 0, such as 90s; 0: no limit)", c.timeout)
	}
	outs := []outFile{{"--html", c.html, []string{".html", ".htm"}}}
	if c.output != "" && key(c.output) != key(path) { // -o NOTEBOOK is --inplace
		outs = append(outs, outFile{"--output", c.output, nil})
	}
	if err := checkOutputs(outs, path); err != nil {
		return err
	}
	opts := kernel.RunOptions{Output: c.output, HTML: c.html, AllowErrors: c.allowErrors, Timeout: c.timeout}
	if c.inPlace {
		opts.Output = path
	}
	if !c.quiet {
		opts.Progress = cmd.ErrOrStderr()
	}
	// Long work in a cell draws its progress line on a terminal only:
	// pipes, files and logs stay clean.
	if isTerminal(cmd.ErrOrStderr()) {
		opts.Status = cmd.ErrOrStderr()
	}
	for _, p := range []*string{&path, &opts.Output, &opts.HTML} {
		if err := absolute(p); err != nil {
			return err
		}
	}
	// Cells run in the notebook's directory, as Jupyter and nbconvert run
	// them, so a notebook's relative paths mean the same everywhere.
	sess, err := supervisedSession(log.New(cmd.ErrOrStderr(), "routelab run: ", 0), "routelab run's standard error", filepath.Dir(path))
	if err != nil {
		return err
	}
	defer sess.Close()
	sess.Start()
	ctx, stop := interruptible(cmd)
	defer stop()
	return kernel.Run(ctx, sess, path, opts)
}

// absolute makes a non-empty *p an absolute path.
func absolute(p *string) error {
	if *p == "" {
		return nil
	}
	abs, err := filepath.Abs(*p)
	*p = abs
	return err
}
