package interp_test

import "testing"

// A deferred call keeps the function value and arguments of its defer
// statement (they were the variables, so later assignments showed), and a
// closure variable deferred in a function literal runs (runCfg held the
// frame's lock while the closure locked it on return: a deadlock, Go's
// deferfin.go).
func TestRoutelabDeferEvaluatesAtStatement(t *testing.T) {
	src := `package main

func show(x int) { println("x", x) }

func run() {
	x := 1
	defer show(x)
	x = 2
	s := []int{1}
	defer show(s[0])
	s[0] = 5
	f := func() { println("a") }
	defer f()
	f = func() { println("b") }
	func() {
		g := func() { println("c") }
		defer g()
	}()
}

func main() { run() }
`
	if got, want := runProgram(t, src), "c\na\nx 1\nx 1\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
