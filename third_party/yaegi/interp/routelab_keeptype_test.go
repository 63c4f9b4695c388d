package interp_test

import "testing"

// A value whose type has methods keeps its type in an empty interface, as
// an assigned variable kept it: a composite literal stored into an empty
// interface (var w any = r{3}, w = &r{3}, a field or element of type
// any), a conversion any(x), a pointer to a type with value methods, a
// value returned as any, all lost their methods
// ("interface conversion: struct { Xa int } is not interface { g0() int }:
// missing method g0"), also for instances of generic types.
func TestRoutelabEmptyInterfaceKeepsMethods(t *testing.T) {
	src := `package main

import "fmt"

type r struct{ a int }

func (x r) g0() int { return x.a }

type s[T any] struct{ a T }

func (x s[T]) g0() int { return 10 }

func ret() any  { return &r{3} }
func ret2() any { x := r{4}; return x }

var y interface{} = s[int]{a: 7}

type G interface{ g0() int }

func main() {
	var a any = r{1}
	var b any
	b = &r{2}
	x := r{5}
	c := any(&x)
	d := interface{}(r{6})
	e := []any{&r{7}}[0]
	f := map[int]any{1: r{8}}[1]
	g := struct{ v any }{&r{9}}.v
	for _, w := range []any{a, b, c, d, e, f, g, ret(), ret2(), y} {
		v, ok := w.(G)
		_, isR := w.(r)
		_, isP := w.(*r)
		fmt.Println(ok && v.g0() > 0, v.g0(), isR, isP)
	}
}
`
	want := `true 1 true false
true 2 false true
true 5 false true
true 6 true false
true 7 false true
true 8 true false
true 9 false true
true 3 false true
true 4 true false
true 10 false false
`
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
