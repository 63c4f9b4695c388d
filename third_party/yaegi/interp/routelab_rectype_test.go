package interp_test

import "testing"

// A defined type that contains itself other than through a struct field
// (peano.go, ddd.go, reorder2.go, fixedbugs/issue17039.go, bug336.go's
// T18) compiles and behaves as Go's: pointers, slices, functions, maps,
// channels and arrays of itself, and a cycle through several types.
func TestRoutelabRecursiveTypes(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

type Number *Number

type T []T

type F func(F) F

type M map[string]M

type C chan C

type A []B
type B map[string]A

type P [2]*P

type T18 *[10]T19
type T19 T18

func ln(args ...T) int { return len(args) }

func count(x Number) int {
	n := 0
	for x != nil {
		x = *x
		n++
	}
	return n
}

func main() {
	var n Number
	for i := 0; i < 3; i++ {
		m := new(Number)
		*m = n
		n = Number(m)
	}
	fmt.Println(count(n), n != nil, *n != nil)
	t := T{nil, T{}, T{T{}}}
	fmt.Println(len(t), t, t[2][0] == nil, len(t[2]))
	t = append(t, t)
	fmt.Println(len(t[3]), t[3][2], ln([]T{}), ln(t...), ln(nil, nil))
	var f F
	f = func(g F) F { fmt.Println("f called", g == nil); return g }
	h := f(f)
	fmt.Println(h != nil, h(nil) == nil)
	m := M{"a": M{"b": nil}}
	fmt.Println(m, len(m["a"]), m["a"]["b"] == nil, m["x"] == nil)
	c := make(C, 1)
	c <- c
	d := <-c
	fmt.Println(d == c, cap(d))
	a := A{B{"x": A{nil}}}
	fmt.Println(a, len(a[0]["x"]))
	var p P
	p[0] = &p
	fmt.Println(p[0] == &p, p[1] == nil, p[0][0][0] == &p)
	x := T18(&[10]T19{})
	x[1] = T19(x)
	fmt.Println(x[0] == nil, x[1] == T19(x), len(x))
}
`)
	want := `3 true true
3 [[] [] [[]]] false 1
3 [[]] 1 4 2
f called false
f called true
true true
map[a:map[b:map[]]] 1 true true
true 1
[map[x:[map[]]]] 1
true true true
true true 10
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A recursive type declared in a function (typeparam/issue48137.go).
func TestRoutelabRecursiveLocalType(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

func main() {
	type Bar func() Bar
	var b Bar
	b = func() Bar { return b }
	fmt.Println(b()() != nil)
	type S []S
	s := S{S{}, nil}
	fmt.Println(len(s), s)
}
`)
	if want := "true\n2 [[] []]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A chain of types defined by another's name, declared before the names it
// uses (fixedbugs/bug336.go's T4 … T9), resolves to the struct it ends at;
// it failed inside the interpreter ("reflect.Type is nil", or an index out of
// range looking up a field).
func TestRoutelabForwardNamedChain(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

type A B
type B C
type C D
type D struct{ x int }

type T3 struct {
	Next *T4
}

type T4 T5
type T5 T6
type T6 T3

func main() {
	var a A
	a.x = 2
	fmt.Println(a.x, D(a))
	x := &T3{&T4{}}
	fmt.Println(x.Next.Next == nil, T3(*x.Next).Next == nil)
}
`)
	if want := "2 {2}\ntrue true\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
