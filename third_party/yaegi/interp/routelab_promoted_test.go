package interp_test

import "testing"

// A promoted method is the shallowest embedded field's, also when a deeper
// field of the same type comes first (b.val() called B.A.embedded.val:
// Go's fixedbugs/bug485.go).
func TestRoutelabShallowestPromotedMethod(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type embedded string

func (s embedded) val() string { return string(s) }

type A struct{ embedded }

type B struct {
	A
	embedded
}

type C struct {
	B
	embedded
}

type V interface{ val() string }

func main() {
	b := &B{A: A{embedded: "a"}, embedded: "b"}
	var v V = b
	c := C{B: *b, embedded: "c"}
	fmt.Println(b.val(), (*b).val(), v.val(), c.val(), c.B.val())
}
`)
	want := "b b b c b\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A method of an embedded runtime value is promoted over a deeper source
// method, also through an interface (s.String() called mystruct's, not
// *bytes.Buffer's: Go's fixedbugs/issue24547.go).
func TestRoutelabShallowerRuntimeMethod(t *testing.T) {
	got := runStdout(t, `package main

import (
	"bytes"
	"fmt"
)

type mystruct struct{ f int }

func (t mystruct) String() string { return "FAIL" }

type deep struct{ mystruct }

func main() {
	s := struct {
		deep
		*bytes.Buffer
	}{deep{}, bytes.NewBufferString("ok")}
	var i fmt.Stringer = s
	fmt.Println(s.String(), i.String(), s.deep.String())
}
`)
	want := "ok ok FAIL\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
