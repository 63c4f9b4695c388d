package interp_test

import "testing"

// An instance of a generic type with several type parameters converts a
// value (Go's test suite: typeparam/issue51303.go): ss[E, []E](x) was
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
}
