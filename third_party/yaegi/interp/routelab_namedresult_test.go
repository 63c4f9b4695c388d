package interp_test

import "testing"

// A named result starts as its type's zero value and the caller's
// destination is set when the call returns: the result was the destination
// itself, so got = app(3) after got := app(2) appended to [0 1] (Go's
// typeparam/stringer.go), and x := app(i) in a loop to the previous x.
func TestRoutelabNamedResultStartsZero(t *testing.T) {
	src := `package main

import "fmt"

func app(n int) (ret []int) {
	for i := 0; i < n; i++ {
		ret = append(ret, i)
	}
	return ret
}

var g int

func inc() (r int) { r = g + 1; return }

func main() {
	got := app(2)
	got = app(3)
	fmt.Println(got)
	for i := 0; i < 2; i++ {
		x := app(i + 1)
		fmt.Println(x)
	}
	var s struct{ v []int }
	s.v = app(1)
	s.v = app(2)
	fmt.Println(s.v)
	g = 5
	g = inc()
	fmt.Println(g)
}
`
	if got, want := runProgram(t, src), "[0 1 2]\n[0]\n[0 1]\n[0 1]\n6\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
