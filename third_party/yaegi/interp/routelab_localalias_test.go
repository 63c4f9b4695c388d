package interp_test

import "testing"

// A type alias declared in a function is its type (Go's test suite:
// fixedbugs/issue50190.go): it was "undefined: C".
func TestRoutelabLocalTypeAlias(t *testing.T) {
	src := `package main

import "fmt"

type C = string

func main() {
	var x, y interface{}
	{
		type C = int32
		x = struct{ C }{}
	}
	{
		type C = uint32
		y = struct{ C }{}
	}
	type T struct{ a int }
	type A = T
	var a A = T{1}
	var c C = "s"
	fmt.Println(x == y, a, c)
	fmt.Printf("%T %T\n", x, y)
}
`
	if got, want := runProgram(t, src), "false {1} s\nstruct { int32 } struct { uint32 }\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
