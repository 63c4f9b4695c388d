package interp_test

import "testing"

// A generic type may be declared in a function, as at the package level
// (it was "type definition not implemented: fieldList").
func TestRoutelabLocalGenericType(t *testing.T) {
	src := `package main

import "fmt"

func one() any {
	type T[_ any] int
	return T[int](3)
}

func main() {
	type P[K comparable, V any] struct {
		k K
		v V
	}
	type L[E any] []E
	p := P[string, int]{"a", 1}
	q := P[int, bool]{k: 2, v: true}
	l := L[string]{"x", "y"}
	fmt.Println(p.k, p.v, q.k, q.v, len(l), l[1], one())
}
`
	if got, want := runProgram(t, src), "a 1 2 true 2 y 3\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
