package interp_test

import "testing"

// A method promoted from an interface embedded in a struct with other
// fields is called on the field's value (it failed with "invalid interface
// value": Go's typeparam/issue44688.go).
func TestRoutelabMethodOfEmbeddedInterface(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type A2[T any] interface{ m2(T) }

type A1[T any] struct{ val T }

func (p *A1[T]) m1(val T) { p.val = val }

type B1[T any] struct {
	filler int
	*A1[T]
	A2[T]
}

type C[T any] struct {
	filler1, filler2 int
	B1[T]
}

type D[T any] struct {
	filler1 int
	*C[T]
}

type ImpA2[T any] struct{ f T }

func (a2 *ImpA2[T]) m2(s T) { a2.f = s; fmt.Println("m2", s) }

type I interface{ m(int) int }

type twice struct{}

func (twice) m(x int) int { return 2 * x }

type S struct {
	name string
	I
}

func main() {
	var b1 B1[string]
	b1.A1 = &A1[string]{}
	b1.A2 = &ImpA2[string]{}
	b1.A2.m2("direct")
	b1.m2("promoted")
	var d D[string]
	d.C = &C[string]{}
	d.C.B1.A2 = &ImpA2[string]{}
	d.m2("deeper")
	s := S{"s", twice{}}
	fmt.Println(s.m(21))
	p := &s
	fmt.Println(p.m(4))
}
`)
	want := "m2 direct\nm2 promoted\nm2 deeper\n42\n8\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
