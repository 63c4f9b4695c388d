package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/spf13/cobra"
)

func newExecCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "exec FILE.go",
		Short: "Run a Go script through the notebook session (no compiler needed)",
		Long: `exec runs a Go file with the same interpreter session notebooks use: the lab package
is available without an import, and a script is either a package main program or a
plain sequence of declarations and statements, as in notebook cells. "-" reads stdin.
The script sees the environment and, as os.Args, the file name and the arguments after it.
Ctrl-C interrupts it. The exit status is 1 when the script fails. A policy file of
--policies (compare, sweep, study, console) runs the same way.`,
		Example: `  routelab exec examples/compare/main.go
  ROUTELAB_OUT=/tmp routelab exec script.go -- --seeds 20`,
		Args: wantArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := readSource(cmd.InOrStdin(), args[0])
			if err != nil {
				return err
			}
			sess, err := symbols.NewSession(sessionOptions(args))
			if err != nil {
				return err
			}
			defer sess.Close()
			defer heapFloor(scriptHeapFloor)()
			ctx, stop := interruptible(cmd)
			defer stop()
			err = sess.RunScript(ctx, src, cmd.OutOrStdout(), cmd.ErrOrStderr())
			var exit *dsl.ExitError
			if errors.As(err, &exit) {
				return exitStatus(exit.Code)
			}
			var de *display.Error
			if errors.As(err, &de) {
				return fmt.Errorf("%s: %s", args[0], strings.Join(de.Traceback, "\n"))
			}
			return err
		},
	}
}

// sessionOptions gives cells the process environment and, for scripts, the
// script's command line as os.Args.
func sessionOptions(args []string) dsl.Options {
	return dsl.Options{Env: os.Environ(), Args: args}
}

func readSource(stdin io.Reader, path string) (string, error) {
	if path == "-" {
		b, err := io.ReadAll(stdin)
		return string(b), err
	}
	b, err := os.ReadFile(path)
	return string(b), err
}
