package interp_test

import "testing"

// A method of a generic type calls a method declared after it (Go's test
// suite: typeparam/issue48042.go): each method's instance was compiled
// before the next was declared, so l.second() was "l.second undefined".
func TestRoutelabGenericMethodCallsLaterMethod(t *testing.T) {
	src := `package main

import "fmt"

type Foo[T any] struct{ v T }

func (l *Foo[T]) First() T { return l.second().v }

func (l Foo[T]) Twice() [2]T { return [2]T{l.last(), l.last()} }

func (l *Foo[T]) second() *Foo[T] { return l }

func (l Foo[T]) last() T { return l.v }

func main() {
	foo := &Foo[int]{v: 7}
	fmt.Println(foo.First(), foo.Twice(), Foo[string]{"a"}.Twice())
}
`
	if got, want := runProgram(t, src), "7 [7 7] [a a]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
