package interp_test

import "testing"

// A deferred call's arguments are the values they had at the defer
// statement, for interpreted, compiled and built-in functions alike.
func TestRoutelabDeferredArgumentsAreEvaluatedAtDefer(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

var s string

func accum(args ...interface{}) { s += fmt.Sprint(args...) + ";" }
func one(x float64)            { s += fmt.Sprint(x) + ";" }

type P struct{ a int }

func f() {
	v := 0.0
	p := P{1}
	for i := 0; i < 2; i++ {
		v += 0.5
		defer accum(v)
		defer one(v)
		defer println(i, v)
		defer fmt.Println("bin", v, p)
		p.a++
	}
}

func main() {
	f()
	fmt.Println(s)
}
`)
	want := "bin 1 {2}\n1 1\nbin 0.5 {1}\n0 0.5\n1;1;0.5;0.5;\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
