package interp_test

import "testing"

// An array, slice or map literal of a type with methods assigned to an
// interface variable keeps its type and methods, as a struct literal does:
// var t lener = SS{1, 2} failed with "reflect.Set: value of type []int is
// not assignable to type interp.valueInterface", in generic code too
// (Box[bool]{…}), and var x any = SS{…} lost its methods.
func TestRoutelabCompositeLiteralIntoInterface(t *testing.T) {
	src := `package main

import "fmt"

type SS []int

func (p SS) Len() int { return len(p) }

type MM map[int]bool

func (p MM) Len() int { return len(p) }

type Box[V any] map[int]V

func (p Box[V]) Len() int { return len(p) }

type lener interface{ Len() int }

func main() {
	var t lener = SS{1, 2}
	var k lener
	k = MM{1: true}
	var b lener = Box[bool]{1: true, 2: false}
	fmt.Println(t.Len(), k.Len(), b.Len())
	var x any = SS{1, 2, 3}
	l, ok := x.(lener)
	fmt.Println(l.Len(), ok)
	var y any = []int{1}
	_, ok = y.(lener)
	fmt.Println(ok, y)
	var a [2]lener
	a[0] = SS{1}
	z := lener(SS{4, 5})
	fmt.Println(a[0].Len(), z.Len(), z)
}
`
	if got, want := runProgram(t, src), "2 1 2\n3 true\nfalse [1]\n1 2 [4 5]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
