// Command dsldoc writes the documentation index of a Go package for a dsl
// Library (its Docs field), so cells can inspect the package's symbols:
//
//	//go:generate go run github.com/routelab/routelab/dsl/cmd/dsldoc -o lab_docs.go github.com/routelab/routelab/lab
//
// The output package defaults to $GOPACKAGE (set by go generate).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/routelab/routelab/dsl"
)

type config struct {
	out, pkg, fn, target string
}

func main() {
	var c config
	flag.StringVar(&c.out, "o", "", "output file (required)")
	flag.StringVar(&c.pkg, "pkg", os.Getenv("GOPACKAGE"), "package of the output file")
	flag.StringVar(&c.fn, "func", "Docs", "name of the generated function")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: dsldoc -o FILE [-pkg NAME] [-func NAME] IMPORTPATH|DIR")
		os.Exit(2)
	}
	c.target = flag.Arg(0)
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "dsldoc:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	if c.out == "" || c.pkg == "" {
		return errors.New("-o and -pkg (or $GOPACKAGE) are required")
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\n{{.Dir}}", c.target)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go list %s: %v: %s", c.target, err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 {
		return fmt.Errorf("go list %s: unexpected output %q", c.target, stdout.String())
	}
	src, err := dsl.GenerateDocIndex(lines[1], lines[0], c.pkg, c.fn)
	if err != nil {
		return err
	}
	return os.WriteFile(c.out, src, 0o644)
}
