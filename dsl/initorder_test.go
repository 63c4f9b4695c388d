package dsl_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/routelab/routelab/dsl"
)

// A package-level var spec whose names have different types (var v, ok =
// x.(T)) is initialised in Go's order too, after the variables it uses (it
// kept its initialiser and ran before them: v was nil, ok false).
func TestInitOrderOfCommaOKVar(t *testing.T) {
	s := newSession(t)
	var out, errs bytes.Buffer
	src := `package main

import "fmt"

type T struct{ x int }

var tt, ok = i.(*T)
var i interface{} = t
var t = &T{42}
var v, found = m["a"]
var m = map[string]int{"a": 1}

func main() {
	fmt.Println(tt.x, ok, v, found)
}
`
	if err := s.RunScript(context.Background(), src, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if want := "42 true 1 true\n"; out.String() != want || errs.Len() != 0 {
		t.Errorf("stdout %q, stderr %q, want %q", out.String(), errs.String(), want)
	}
}

// os.Exit in a goroutine a script started ends the script with its code, as
// it ends a Go program (it was reported as a panic in the goroutine, and the
// script went on).
func TestScriptExitInGoroutine(t *testing.T) {
	s := newSession(t)
	var out, errs bytes.Buffer
	src := "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"time\"\n)\n\nfunc main() {\n\tgo func() {\n\t\tfmt.Println(\"exiting\")\n\t\tos.Exit(3)\n\t}()\n\ttime.Sleep(5 * time.Second)\n\tfmt.Println(\"not reached\")\n}\n"
	err := s.RunScript(context.Background(), src, &out, &errs)
	var exit *dsl.ExitError
	if !errors.As(err, &exit) || exit.Code != 3 || out.String() != "exiting\n" || errs.Len() != 0 {
		t.Errorf("got %v, stdout %q, stderr %q; want exit status 3 after \"exiting\"", err, out.String(), errs.String())
	}
}

// A panic in a goroutine a script started ends the script with status 2, as
// it ends a Go program (it was recovered, and a script waiting for the
// goroutine, as Go's fixedbugs/issue16331.go does, waited for ever).
func TestScriptPanicInGoroutine(t *testing.T) {
	s := newSession(t)
	var out, errs bytes.Buffer
	src := "package main\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nfunc main() {\n\tgo func() {\n\t\tpanic(\"boom\")\n\t}()\n\ttime.Sleep(5 * time.Second)\n\tfmt.Println(\"not reached\")\n}\n"
	err := s.RunScript(context.Background(), src, &out, &errs)
	var exit *dsl.ExitError
	if !errors.As(err, &exit) || exit.Code != 2 || out.Len() != 0 ||
		!strings.HasPrefix(errs.String(), "panic in a goroutine started by a cell: boom\n") {
		t.Errorf("got %v, stdout %q, stderr %q; want exit status 2 after the panic's report", err, out.String(), errs.String())
	}
}
