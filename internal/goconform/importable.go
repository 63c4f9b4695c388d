package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// symbolKey finds the keys of the vendored interpreter's standard library
// tables: each generated file fills symbols["fmt/fmt"] and so on.
var symbolKey = regexp.MustCompile(`(?m)^\s*symbols\["([^"]+)"\]\s*=`)

// importableSet is the set of packages a cell can import: the standard
// packages of the vendored yaegi's stdlib tables (the keys of
// stdlib.Symbols, "fmt/fmt" standing for "fmt") and of the sources it
// compiles (stdlib/generic: iter, with cmp, maps and slices), which is what
// the dsl's Session.available allows besides the session's own libraries.
// unsafe, syscall and os/exec have no table, so cells cannot import them.
// The tables are read from their source, not imported: the harness
// depends on the standard library only, and a file whose build constraint
// excludes linux/amd64 does not count.
func importableSet(stdlibDir string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(stdlibDir, "*.go"))
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if ok, _ := buildOK(string(src)); !ok {
			continue
		}
		for _, m := range symbolKey.FindAllStringSubmatch(string(src), -1) {
			if p := path.Dir(m[1]); isStandard(p) {
				set[p] = true
			}
		}
	}
	sources, err := genericSources(filepath.Join(stdlibDir, "generic"))
	if err != nil {
		return nil, err
	}
	for _, p := range sources {
		set[p] = true
	}
	return set, nil
}

// embedded finds the files of stdlib/generic/go1_22_generic.go's embedded
// variables: `//go:embed FILE` then `var NAME string`.
var embedded = regexp.MustCompile(`(?m)^//go:embed (\S+)\s+var (\w+) string`)

// genericSources returns the packages whose source the interpreter
// compiles: the package clauses of the files embedded into the variables
// listed, not commented out, in generic.Sources.
func genericSources(dir string) ([]string, error) {
	src, err := os.ReadFile(filepath.Join(dir, "go1_22_generic.go"))
	if err != nil {
		return nil, err
	}
	_, list, _ := strings.Cut(string(src), "var Sources = [...]string{")
	list, _, _ = strings.Cut(list, "\n}")
	listed := map[string]bool{}
	for _, line := range strings.Split(list, "\n") {
		line, _, _ = strings.Cut(line, "//")
		if name := strings.Trim(strings.TrimSpace(line), ","); name != "" {
			listed[name] = true
		}
	}
	var pkgs []string
	for _, m := range embedded.FindAllStringSubmatch(string(src), -1) {
		if !listed[m[2]] {
			continue
		}
		text, err := os.ReadFile(filepath.Join(dir, m[1]))
		if err != nil {
			return nil, err
		}
		if p := sourcePackage.FindStringSubmatch(string(text)); p != nil {
			pkgs = append(pkgs, p[1])
		}
	}
	return pkgs, nil
}

// sourcePackage finds a source file's package name; the generic sources
// are top-level standard packages (cmp, iter, maps, slices).
var sourcePackage = regexp.MustCompile(`(?m)^package (\w+)`)

// isStandard tells a standard package's path from the interpreter's own
// entries ("." for MapTypes, github.com/traefik/yaegi/stdlib).
func isStandard(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return p != "." && !strings.Contains(first, ".") && !strings.Contains(p, "internal")
}
