package interp_test

import (
	"strings"
	"testing"
)

// Type arguments left out of an explicit instantiation, or given by no
// argument, are inferred from the core types of the constraints, as Go does
// (Go's test suite: typeparam/double.go, typeparam/settable.go): the
// interpreter failed with "undefined type for E".
func TestRoutelabConstraintTypeInference(t *testing.T) {
	src := `package main

import "fmt"

type SliceOf[E any] interface{ ~[]E }

type MySlice []int

func Double[S SliceOf[E], E ~int | ~float64](s S) S {
	r := make(S, len(s))
	for i, v := range s {
		r[i] = v + v
	}
	return r
}

func Sum[S ~[]E, E ~int](s S) (t E) {
	for _, v := range s {
		t += v
	}
	return t
}

type Setter[B any] interface {
	Set(string)
	*B
}

type Name struct{ s string }

func (n *Name) Set(s string) { n.s = s }

func FromStrings[T any, PT Setter[T]](s []string) []T {
	out := make([]T, len(s))
	for i, v := range s {
		PT(&out[i]).Set(v)
	}
	return out
}

func Ptr[T any, PT interface{ *T }](v T) PT { return PT(&v) }

func main() {
	s := MySlice{1, 2, 3}
	fmt.Println(Double[MySlice](s))
	fmt.Println(Double(s), Sum[MySlice](s), Sum(s))
	fmt.Println(FromStrings[Name]([]string{"x", "y"}))
	p := Ptr[int](4)
	fmt.Printf("%T %d\n", p, *p)
}
`
	if got, want := runProgram(t, src), "[2 4 6]\n[2 4 6] 6 6\n[{x} {y}]\n*int 4\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := compileError(t, `package main

func F[T any, U ~[]T](u U) {}

func main() { F[int]() }
`), "in call to F, cannot infer U"; !strings.Contains(got, want) {
		t.Errorf("got %q, want it to contain %q", got, want)
	}
}
