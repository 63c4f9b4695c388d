// Command echokernel serves the fakelang "echo" language through the kernel
// package, so Jupyter's own tools (jupyter_kernel_test, nbclient, the
// benchmark script) exercise the protocol layer without the real Go session.
//
//	echokernel CONNECTION_FILE
//	echokernel install DATA_DIR [NAME]   write a kernelspec into DATA_DIR/kernels/NAME
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/routelab/routelab/kernel"
	"github.com/routelab/routelab/kernel/internal/fakelang"
)

// Info describes the echo language to Jupyter.
func Info() kernel.Info {
	info := kernel.DefaultInfo()
	info.Implementation = "echokernel"
	info.Banner = "echo — the routelab kernel's test language"
	info.Language = kernel.LanguageInfo{
		Name: "echo", Version: "1.0", Mimetype: "text/plain", FileExtension: ".echo",
		PygmentsLexer: "text", CodemirrorMode: "null",
	}
	info.KernelName = "routelab-echo"
	info.DisplayName = "Echo (routelab test kernel)"
	return info
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "echokernel:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) >= 2 && args[0] == "install":
		name := "routelab-echo"
		if len(args) > 2 {
			name = args[2]
		}
		dir, err := kernel.Install(kernel.InstallOptions{
			Name: name, DisplayName: Info().DisplayName, Language: "echo",
			DataDir: args[1], Argv: []string{"{connection_file}"},
		})
		if err == nil {
			fmt.Println(filepath.Clean(dir))
		}
		return err
	case len(args) == 1:
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		defer stop()
		return kernel.Serve(ctx, args[0], fakelang.New(), os.Stderr, kernel.WithInfo(Info()))
	}
	return fmt.Errorf("usage: echokernel CONNECTION_FILE | echokernel install DATA_DIR [NAME]")
}
