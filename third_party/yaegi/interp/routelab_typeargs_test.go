package interp_test

import "testing"

// An explicit instantiation whose type argument is an instance of a generic
// type (Combine[int, string, Pair[int, string]]) crashed the compiler
// ("nil pointer dereference"), and a generic function instantiated as a
// value (f := NewPair[int, string], apply(NewPair[int, string])) was a nil
// func or "not a generic type".
func TestRoutelabExplicitInstances(t *testing.T) {
	src := `package main

import "fmt"

type Gen[A any] func() (A, bool)

type Pair[A, B any] struct {
	A A
	B B
}

func NewPair[A, B any](a A, b B) Pair[A, B] { return Pair[A, B]{a, b} }

func Id[A any](a A) A { return a }

func Combine[T1, T2, T any](g1 Gen[T1], g2 Gen[T2], join func(T1, T2) T) Gen[T] {
	return func() (T, bool) {
		t1, _ := g1()
		t2, _ := g2()
		return join(t1, t2), true
	}
}

func apply(f func(int, string) Pair[int, string]) Pair[int, string] { return f(1, "a") }

func main() {
	var g1 Gen[int] = func() (int, bool) { return 3, true }
	var g2 Gen[string] = func() (string, bool) { return "x", true }
	gc := Combine[int, string, Pair[int, string]](g1, g2, NewPair[int, string])
	fmt.Println(gc())
	f := NewPair[int, string]
	g := Id[int]
	fmt.Println(f(2, "b"), g(4), apply(NewPair[int, string]))
}
`
	if got, want := runProgram(t, src), "{3 x} true\n{2 b} 4 {1 a}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
