package interp_test

import "testing"

// A value's method set is Go's: a T in an interface does not have the
// methods declared on *T (the assertion held: Go's interface/receiver.go),
// and a *S or an S{*T} embedding T has them, promoted (they were stored bare
// in an interface{}, so the assertion failed).
func TestRoutelabMethodSets(t *testing.T) {
	src := `package main

type T int

func (t T) V()  {}
func (t *T) P() {}

type P interface {
	P()
	V()
}
type V interface{ V() }

type S struct{ T }
type SP struct{ *T }

func show(i interface{}) {
	_, p := i.(P)
	_, v := i.(V)
	print(p, " ", v, "; ")
}

func main() {
	var t T
	var i interface{} = t
	_, ok := i.(P)
	println(ok)
	show(t)
	show(&t)
	var s S
	show(s)
	show(&s)
	i = &s
	_, ok = i.(P)
	sp := SP{&t}
	show(sp)
	is := []interface{}{s, &s, sp}
	is = append(is, &sp)
	for _, x := range is {
		switch x.(type) {
		case P:
			print("P ")
		case V:
			print("V ")
		}
	}
	println(ok)
}
`
	want := "false\nfalse true; true true; false true; true true; true true; V P P P true\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
