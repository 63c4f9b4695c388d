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
// stdlib.Symbols, "fmt/fmt" standing for "fmt"), which is what the dsl's
// Session.available allows besides the session's own libraries. unsafe,
// syscall, os/exec and iter have no table, so cells cannot import them.
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
	return set, nil
}

// isStandard tells a standard package's path from the interpreter's own
// entries ("." for MapTypes, github.com/traefik/yaegi/stdlib).
func isStandard(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return p != "." && !strings.Contains(first, ".") && !strings.Contains(p, "internal")
}
