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
