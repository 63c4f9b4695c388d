package interp_test

import "testing"

// new(expr) (Go 1.26) points to a new variable holding the value of expr
// (it pointed to a zero value: Go's newexpr.go).
func TestRoutelabNewExpr(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type P struct{ X, Y int }

var g = new(7)

func one() string { return "one" }

func main() {
	p := new(123)
	x := 42
	q := new(x)
	x = 0
	a := [2]int{1, 2}
	r := new(a)
	a[0] = 9
	var i int
	b := new(i > 0)
	s := new(P{3, 4})
	u := new(one())
	f := new(1.5)
	var e error = fmt.Errorf("e")
	pe := new(e)
	z := new(int)
	fmt.Println(*p, *q, *r, *b, *s, *u, *f, *g, *pe, *z)
	fmt.Printf("%T %T %T\n", p, f, pe)
}
`)
	want := "123 42 [1 2] false {3 4} one 1.5 7 e 0\n*int *float64 *error\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A function named by a return statement into an interface result is a func
// value (it was the declaration node: %T gave *interp.node and a type switch
// matched no case, Go's typeswitch.go).
func TestRoutelabReturnNamedFuncAsInterface(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func f(i int) interface{} {
	return f
}

func g() (any, error) { return f, nil }

func main() {
	x := f(0)
	fmt.Printf("%T\n", x)
	switch y := x.(type) {
	case func(int) interface{}:
		fmt.Printf("%T\n", y(1))
	default:
		fmt.Println("unknown")
	}
	z, _ := g()
	_, ok := z.(func(int) interface{})
	fmt.Println(ok)
}
`)
	want := "func(int) interface {}\nfunc(int) interface {}\ntrue\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
