package interp_test

import "testing"

// A method's unnamed parameter has a frame slot: a call copied its argument
// into the slot of the method's first local instead ("reflect.Set: value of
// type int is not assignable to type bool"), called directly, as a method
// value or through an interface (Go's fixedbugs/issue49512.go).
func TestRoutelabUnnamedMethodParameter(t *testing.T) {
	src := `package main

import "fmt"

type S struct{ m bool }

func (s *S) M1(int) (int, int) { b := true; s.m = b; return 1, 2 }

func (s *S) M2(int, string) string { z := "z"; return z }

type I interface{ M2(int, string) string }

func main() {
	s := &S{}
	fmt.Println(s.M1(0))
	fs := []func(int) (int, int){s.M1}
	fmt.Println(fs[0](1))
	var i I = s
	fmt.Println(i.M2(2, "a"), s.m)
}
`
	if got, want := runProgram(t, src), "1 2\n1 2\nz true\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
