package main

import (
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The platform the suite is judged for: the programs' build constraints
// are evaluated for it, as Go's driver (cmd/internal/testdir) does for the
// host. cgo is off: an interpreter cannot link C.
const (
	targetOS   = "linux"
	targetArch = "amd64"
)

// program is one test file of $GOROOT/test the harness runs.
type program struct {
	Rel        string       // slash-separated path under $GOROOT/test
	Args       []string     // the program's command-line arguments, from its header
	Importable bool         // it imports only packages cells can import
	ErrorLines map[int]bool // errorcheck: the lines with an ERROR comment
}

// selection is what a walk of $GOROOT/test chose, and how many files it
// left out for each reason.
type selection struct {
	Run, Errorcheck []program
	Skipped         map[string]int
}

// selectPrograms walks every directory under testDir except the *.dir
// ones (the packages of a multi-file test, which belong to the test file
// beside them) and chooses the single-file `run` and `errorcheck`
// programs.
func selectPrograms(testDir string, importable func(string) bool) (selection, error) {
	sel := selection{Skipped: map[string]int{}}
	err := filepath.WalkDir(testDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasSuffix(d.Name(), ".dir") || (strings.HasPrefix(d.Name(), ".") && path != testDir) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".go") || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		return sel.consider(testDir, path, importable)
	})
	return sel, err
}

// consider reads one test file and adds it to the selection, or counts why
// it is left out.
func (sel *selection) consider(testDir, path string, importable func(string) bool) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(testDir, path)
	if err != nil {
		return err
	}
	kind, args, skip := choose(string(src))
	if skip != "" {
		sel.Skipped[skip]++
		return nil
	}
	p := program{Rel: filepath.ToSlash(rel), Args: args, Importable: importsOnly(path, src, importable)}
	if kind == "run" {
		sel.Run = append(sel.Run, p)
		return nil
	}
	p.ErrorLines = errorLines(string(src))
	sel.Errorcheck = append(sel.Errorcheck, p)
	return nil
}

// choose decides from a file's header whether it is a `run` or an
// `errorcheck` program the harness runs, and with which arguments; skip
// says why not otherwise. The rules are Go's driver's: the recipe is the
// first non-blank line that is not a build constraint, with its "//"
// removed, and the build constraints before the package clause must hold.
func choose(src string) (kind string, args []string, skip string) {
	fields := strings.Fields(recipe(src))
	if len(fields) == 0 {
		return "", nil, "no recipe"
	}
	verb := fields[0]
	if verb != "run" && verb != "errorcheck" {
		return "", nil, "recipe " + verb
	}
	if ok, _ := buildOK(src); !ok {
		return "", nil, verb + " excluded by a build constraint"
	}
	if verb == "run" {
		args, skip = runArgs(fields[1:])
	} else {
		skip = errorcheckFlags(fields[1:])
	}
	if skip != "" {
		return "", nil, skip
	}
	return verb, args, ""
}

// recipe is the test's execution recipe: the first line that is neither
// blank nor a build constraint, without its comment marker.
func recipe(src string) string {
	for rest := src; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if constraint.IsGoBuild(line) || constraint.IsPlusBuild(line) {
			continue
		}
		if action := strings.TrimSpace(strings.TrimPrefix(line, "//")); action != "" {
			return action
		}
	}
	return ""
}

// runArgs takes a `run` recipe's words. Plain words are the program's
// arguments (`run arg1 arg2`), so the program is run with them. A flag
// (-gcflags, -race, -goexperiment, …) asks for a build of the Go toolchain
// an interpreter has no equivalent of, and a .go word names a second
// source file (a multi-file program): both leave the program out.
func runArgs(words []string) ([]string, string) {
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			return nil, "run with go command flags"
		}
		if strings.HasSuffix(w, ".go") {
			return nil, "run with more source files"
		}
	}
	return words, ""
}

// errorcheckFlags keeps the `errorcheck` recipes that check the language's
// errors: without flags, or with -e (report every error), -t N (a time
// limit) or -complete (functions need bodies). The other flags ask for the
// compiler's optimisation diagnostics (-0 -m -l -d=… -live -race) or a
// compiler mode (-lang=, -std, -+, -goexperiment) an interpreter does not
// have.
func errorcheckFlags(words []string) string {
	for i := 0; i < len(words); i++ {
		switch words[i] {
		case "-e", "-complete":
		case "-t":
			i++
		default:
			return "errorcheck with compiler flags"
		}
	}
	return ""
}

// buildOK evaluates the build constraints before the package clause for
// linux/amd64 with the gc toolchain and without cgo, with the tags Go's
// driver knows (release tags, the toolchain's goexperiments, test_run); it
// returns the failing line when one excludes the file.
func buildOK(src string) (bool, string) {
	header, _, found := strings.Cut(src, "\npackage")
	if !found {
		header = recipe(src)
	}
	for _, line := range strings.Split(header, "\n") {
		expr, err := constraint.Parse(line)
		if err != nil {
			continue
		}
		if !expr.Eval(tagHolds) {
			return false, strings.TrimSpace(line)
		}
	}
	return true, ""
}

// tagHolds is Go's driver's tag rule for the target platform. "unix" is not
// among its tags, so neither is it here.
func tagHolds(tag string) bool {
	switch {
	case tag == targetOS, tag == targetArch, tag == "gc", tag == "test_run":
		return true
	case strings.HasPrefix(tag, "goexperiment."):
		return slices.Contains(build.Default.ToolTags, tag)
	}
	return slices.Contains(build.Default.ReleaseTags, tag)
}

// importsOnly reports whether every import of the file is a package cells
// can import; a file that does not parse has none that can be told.
func importsOnly(path string, src []byte, importable func(string) bool) bool {
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
	if err != nil {
		return false
	}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil || !importable(p) {
			return false
		}
	}
	return true
}

// errorComment is an ERROR comment as Go's driver reads it.
var errorComment = regexp.MustCompile(`// (?:GC_)?ERROR `)

// errorLines are the lines of an errorcheck file that carry an ERROR
// comment: the lines where Go's compiler must report an error.
func errorLines(src string) map[int]bool {
	lines := map[int]bool{}
	for i, line := range strings.Split(src, "\n") {
		if errorComment.MatchString(line) {
			lines[i+1] = true
		}
	}
	return lines
}
