package interp_test

import (
	"io"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// runStdout evaluates src, a main package, and returns what it printed on
// standard output (yaegi notes recovered panics on standard error).
func runStdout(t *testing.T, src string) string {
	t.Helper()
	var out strings.Builder
	i := interp.New(interp.Options{Stdout: &out, Stderr: io.Discard})
	if err := i.Use(stdlib.Symbols()); err != nil {
		t.Fatal(err)
	}
	if _, err := evalStep(i, src); err != nil {
		t.Fatalf("%v (output %q)", err, out.String())
	}
	return out.String()
}

// *p with a nil p panics with Go's run-time error, also as an operand of
// println (it printed a nil interface and went on).
func TestRoutelabNilDereference(t *testing.T) {
	got := runStdout(t, `package main

import (
	"fmt"
	"runtime"
)

func try(name string, f func()) {
	defer func() {
		r := recover()
		_, ok := r.(runtime.Error)
		fmt.Println(name, ok, r)
	}()
	f()
}

func main() {
	var x *int
	try("println", func() { println(*x) })
	try("define", func() { y := *x; _ = y })
	try("cond", func() {
		var b *bool
		if *b {
		}
	})
}
`)
	want := `println true runtime error: invalid memory address or nil pointer dereference
define true runtime error: invalid memory address or nil pointer dereference
cond true runtime error: invalid memory address or nil pointer dereference
`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A value method called with a nil pointer receiver panics as in Go: through
// an interface with the message of Go's pointer wrapper, directly with a nil
// dereference (it failed in reflect.Value.Set).
func TestRoutelabNilReceiverOfValueMethod(t *testing.T) {
	got := runStdout(t, `package main

import (
	"fmt"
	"runtime"
)

type T int

func (t T) F() {}

type I interface{ F() }

var (
	p *T
	i I = p
)

func try(name string, f func()) {
	defer func() {
		r := recover()
		_, ok := r.(runtime.Error)
		fmt.Println(name, ok, r)
	}()
	f()
}

func main() {
	try("interface", func() { i.F() })
	try("direct", func() { p.F() })
}
`)
	want := `interface true value method main.T.F called using nil *T pointer
direct true runtime error: invalid memory address or nil pointer dereference
`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
