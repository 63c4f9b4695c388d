package interp_test

import "testing"

// A blank field of a struct literal stays zero, its value evaluated only
// (it was stored: Go's fixedbugs/issue31546.go).
func TestRoutelabBlankFieldLiteral(t *testing.T) {
	got := runStdout(t, `package main

import (
	"fmt"
	"reflect"
)

var x = struct{ a, _, c int }{1, 2, 3}

type T struct {
	s string
	_ string
	_ int
	n int
}

func main() {
	calls := 0
	f := func() int { calls++; return 5 }
	y := T{"s", "blank", f(), 4}
	fmt.Println(reflect.ValueOf(x).Field(1).Int(), x, calls)
	fmt.Printf("%q %q %d %d\n", y.s, reflect.ValueOf(y).Field(1).String(), reflect.ValueOf(y).Field(2).Int(), y.n)
}
`)
	want := "0 {1 0 3} 1\n\"s\" \"\" 0 4\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
