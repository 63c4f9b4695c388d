package main

import (
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/routelab/routelab/cmd/routelab/internal/prebind"
	"github.com/routelab/routelab/kernel"
	"github.com/spf13/cobra"
)

func newKernelCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "kernel CONNECTION_FILE [IGNORED...]",
		Short: "Serve the Jupyter kernel (what Jupyter launches)",
		Long: `kernel serves one Jupyter session on the sockets a connection file names. Jupyter
starts it through the kernelspec that "routelab install" writes. Cells run in a worker
process: a cell that kills its session (a fatal runtime error, running out of memory)
fails with a SessionDied error, and the next cell runs in a fresh session. SIGINT
interrupts the running cell (the session keeps its variables); SIGTERM or a shutdown
request ends the kernel and its worker.

Arguments after the connection file are logged and ignored: "jupyter run FILE..." passes
the files it runs, and sends their code as cells itself. ` + memoryLimitEnv + ` bounds the
session's memory (e.g. 4GiB; 0 for no limit; default three quarters of the machine's).`,
		Args: wantArgs(cobra.MinimumNArgs(1)),
		// Unknown flags among the extra arguments are ignored too.
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE:               func(cmd *cobra.Command, args []string) error { return serveKernel(cmd, args[0], args[1:]) },
	}
}

func serveKernel(cmd *cobra.Command, connectionFile string, ignored []string) error {
	logger := log.New(cmd.ErrOrStderr(), "routelab kernel: ", log.LstdFlags)
	if len(ignored) > 0 {
		logger.Printf("ignoring arguments after the connection file: %q", ignored)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM)
	defer stop()
	sigint := make(chan os.Signal, 1)
	signal.Notify(sigint, os.Interrupt)
	defer signal.Stop(sigint)
	sess, err := supervisedSession(logger, "the kernel's log", "")
	if err != nil {
		return err
	}
	defer sess.Close()
	// The sockets listen since package initialisation (prebind); the
	// worker starts once they are served, so it never competes with that.
	return kernel.Serve(ctx, connectionFile, sess, cmd.ErrOrStderr(), kernel.WithSignals(sigint),
		kernel.WithListeners(prebind.Take(connectionFile)), kernel.WithListening(sess.Start))
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
		Args: wantArgs(cobra.NoArgs),
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
	if c.name == "" { // the kernel package would take the default name: --uninstall would remove it
		return fmt.Errorf("--name: %q is not allowed (want a kernelspec name of letters, digits, '.', '_' and '-', such as %s)", c.name, kernel.DefaultKernelName)
	}
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
