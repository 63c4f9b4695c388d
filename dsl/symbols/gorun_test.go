package symbols_test

import (
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
)

// Go is the reference for what a cell means. Each program of
// testdata/gorun runs three ways: with go run, as a script through a
// session, and as a cell (its declarations and the body of its main at the
// top level). All three must print the same, or Go must refuse the program
// and the session refuse it with Go's message (at Go's line and column for
// the script). A program marked "Only as a file:" depends on Go's order of
// package initialisation, which a cell's statements do not have: its cell
// form is not run.
func TestCellsMeanWhatGoMeans(t *testing.T) {
	goBin, err := osexec.LookPath("go")
	if err != nil {
		t.Fatal("go run is the oracle of this test:", err)
	}
	files, _ := filepath.Glob("testdata/gorun/*.go")
	if len(files) == 0 {
		t.Fatal("no programs in testdata/gorun")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".go"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, refusal := goRun(t, goBin, file)
			script, scriptErr := runScript(t, string(src))
			cell, cellErr := script, scriptErr
			if !strings.Contains(string(src), "\n// Only as a file:") {
				cell, cellErr = runCell(t, cellForm(t, string(src)))
			}
			if refusal != "" {
				if scriptErr != refusal {
					t.Errorf("script: error %q, want Go's %q", scriptErr, refusal)
				}
				if msg := stripPos(refusal); stripPos(cellErr) != msg {
					t.Errorf("cell: error %q, want Go's %q", cellErr, msg)
				}
				return
			}
			if scriptErr != "" || script != want {
				t.Errorf("script: output %q (error %q), want go run's %q", script, scriptErr, want)
			}
			if cellErr != "" || cell != want {
				t.Errorf("cell: output %q (error %q), want go run's %q", cell, cellErr, want)
			}
		})
	}
}

var goErrLine = regexp.MustCompile(`(?m)^[^\s:]+\.go:(\d+):(\d+): (.*)$`)

// goRun runs file with go run: its output, or the first compile error as
// "line:col: message".
func goRun(t *testing.T, goBin, file string) (out, refusal string) {
	cmd := osexec.Command(goBin, "run", file)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	if err == nil {
		return b.String(), ""
	}
	if m := goErrLine.FindStringSubmatch(b.String()); m != nil && strings.HasPrefix(b.String(), "# ") {
		return "", m[1] + ":" + m[2] + ": " + m[3]
	}
	t.Fatalf("go run %s: %v\n%s", file, err, b.String())
	return "", ""
}

func runScript(t *testing.T, src string) (string, string) {
	s := newSession(t)
	var out bytes.Buffer
	err := s.RunScript(context.Background(), src, &out, &out)
	return out.String(), errValue(err)
}

func runCell(t *testing.T, code string) (string, string) {
	s := newSession(t)
	var k sink
	_, err := s.Execute(context.Background(), code, &k)
	return k.out.String(), errValue(err)
}

func errValue(err error) string {
	var de *display.Error
	if errors.As(err, &de) {
		return de.Value
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func stripPos(msg string) string {
	if m := regexp.MustCompile(`^\d+:\d+: `).FindString(msg); m != "" {
		return msg[len(m):]
	}
	return msg
}

// cellForm is a program as a notebook user writes it: no package clause,
// the imports and declarations, then the statements of main at the top
// level.
func cellForm(t *testing.T, src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	text := func(n ast.Node) string { return src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset] }
	var parts []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "main" && fd.Recv == nil {
			for _, st := range fd.Body.List {
				parts = append(parts, text(st))
			}
			continue
		}
		parts = append(parts, text(d))
	}
	return strings.Join(parts, "\n")
}
