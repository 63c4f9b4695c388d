package interp_test

import "testing"

// A select evaluates its channel operands and sent values once, in source
// order: a variable operand was read when the select ran, after the calls of
// later clauses (Go's fixedbugs/issue43111.go hung on a closed channel set to
// nil by a later case's call). Every case here is ready, so a wrong
// order takes the default case instead of hanging.
func TestRoutelabSelectOperandOrder(t *testing.T) {
	src := `package main

var ch chan int
var x int

func f() int {
	close(ch)
	ch = nil
	return 0
}

func g() int {
	ch = nil
	x = 0
	return 0
}

func h(c chan int) chan int {
	println("h")
	return c
}

func main() {
	var nilch chan int
	ch = make(chan int)
	select {
	case <-ch:
		println("received from the closed channel")
	case nilch <- f():
	default:
		println("no case ready")
	}

	ch = make(chan int)
	var v int
	var ok bool
	select {
	case v, ok = <-ch:
		println("v, ok =", v, ok)
	case nilch <- f():
	default:
		println("no case ready")
	}

	ch = make(chan int)
	select {
	case w, ok := <-ch:
		println("w, ok =", w, ok)
	case nilch <- f():
	default:
		println("no case ready")
	}

	local := make(chan int, 1)
	ch1 := local
	x = 42
	ch = ch1
	select {
	case ch <- x:
		println("sent", <-ch1)
	case nilch <- g():
	default:
		println("no case ready")
	}

	// a variable after the last operand that computes is read as before
	y := 7
	select {
	case h(local) <- y:
		println("sent", <-local)
	default:
		println("no case ready")
	}
}
`
	want := "received from the closed channel\nv, ok = 0 false\nw, ok = 0 false\nsent 42\nh\nsent 7\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
