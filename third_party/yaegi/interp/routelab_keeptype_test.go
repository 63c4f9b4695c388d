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

// A method promoted from an embedded field is a method of the type for an
// empty interface too (i.(getter) with a *A whose B has get); compiled
// code (fmt) gets the concrete value of an interpreted one kept with its
// type in an any, and a map with any keys stores and finds such a key as
// its concrete value (a valueInterface compares by identity).
func TestRoutelabEmptyInterfaceKeepsPromotedMethods(t *testing.T) {
	src := `package main

import "fmt"

type B[T any] struct{ val T }

func (b *B[T]) get() T { return b.val }

type A[T any] struct{ B[T] }

type getter[T any] interface{ get() T }

func doGet[T any](i interface{}) T { return i.(getter[T]).get() }

type r struct{ a int }

func (x r) g0() int { return 2 }

func main() {
	as := A[string]{B: B[string]{"abc"}}
	fmt.Println(doGet[string](&as))
	x := r{4}
	var v any = x
	var w any = &r{3}
	fmt.Println(v, w, []any{v}[0])
	m := map[any]int{1: 2, r{1}: 7}
	var k any = r{1}
	m[v] = 5
	fmt.Println(m[1], m[k], m[r{1}], m[r{4}], len(m))
}
`
	want := "abc\n{4} &{3} {4}\n2 7 7 5 3\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A method of a source interface called on the conversion of a concrete
// value, I(x).M(), is x's method: it was looked up on the interface and
// read x as one ("reflect: call of reflect.Value.NumField on int Value").
func TestRoutelabMethodOfConvertedValue(t *testing.T) {
	src := `package main

import "fmt"

type myint int

func (m myint) String() string { return fmt.Sprint("i", int(m)) }

type P struct{ a int }

func (p *P) String() string { p.a++; return fmt.Sprint("p", p.a) }

type E struct{ P }

type Stringer interface{ String() string }

func str[T Stringer](v T) string {
	f := func(v1 T) string { return Stringer(v1).String() }
	return f(v)
}

func main() {
	x := myint(3)
	fmt.Println(Stringer(x).String(), Stringer(myint(5)).String(), str(myint(6)))
	p := &P{1}
	fmt.Println(Stringer(p).String(), p.a)
	e := &E{P{7}}
	fmt.Println(Stringer(e).String(), e.a)
	f := Stringer(p).String
	fmt.Println(f(), p.a)
}
`
	want := "i3 i5 i6\np2 2\np8 8\np3 3\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
