package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The recipe rules are Go's driver's, for linux/amd64 without cgo.
func TestChooseFollowsTheDriversHeaderRules(t *testing.T) {
	tests := []struct {
		name, src, kind, skip string
		args                  []string
	}{
		{"plain run", "// run\n\npackage main\n", "run", "", nil},
		{"no space after the slashes", "//run\n\npackage main\n", "run", "", nil},
		{"blank lines first", "\n\n// run\n\npackage main\n", "run", "", nil},
		{"build constraint first", "//go:build linux\n\n// run\n\npackage main\n", "run", "", nil},
		{"constraint after the recipe", "// run\n\n//go:build amd64 && !cgo\n\npackage main\n", "run", "", nil},
		{"release tag", "// run\n\n//go:build go1.21\n\npackage main\n", "run", "", nil},
		{"arguments for the program", "// run arg1 arg2\n\npackage main\n", "run", "", []string{"arg1", "arg2"}},
		{"another architecture", "//go:build arm64\n\n// run\n\npackage main\n", "", "run excluded by a build constraint", nil},
		{"needs cgo", "// run\n\n//go:build cgo\n\npackage main\n", "", "run excluded by a build constraint", nil},
		{"unix is not a tag of the driver", "//go:build unix\n\n// run\n\npackage main\n", "", "run excluded by a build constraint", nil},
		{"old-style constraint", "// +build ignore\n\n// run\n\npackage main\n", "", "run excluded by a build constraint", nil},
		{"compiler flags", "// run -gcflags=-l\n\npackage main\n", "", "run with go command flags", nil},
		{"race detector", "// run -race\n\npackage main\n", "", "run with go command flags", nil},
		{"two source files", "// run cmplxdivide1.go\n\npackage main\n", "", "run with more source files", nil},
		{"a copyright line is the recipe", "// Copyright 2009\n\n// run\n\npackage main\n", "", "recipe Copyright", nil},
		{"errorcheck", "// errorcheck\n\npackage p\n", "errorcheck", "", nil},
		{"errorcheck with a time limit", "// errorcheck -t 10\n\npackage p\n", "errorcheck", "", nil},
		{"errorcheck of escape analysis", "// errorcheck -0 -m -l\n\npackage p\n", "", "errorcheck with compiler flags", nil},
		{"errorcheck of a language version", "// errorcheck -lang=go1.17\n\npackage p\n", "", "errorcheck with compiler flags", nil},
		{"rundir", "// rundir\n\npackage ignored\n", "", "recipe rundir", nil},
		{"nothing", "\n\n", "", "no recipe", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, args, skip := choose(tt.src)
			if kind != tt.kind || skip != tt.skip || !slices.Equal(args, tt.args) {
				t.Errorf("choose = %q, %q, %q; want %q, %q, %q", kind, args, skip, tt.kind, tt.args, tt.skip)
			}
		})
	}
}

// Every directory is walked except the *.dir packages of multi-file tests.
func TestSelectProgramsWalksSubdirectories(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"top.go":                    "// run\n\npackage main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }\n",
		"fixedbugs/bug1.go":         "// run\n\npackage main\n\nimport \"unsafe\"\n\nvar _ = unsafe.Sizeof(0)\n\nfunc main() {}\n",
		"typeparam/deep/e.go":       "// errorcheck\n\npackage p\n\nvar x int = \"s\" // ERROR \"cannot use\"\n",
		"fixedbugs/issue1.dir/a.go": "// run\n\npackage main\n\nfunc main() {}\n",
		"fixedbugs/compiled.go":     "// compile\n\npackage p\n",
		"notes.txt":                 "// run\n",
	}
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sel, err := selectPrograms(dir, func(p string) bool { return p == "fmt" })
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, p := range sel.Run {
		runs = append(runs, p.Rel+" "+map[bool]string{true: "importable", false: "not importable"}[p.Importable])
	}
	if want := []string{"fixedbugs/bug1.go not importable", "top.go importable"}; !slices.Equal(runs, want) {
		t.Errorf("run programs %q, want %q", runs, want)
	}
	if len(sel.Errorcheck) != 1 || sel.Errorcheck[0].Rel != "typeparam/deep/e.go" || !sel.Errorcheck[0].ErrorLines[5] {
		t.Errorf("errorcheck programs %+v, want typeparam/deep/e.go with an error at line 5", sel.Errorcheck)
	}
	if sel.Skipped["recipe compile"] != 1 {
		t.Errorf("skipped %v, want one compile recipe", sel.Skipped)
	}
}

// The importable packages are the vendored interpreter's standard tables
// and the packages it compiles from source (iter): what has neither
// (unsafe, syscall, os/exec) cannot be imported.
func TestImportableSetIsTheVendoredTables(t *testing.T) {
	set, err := importableSet(filepath.Join("..", "..", "third_party", "yaegi", "stdlib"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"fmt", "math/rand/v2", "slices", "maps", "cmp", "runtime", "log/syslog", "os", "iter"} {
		if !set[p] {
			t.Errorf("%s is not importable", p)
		}
	}
	for _, p := range []string{"unsafe", "syscall", "os/exec", "atomic", ".", "github.com/traefik/yaegi/stdlib", "internal/abi"} {
		if set[p] {
			t.Errorf("%s is importable", p)
		}
	}
	if len(set) < 100 {
		t.Errorf("only %d importable packages", len(set))
	}
}

func TestErrorLinesAreTheDriversComments(t *testing.T) {
	src := "package p\n\nvar a = b // ERROR \"undefined\"\nvar c = 1 // GC_ERROR \"x\"\n// ERRORS are not checked here\nvar d = 2\n"
	got := errorLines(src)
	if !got[3] || !got[4] || len(got) != 2 {
		t.Errorf("error lines %v, want 3 and 4", got)
	}
}
