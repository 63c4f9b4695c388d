package interp_test

import "testing"

// A method value of an interface that holds a nil pointer, for a value
// method, panics when it is called, not when it is taken (defer i.M()
// panicked at the defer statement, before the function set its result: Go's
// fixedbugs/issue52072.go); one of the nil pointer itself panics when taken.
func TestRoutelabNilPointerMethodValueOfInterface(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type I interface{ M() }

type T int

func (T) M() { fmt.Println("M") }

var pt *T

func f() (r int) {
	defer func() { fmt.Println("recovered:", recover() != nil) }()
	var i I = pt
	defer i.M()
	r = 1
	return
}

func g() {
	defer func() { fmt.Println("recovered:", recover()) }()
	var i I = pt
	m := i.M
	fmt.Println("taken")
	m()
}

func h() {
	defer func() { fmt.Println("recovered:", recover()) }()
	m := pt.M
	fmt.Println("taken")
	m()
}

func main() {
	fmt.Println(f())
	g()
	h()
}
`)
	want := "recovered: true\n1\ntaken\nrecovered: value method main.T.M called using nil *T pointer\nrecovered: runtime error: invalid memory address or nil pointer dereference\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
