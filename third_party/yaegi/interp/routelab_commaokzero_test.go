package interp_test

import "testing"

// A failed comma-ok assertion or map index stores the zero value of the
// asserted or element type, also in an interface variable: `var a, b any =
// any(nil).(bool)` at package level left a nil (Go's
// fixedbugs/issue53619.go), as did `var v, ok any = m[k]`.
func TestRoutelabCommaOKZeroInInterface(t *testing.T) {
	src := `package main

import "fmt"

var m = map[int]int{}

var a, b any = any(nil).(bool)
var c, d any = m[5]
var e, f any = any(3).(int)

type I interface{ M() }

func main() {
	var g, h any = any("x").(int)
	var i, j any = m[1]
	var k, l any = any(nil).(fmt.Stringer)
	var n, o any = any(nil).(I)
	fmt.Println(a, b, c, d, e, f, g, h, i, j, k == nil, l, n == nil, o)
}
`
	want := "false false 0 false 3 true 0 false 0 false true false true false\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
