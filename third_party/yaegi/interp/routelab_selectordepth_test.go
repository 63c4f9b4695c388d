package interp_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// A selector takes the shallowest of a field and a promoted method of the
// same name: a struct's own field m beside an embedded T with a method m was
// "ambiguous selector" (Go's fixedbugs/bug372.go); at the same depth it is
// still ambiguous.
func TestRoutelabSelectorDepth(t *testing.T) {
	src := `package main

import (
	"fmt"
	"strings"
)

type T struct{}

func (T) m() string { return "T" }

type TT struct {
	T
	m func() string
}

type U struct{ x int }

func (U) n() string { return "U.n" }

type W struct {
	U
	n string
}

type R struct {
	strings.Builder
	Len int
}

func ff() string { return "ff" }

func main() {
	var tt TT
	tt.m = ff
	w := W{n: "field"}
	var r R
	r.Len = 3
	r.WriteString("ab")
	fmt.Println(tt.m(), tt.T.m(), w.n, w.U.n(), r.Len, r.Builder.Len())
}
`
	if got, want := runProgram(t, src), "ff T field U.n 3 2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	bad := `package main

type T struct{}

func (T) m() string { return "T" }

type Y struct{ m int }
type Z struct {
	T
	Y
}

func main() {
	var z Z
	println(z.m)
}
`
	i := interp.New(interp.Options{})
	if _, err := i.Eval(bad); err == nil || !strings.Contains(err.Error(), "ambiguous selector") {
		t.Errorf("a field and a method at the same depth: %v, want ambiguous selector", err)
	}
}
