package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/kernel"
	"github.com/spf13/cobra"
)

func newKernelCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "kernel CONNECTION_FILE",
		Short: "Serve the Jupyter kernel (what Jupyter launches)",
		Long: `kernel serves one Jupyter session on the sockets a connection file names. Jupyter
starts it through the kernelspec that "routelab install" writes. SIGINT interrupts the
running cell (the session keeps its variables); SIGTERM or a shutdown request ends it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM)
			defer stop()
			sigint := make(chan os.Signal, 1)
			signal.Notify(sigint, os.Interrupt)
			defer signal.Stop(sigint)
			sess := startSession(func() (*dsl.Session, error) { return symbols.NewSession(sessionOptions(nil)) }, cmd.ErrOrStderr())
			defer sess.Close()
			return kernel.Serve(ctx, args[0], sess, cmd.ErrOrStderr(), kernel.WithSignals(sigint))
		},
	}
}

type installConfig struct {
	user, sysPrefix bool
	prefix          string
	name            string
	displayName     string
	python          string
	uninstall       bool
}

func newInstallCmd() *cobra.Command {
	cfg := installConfig{}
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install the Jupyter kernelspec for this binary",
		Long: `install writes a kernelspec (kernel.json with this binary's absolute path, interrupt_mode
"message", logos) so Jupyter lists "Go (routelab)". By default it installs for the current
user; --sys-prefix installs into the prefix of a Python environment, --prefix into any.`,
		Example: `  routelab install
  routelab install --sys-prefix --python /usr/bin/python3
  routelab install --uninstall`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cfg.run(cmd) },
	}
	f := cmd.Flags()
	f.BoolVar(&cfg.user, "user", false, "install for the current user (the default)")
	f.BoolVar(&cfg.sysPrefix, "sys-prefix", false, "install into the Python environment's prefix (see --python)")
	f.StringVar(&cfg.prefix, "prefix", "", "install into PREFIX/share/jupyter/kernels")
	f.StringVar(&cfg.name, "name", kernel.DefaultKernelName, "kernelspec name")
	f.StringVar(&cfg.displayName, "display-name", kernel.DefaultDisplayName, "name shown by notebook front ends")
	f.StringVar(&cfg.python, "python", "", "Python whose sys.prefix --sys-prefix uses (default: python3 on PATH)")
	f.BoolVar(&cfg.uninstall, "uninstall", false, "remove the kernelspec instead")
	cmd.MarkFlagsMutuallyExclusive("user", "sys-prefix", "prefix")
	return cmd
}

func (c *installConfig) run(cmd *cobra.Command) error {
	opts := kernel.InstallOptions{Name: c.name, DisplayName: c.displayName, Prefix: c.prefix}
	if c.sysPrefix {
		p, err := kernel.SysPrefix(c.python)
		if err != nil {
			return err
		}
		opts.Prefix = p
	}
	if c.uninstall {
		dir, err := kernel.Uninstall(opts)
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "removed kernelspec %s\n", dir)
		return nil
	}
	dir, err := kernel.Install(opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "installed kernelspec %q in %s\n", c.name, filepath.Clean(dir))
	return nil
}

// The dsl session is what the kernel and the notebook runner execute cells with.
var (
	_ kernel.Interpreter = (*dsl.Session)(nil)
	_ kernel.Interpreter = (*lazySession)(nil)
)

// lazySession is the kernel's interpreter: the dsl session is created in the
// background while the kernel binds its sockets and answers kernel_info, so
// front ends see the kernel ready without waiting for the interpreter (about
// 10 ms, enough to miss a client's first connection attempt and wait for
// its 100 ms reconnect). Requests that need the session wait for it.
type lazySession struct {
	ready chan struct{}
	sess  *dsl.Session
	err   error
}

// startSession starts creating a session with newSession (symbols.NewSession
// in the kernel); a failure is logged to logw and reported by every cell.
func startSession(newSession func() (*dsl.Session, error), logw io.Writer) *lazySession {
	l := &lazySession{ready: make(chan struct{})}
	go func() {
		defer close(l.ready)
		if l.sess, l.err = newSession(); l.err != nil {
			fmt.Fprintf(logw, "routelab kernel: cannot start the Go session: %v\n", l.err)
		}
	}()
	return l
}

// session waits for the session; nil when it could not be created.
func (l *lazySession) session() *dsl.Session {
	<-l.ready
	return l.sess
}

func (l *lazySession) Execute(ctx context.Context, code string, sink display.Sink) (display.Bundle, error) {
	select {
	case <-l.ready:
	case <-ctx.Done():
		return nil, &display.Error{Name: dsl.Interrupted, Value: "the kernel stopped before the Go session started"}
	}
	if l.sess == nil {
		return nil, &display.Error{Name: "SessionError", Value: "the Go session could not start: " + l.err.Error() +
			" (restart the kernel; the kernel's log has the details)"}
	}
	return l.sess.Execute(ctx, code, sink)
}

// Interrupt has nothing to stop before the session exists.
func (l *lazySession) Interrupt() {
	select {
	case <-l.ready:
		if l.sess != nil {
			l.sess.Interrupt()
		}
	default:
	}
}

func (l *lazySession) Complete(code string, cursor int) display.Completion {
	if s := l.session(); s != nil {
		return s.Complete(code, cursor)
	}
	return display.Completion{Start: cursor, End: cursor}
}

func (l *lazySession) Inspect(code string, cursor int) (display.Bundle, bool) {
	if s := l.session(); s != nil {
		return s.Inspect(code, cursor)
	}
	return nil, false
}

func (l *lazySession) IsComplete(code string) (string, string) {
	if s := l.session(); s != nil {
		return s.IsComplete(code)
	}
	return "unknown", ""
}

// Close ends the session once it exists.
func (l *lazySession) Close() error {
	if s := l.session(); s != nil {
		return s.Close()
	}
	return nil
}
