// Command dslextract writes the yaegi symbol table of Go packages for a dsl
// Library (its Symbols field), one file per package named after its import
// path, as `yaegi extract` does:
//
//	//go:generate go run github.com/routelab/routelab/dsl/cmd/dslextract example.com/lab
//
// It runs the extractor of the yaegi vendored under third_party/, so the
// tables always match the interpreter that loads them. The output package
// defaults to $GOPACKAGE (set by go generate), which defines the map
// symbols the files fill and lazily(func()), with which each registers its
// table (dsl/symbols builds them on first use, dsl/internal/testlibsym at
// once).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/traefik/yaegi/extract"
)

func main() {
	pkg := flag.String("pkg", os.Getenv("GOPACKAGE"), "package of the output files")
	flag.Parse()
	if flag.NArg() == 0 || *pkg == "" {
		fmt.Fprintln(os.Stderr, "usage: dslextract [-pkg NAME] IMPORTPATH...")
		os.Exit(2)
	}
	if err := run(*pkg, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "dslextract:", err)
		os.Exit(1)
	}
}

func run(pkg string, paths []string) error {
	ext := extract.Extractor{Dest: pkg}
	name := strings.NewReplacer("/", "-", ".", "_", "~", "_")
	for _, p := range paths {
		var buf bytes.Buffer
		importPath, err := ext.Extract(p, pkg, &buf)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if err := os.WriteFile(name.Replace(importPath)+".go", buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
