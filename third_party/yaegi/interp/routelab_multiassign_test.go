package interp_test

import "testing"

// A multiple assignment stores every value, through temporaries: one source
// written straight into its destination (a call, a receive, a composite
// literal) made the whole statement do nothing else, so `want, got = a+c,
// f(a)` left want 0 (Go's armimm.go), and `p, q = q, f(p)` read q after f had
// written it.
func TestRoutelabMultipleAssignment(t *testing.T) {
	src := `package main

type S struct{ A int }

func add(x uint32) uint32 { return x + 5 }

func main() {
	var a uint32 = 10
	var want, got uint32
	want, got = a+3, add(a)
	println(want, got)
	want, got = add(a), a+3
	println(want, got)
	if want, got = a+1, add(a); got != want {
		println("if", want, got)
	}
	x, y := a+3, add(a)
	println(x, y)
	var s S
	var k int
	s, k = S{3}, 4
	println(s.A, k)
	k, s = 6, S{5}
	println(s.A, k)
	t, u := S{7}, 8
	println(t.A, u)
	c := make(chan int, 2)
	c <- 9
	c <- 10
	var r int
	k, r = 11, <-c
	println(k, r)
	k2, r2 := 12, <-c
	println(k2, r2)
	p, q := uint32(1), uint32(2)
	p, q = q, add(p)
	println(p, q)
}
`
	want := "13 15\n15 13\nif 11 15\n13 15\n3 4\n5 6\n7 8\n11 9\n12 10\n2 6\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

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

// A multiple assignment of values of interface types to `any` variables
// (p, q := one(), two() with any results) stores them: the temporary was a
// valueInterface, which an `any` value is not assignable to (Go's
// typeparam/ifaceconv.go, issue54456.go).
func TestRoutelabMultipleAssignmentToAny(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type S interface{ M() int }

type Ten int

func (t Ten) M() int { return int(t) * 10 }

func one() any { return 1 }
func two() any { return "two" }

func f[T any](x T) interface{} {
	var i interface{} = x
	return i
}

func main() {
	p, q := one(), two()
	fmt.Println(p, q)
	a, b := f[int](7), 7
	fmt.Println(a == b, a, b)
	var s S
	var e any
	s, e = Ten(4), Ten(5)
	fmt.Println(s.M(), e.(S).M())
	s, e = e.(S), s
	fmt.Println(s.M(), e.(S).M())
}
`)
	want := "1 two\ntrue 7 7\n40 50\n50 40\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
