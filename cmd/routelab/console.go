package main

import (
	"fmt"
	"os/exec"
	"runtime"

	"github.com/routelab/routelab/console"
	"github.com/spf13/cobra"
)

// consoleConfig holds the flags of `routelab console`.
type consoleConfig struct {
	console.Config
	open bool
}

func newConsoleCmd() *cobra.Command {
	cfg := &consoleConfig{}
	cmd := &cobra.Command{
		Use:   "console",
		Short: "Serve the live console: watch a cluster and steer it in the browser",
		Long: `console serves a local web page on which a seeded cluster runs live, in dilated time
(120 simulated ms a real second), and is steered: the policy, bursts, stragglers, failures,
the traffic. Each open page has its own simulation; whatever is done is recorded, and the
page compares policies on it and saves it as a scenario file and as a Go cell.

It listens on loopback unless told otherwise; on any other address the URL it prints carries
a token, as Jupyter's does. --policies adds the policies of a policy file to the policy
picker, found as compare finds them (docs/cli.md, Policy files). Ctrl-C stops it. See
docs/console.md.`,
		Example: `  routelab console --open
  routelab console --policies mine.go
  routelab console --addr 0.0.0.0:8080   # reachable from other machines, with a token`,
		Args: wantArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cfg.run(cmd) },
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Addr, "addr", console.DefaultAddr, "host:port to listen on")
	f.BoolVar(&cfg.open, "open", false, "open the console in the default browser")
	f.StringVar(&cfg.Policies, "policies", "", "a policy file FILE.go whose policies join the policy picker (as compare --policies takes them)")
	return cmd
}

func (c *consoleConfig) run(cmd *cobra.Command) error {
	ctx, stop := interruptible(cmd)
	defer stop()
	c.Stderr = cmd.ErrOrStderr()
	return console.Run(ctx, c.Config, func(url string) {
		fmt.Fprintf(cmd.ErrOrStderr(), "routelab console: %s (Ctrl-C stops it)\n", url)
		if c.open {
			if err := openBrowser(url); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "routelab console: could not open a browser (%v): open the address above\n", err)
			}
		}
	})
}

// openBrowser opens url with the desktop's default browser.
func openBrowser(url string) error {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		return exec.Command("rundll32", "url.dll,FileProtocolHandler", url).Start()
	}
	return exec.Command(name, url).Start()
}
