package main

import (
	"os"
	"time"

	"github.com/routelab/routelab/dsl/symbols"
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
path the Jupyter kernel uses — and writes the outputs as nbformat 4. It stops at the first
failing cell unless --allow-errors is given, and exits non-zero when a cell failed. --html
also writes a standalone page of the executed notebook whose charts work offline.`,
		Example: `  routelab run notebooks/01-tour.ipynb -o out.ipynb --html out.html
  routelab run analysis.ipynb --inplace --timeout 2m`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return cfg.run(cmd, args[0]) },
	}
	f := cmd.Flags()
	f.StringVarP(&cfg.output, "output", "o", "", "write the executed notebook here")
	f.BoolVar(&cfg.inPlace, "inplace", false, "overwrite the input notebook with the executed one")
	f.StringVar(&cfg.html, "html", "", "write a standalone HTML page of the executed notebook")
	f.BoolVar(&cfg.allowErrors, "allow-errors", false, "keep going after a failing cell")
	f.DurationVar(&cfg.timeout, "timeout", 0, "interrupt any cell running longer (e.g. 90s; 0: no limit)")
	f.BoolVarP(&cfg.quiet, "quiet", "q", false, "no per-cell progress on stderr")
	cmd.MarkFlagsMutuallyExclusive("output", "inplace")
	return cmd
}

func (c *runConfig) run(cmd *cobra.Command, path string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	sess, err := symbols.NewSession()
	if err != nil {
		return err
	}
	defer sess.Close()
	opts := kernel.RunOptions{Output: c.output, HTML: c.html, AllowErrors: c.allowErrors, Timeout: c.timeout}
	if c.inPlace {
		opts.Output = path
	}
	if !c.quiet {
		opts.Progress = cmd.ErrOrStderr()
	}
	ctx, stop := interruptible(cmd)
	defer stop()
	return kernel.Run(ctx, sess, path, opts)
}
