package interp_test

import "testing"

// Composite literals of a generic type instantiated with several type
// arguments each run in their turn (the first one ran on into the code after
// the last one: Go's typeparam/issue47272.go failed with "reflect.Set: value
// of type int is not assignable to type error").
func TestRoutelabCompositeLiteralsOfMultiParamGeneric(t *testing.T) {
	got := runStdout(t, `package main

import (
	"errors"
	"fmt"
)

type Result[T, E any] struct {
	ok  bool
	val T
	err E
}

func (r Result[T, E]) String() string {
	if r.ok {
		return fmt.Sprintf("Ok(%v)", r.val)
	}
	return fmt.Sprintf("Err(%v)", r.err)
}

func Ok[T, E any](val T) Result[T, E]  { return Result[T, E]{ok: true, val: val} }
func Err[T, E any](err E) Result[T, E] { return Result[T, E]{ok: false, err: err} }

func main() {
	fmt.Println("start")
	a := Result[int, string]{err: "a"}
	fmt.Println("a", a.err)
	b := Result[int, string]{err: "b"}
	fmt.Println("b", b.err)
	x := Ok[int, error](1)
	y := Err[int, error](errors.New("test"))
	fmt.Println(x, y)
}
`)
	want := "start\na a\nb b\nOk(1) Err(test)\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
