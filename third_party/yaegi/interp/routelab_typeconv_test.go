package interp_test

import "testing"

// An instance of a generic type with several type parameters is a type
// where it is written. It converts a value (Go's test suite:
// typeparam/issue51303.go): ss[E, []E](x) was
// instantiated as if it were a generic function, and the compiler failed
// with "index out of range [3] with length 3".
func TestRoutelabMultiParamTypeConversion(t *testing.T) {
	src := `package main

import "fmt"

type Pair[K comparable, V any] map[K]V

func (p Pair[K, V]) Len() int { return len(p) }

type lener interface{ Len() int }

func Count[L lener](l L) int { return l.Len() }

func Of[K comparable, V any](m map[K]V) int {
	return Count[Pair[K, V]](Pair[K, V](m))
}

func main() {
	p := Pair[string, int](map[string]int{"a": 1})
	l := Pair[int, bool]{1: true, 2: false}
	fmt.Println(p.Len(), l.Len(), Of(map[int]int{1: 1, 2: 2, 3: 3}))
}
`
	if got, want := runProgram(t, src), "1 2 3\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// The element type of a slice literal (typeparam/graph.go): the
	// literal was taken for one of the instance's struct type.
	src = `package main

import "fmt"

type pair[A, B any] struct {
	a A
	b B
}

func mk[A, B any](a A, b B) []pair[A, B] {
	return []pair[A, B]{pair[A, B]{a, b}, {a, b}}
}

func main() {
	fmt.Println(mk(1, "x"))
	q := []pair[int, int]{pair[int, int]{1, 2}}
	fmt.Println(q)
}
`
	if got, want := runProgram(t, src), "[{1 x} {1 x}]\n[{1 2}]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
