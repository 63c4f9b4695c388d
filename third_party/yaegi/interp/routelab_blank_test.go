package interp_test

import "testing"

// A blank destination gets a slot of its own: the result of a comparison,
// an operation or a receive stored into it went to the frame's slot 0, a
// reflect panic when that variable's type differed (Go's
// fixedbugs/issue15303.go, bug225.go, issue8347.go). The status of a comma-ok
// operation may be stored into an interface (fixedbugs/issue16870.go).
func TestRoutelabBlankDestinations(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

func main() {
	f := func() [2]int { return [2]int{} }
	calls := 0
	g := func() int { calls++; return calls }
	x := 7
	_ = f() == f()
	_ = g() == g()
	_ = -g()
	_ = !(x > 0)
	fmt.Println(calls, x)

	c := make(chan int, 2)
	c <- 1
	c <- 2
	_, ok := <-c
	var okAny any
	_, okAny = <-c
	fmt.Println(ok, okAny, x)

	b := make(chan bool, 1)
	b <- true
	select {
	case _ = <-b:
		fmt.Println("received")
	default:
	}
	close(b)
	select {
	case _, okAny = <-b:
		fmt.Println("closed", okAny)
	}

	var i, st any
	c <- 3
	i, st = <-c
	fmt.Println(i, st)

	m := map[string]int{"a": 1}
	var found any
	_, found = m["a"]
	fmt.Println(found)
	var e any = "s"
	_, found = e.(int)
	fmt.Println(found, x)
}
`)
	want := "3 7\ntrue true 7\nreceived\nclosed false\n3 true\ntrue\nfalse 7\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A blank type parameter names nothing: every blank identifier of the body
// was replaced by the type argument (Go's typeparam/issue47723.go).
func TestRoutelabBlankTypeParameter(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

func f[_ any]() int {
	_ = func() int { return 1 }()
	var a [2]int
	_ = a
	return a[func() int { return 1 }()] + 2
}

type pair[_, V any] struct{ v V }

func (p pair[_, V]) get() V {
	_ = p
	return p.v
}

func main() {
	fmt.Println(f[int](), f[string]())
	fmt.Println(pair[int, string]{"x"}.get())
}
`)
	want := "2 2\nx\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
