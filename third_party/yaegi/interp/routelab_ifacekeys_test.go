package interp_test

import "testing"

// A map whose keys are of an interface type finds its keys by Go's
// equality when they hold values of the program's types with methods: `m[C(i)]
// = 1` with m a map[I]int failed with "reflect.Value.MapIndex: value of type
// int is not assignable to type interp.valueInterface" (Go's maplinear.go,
// fixedbugs/bug285.go), and a key stored in a variable was not the same key
// as the value it held. A composite literal of such a type stored in an
// interface{} variable is wrapped (y.(I) failed).
func TestRoutelabInterfaceMapKeys(t *testing.T) {
	src := `package main

import "fmt"

type I interface{ M() int }
type C int

func (c C) M() int { return int(c) }

type S struct{ a, b int }

func (s S) M() int { return s.a + s.b }

type P struct{ x int }

func (p *P) M() int { return p.x }

func main() {
	m := map[I]int{}
	for i := 0; i < 3; i++ {
		m[C(i)] = i * 10
	}
	m[C(1)] += 5
	var k I = C(2)
	v, ok := m[k]
	p := &P{7}
	m[p] = 70
	m[S{1, 2}] = 12
	fmt.Println(len(m), m[C(1)], v, ok, m[p], m[&P{7}], m[S{1, 2}], m[S{2, 1}])
	delete(m, C(0))
	sum := 0
	for k, v := range m {
		sum += k.M() + v
	}
	fmt.Println(len(m), sum)
	l := map[I]string{C(1): "one", S{1, 2}: "s12"}
	fmt.Println(l[k], l[C(1)], l[S{1, 2}])
	var x any = C(1)
	e := map[any]int{x: 1}
	e[C(1)]++
	e[1] = 5
	e[S{1, 2}] = 7
	var y any = S{1, 2}
	_, isI := y.(I)
	fmt.Println(len(e), e[x], e[C(1)], e[1], e[y], isI)
	n := map[I]int{}
	n[nil] = 3
	var z I
	fmt.Println(n[z], len(n))
}
`
	want := "5 15 20 true 70 0 12 0\n4 130\n one s12\n3 2 2 5 7 true\n3 1\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
