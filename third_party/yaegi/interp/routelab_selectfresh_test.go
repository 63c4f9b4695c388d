package interp_test

import "testing"

// `case x := <-c:` and `case x, ok := <-c:` in a select declare new
// variables at each execution: written in place, a pointer or closure kept
// from an earlier execution saw the last value (Go's escape.go).
func TestRoutelabSelectDefinesFreshVariables(t *testing.T) {
	src := `package main

func main() {
	c := make(chan int, 1)
	var ps []*int
	var oks []*bool
	var fs []func() int
	for i := 1; i <= 3; i++ {
		c <- i
		select {
		case x := <-c:
			ps = append(ps, &x)
			fs = append(fs, func() int { return x })
		}
		c <- 10 * i
		select {
		case y, ok := <-c:
			ps = append(ps, &y)
			oks = append(oks, &ok)
		}
	}
	for _, p := range ps {
		print(*p, " ")
	}
	for _, f := range fs {
		print(f(), " ")
	}
	println(*oks[0], oks[0] != oks[1])
}
`
	if got, want := runProgram(t, src), "1 10 2 20 3 30 1 2 3 true true\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
