package main

//go:generate go test -run TestCLIReference -update .

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	root.SetIn(stdin)
	if err := root.ExecuteContext(ctx); err != nil {
		var code exitStatus
		if errors.As(err, &code) {
			return int(code)
		}
		fmt.Fprintf(stderr, "routelab: %v\n", err)
		return 1
	}
	return 0
}

// exitStatus ends the program with a status and no message (a script's
// os.Exit).
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "routelab",
		Short: "A laboratory for request routing in a tiny inference cluster",
		Long: `routelab simulates a router in front of a few inference replicas, exactly
reproducibly from a seed, and compares routing policies with common random numbers.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagValueError)
	root.SetHelpCommand(newHelpCmd())
	root.AddCommand(newCompareCmd(), newSweepCmd(), newStudyCmd(), newMergeCmd(), newPoliciesCmd(), newConsoleCmd(),
		newExecCmd(), newRunCmd(), newKernelCmd(), newInstallCmd(), newWorkerCmd())
	return root
}

// flagValueError says what a flag's type allows when its value does not parse,
// in the words of the other bad-input errors, instead of strconv's.
func flagValueError(_ *cobra.Command, err error) error {
	var bad *pflag.InvalidValueError
	if !errors.As(err, &bad) {
		return err
	}
	want := map[string]string{
		"int":          "an integer",
		"uint64":       "an integer >= 0",
		"float64":      "a number, such as 2.5",
		"float64Slice": "comma-separated numbers, such as 50,100,150",
		"duration":     "a duration, such as 90s or 2m",
		"bool":         "true or false",
	}[bad.GetFlag().Value.Type()]
	if want == "" {
		return err
	}
	if errors.Is(err, strconv.ErrRange) {
		want = "out of range; want " + want
	} else {
		want = "want " + want
	}
	return fmt.Errorf("--%s: %q is not allowed (%s)", bad.GetFlag().Name, bad.GetValue(), want)
}

// newHelpCmd is cobra's help command, except that an unknown command is an
// error: cobra's prints the root's usage on standard output and exits 0.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, _, err := c.Root().Find(args)
			if err != nil || cmd == nil {
				var names []string
				for _, sub := range c.Root().Commands() {
					if sub.IsAvailableCommand() {
						names = append(names, sub.Name())
					}
				}
				return fmt.Errorf("help: %q is not a command (want one of %s)", strings.Join(args, " "), strings.Join(names, ", "))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// wantArgs wraps cobra's argument check so that a wrong count says what
// the command takes, its usage line, rather than cobra's "accepts 1 arg(s)"
// or, for a command that takes none, "unknown command".
func wantArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if check(cmd, args) == nil {
			return nil
		}
		got := "no arguments"
		switch len(args) {
		case 0:
		case 1:
			got = fmt.Sprintf("1 argument, %q", args[0])
		default:
			got = fmt.Sprintf("%d arguments, %q", len(args), args)
		}
		return fmt.Errorf("%s: got %s (want %s)", cmd.Name(), got, cmd.UseLine())
	}
}

// interruptible returns a context cancelled by Ctrl-C (SIGINT), so a long
// comparison stops cleanly with an "interrupted" error.
func interruptible(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(cmd.Context(), os.Interrupt)
}
