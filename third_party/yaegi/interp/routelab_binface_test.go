package interp_test

import "testing"

// Interpreted values in compiled interfaces: a composite literal assigned to
// an error variable and a conversion to error (or to any compiled interface)
// are wrapped, so compiled code receives a value that implements the
// interface (errors.Unwrap(a) failed with "reflect: Call using struct as type
// error", and any(error(E{})) lost its Error method); a method expression on
// a compiled type, interfaces among them, is the method with its receiver
// first (error.Error(err) was a call with one argument too many,
// (*strings.Builder).WriteString took the pointer for its string). The
// expected output is go run's.
func TestRoutelabCompiledInterfaceValues(t *testing.T) {
	got := runStdout(t, `
package main

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
)

type E struct{ s string }

func (e E) Error() string { return e.s }

type P struct{ s string }

func (p *P) Error() string { return "p:" + p.s }

type S struct{}

func (S) String() string { return "S!" }

func main() {
	var a error = E{"a"}
	var b error
	b = E{"b"}
	c := error(E{"c"})
	d := error(&P{"d"})
	var e any = error(E{"e"})
	_, ok := e.(error)
	fmt.Println(a, b, c, d, e, ok)
	fmt.Println(errors.Unwrap(a) == nil, errors.Unwrap(fmt.Errorf("w: %w", c)).Error())
	fmt.Println(error.Error(a), error.Error(d), fmt.Stringer.String(S{}))
	f := error.Error
	g := fmt.Stringer.String
	fmt.Println(f(b), g(S{}), time.Duration.String(1500*time.Millisecond))
	var sb strings.Builder
	(*strings.Builder).WriteString(&sb, "built")
	fmt.Println(sb.String())
	defer func() {
		_, isRuntime := recover().(runtime.Error)
		fmt.Println("nil receiver panics with a runtime error:", isRuntime)
	}()
	var none error
	error.Error(none)
}
`)
	want := "a b c p:d e true\ntrue c\na p:d S!\nb S! 1.5s\nbuilt\nnil receiver panics with a runtime error: true\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
