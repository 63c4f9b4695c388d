package interp_test

import "testing"

// A multiple assignment assigns every pair: a pair whose source was written
// in place into its destination (a composite literal, a call, a receive)
// made the whole assignment a no-op, so the other pairs were left
// unassigned (c, d := f(), []int{1} left c empty, Go's typeparam/sets.go;
// c, d = f(), x left d).
func TestRoutelabMultipleAssignmentAssignsAll(t *testing.T) {
	src := `package main

import "fmt"

func f() []int { return []int{1} }

func main() {
	c, d := f(), []int{2}
	fmt.Println(c, d)
	e, g := []int{3}, f()
	fmt.Println(e, g)
	x := []int{5}
	var h, k []int
	h, k = f(), x
	fmt.Println(h, k)
	var a, b int
	a, b = len(f()), 3
	fmt.Println(a, b)
	if v, w := f(), []int{1}; len(v) != 1 {
		fmt.Println("bad", v, w)
	}
	a, b = b, a
	fmt.Println(a, b)
}
`
	want := "[1] [2]\n[3] [1]\n[1] [5]\n1 3\n3 1\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
