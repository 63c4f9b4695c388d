package interp_test

import "testing"

// A unary operation assigned to, or returned as, an interface value is
// stored in it: `a = !a.(bool)` with `a` an `any` failed with "reflect: call
// of reflect.Value.SetBool on interface Value" (Go's gcgort.go, in a
// goroutine).
func TestRoutelabUnaryIntoInterface(t *testing.T) {
	src := `package main

type I interface{}

func not(x bool) any  { return !x }
func neg(x int) I     { return -x }
func inv(x uint8) any { return ^x }

func main() {
	a := interface{}(bool(false))
	for i := 0; i < 3; i++ {
		a = !a.(bool)
	}
	var b any = 3
	b = -b.(int)
	var c I = 5
	c = ^c.(int)
	var d any = 1.5
	d = +d.(float64)
	println(a.(bool), b.(int), c.(int), d.(float64))
	println(not(true).(bool), neg(4).(int), inv(1).(uint8))
	ch := make(chan int, 1)
	ch <- 8
	var e any
	e = <-ch
	println(e.(int))
}
`
	if got, want := runProgram(t, src), "true -3 -6 1.5\nfalse -4 254\n8\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
