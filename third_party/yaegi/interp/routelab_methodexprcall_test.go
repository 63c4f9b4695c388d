package interp_test

import "testing"

// A call of a method expression, T.M(x, args), is T(x).M(args) (Go's test
// suite: typeparam/issue51521.go, typeparam/mdempsky/13.go): with T an
// interface type it was "too many arguments in call to Mer.M", a method
// promoted from an embedded interface or a value method through a pointer
// type, (*MyMer).M(&mm), failed, and a nil interface gave a reflect panic
// instead of Go's nil dereference error.
func TestRoutelabMethodExpressionCalls(t *testing.T) {
	src := `package main

import (
	"fmt"
	"strings"
)

type Mer interface{ M() string }

type MyMer int

func (m MyMer) M() string { return fmt.Sprint("m", int(m)) }

func (m *MyMer) Inc(d int) { *m += MyMer(d) }

func F[T Mer](t T) string { return T.M(t) + " " + t.M() }

func G[T any]() { defer catch(); interface{ M() T }.M(nil) }

func main() {
	mm := MyMer(3)
	var m Mer = mm
	fmt.Println(Mer.M(m), interface{ M() string }.M(mm), (*MyMer).M(&mm))
	(*MyMer).Inc(&mm, 2)
	fmt.Println(F[Mer](mm), F[*MyMer](&mm), F[struct{ Mer }](struct{ Mer }{mm}), F[*struct{ *MyMer }](&struct{ *MyMer }{&mm}))
	G[int]()
}

func catch() {
	err := recover()
	if err, ok := err.(error); ok && strings.Contains(err.Error(), "nil pointer dereference") {
		fmt.Println("nil pointer dereference")
		return
	}
	fmt.Println("FAIL", err)
}
`
	if got, want := runProgram(t, src), "m3 m3 m3\nm5 m5 m5 m5 m5 m5 m5 m5\nnil pointer dereference\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
