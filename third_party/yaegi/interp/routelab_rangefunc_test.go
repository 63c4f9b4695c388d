package interp_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// A range over a function (Go 1.23) runs as Go's: break, continue, return
// with values and named results, labelled branches and goto out of the
// body, defer in the body (the enclosing function's) and recover there,
// per-iteration variables, yields of 0, 1 and 2 values, generic iterators
// and method values, and Go's run-time errors for an iterator that goes on
// after the loop ended. The expected output is go run's.
func TestRoutelabRangeOverFunc(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type Seq[V any] func(yield func(V) bool)

func count(n int) Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func All[T any](s []T) func(func(int, T) bool) {
	return func(yield func(int, T) bool) {
		for i, v := range s {
			if !yield(i, v) {
				return
			}
		}
	}
}

type list struct{ v []string }

func (l *list) Each(yield func(string) bool) {
	for _, s := range l.v {
		if !yield(s) {
			return
		}
	}
}

func nested() (string, int) {
	for i := range count(3) {
		for j := range count(3) {
			if i*j == 2 {
				return "found", i*10 + j
			}
		}
	}
	return "none", 0
}

func gotoOut() {
	for i := range count(5) {
		if i == 2 {
			goto done
		}
		fmt.Println("goto", i)
	}
	fmt.Println("not reached")
done:
	fmt.Println("done")
}

func defers() {
	defer fmt.Println("first")
	for i := range count(3) {
		defer fmt.Println("loop", i)
		for j := range count(2) {
			defer fmt.Println("inner", i, j)
		}
	}
	defer fmt.Println("last")
}

func recovers() (r string) {
	for range count(1) {
		defer func() { r = fmt.Sprint("recovered ", recover()) }()
	}
	panic("boom")
}

func bodyPanics() {
	defer func() { fmt.Println("caught", recover()) }()
	for i := range count(3) {
		if i == 1 {
			panic(fmt.Sprint("body ", i))
		}
	}
}

func swallow(yield func(int) bool) {
	defer func() { recover() }()
	yield(1)
}

func resumeAfterPanic(yield func(int) bool) {
	func() {
		defer func() { recover() }()
		yield(1)
	}()
	yield(2)
}

var saved func(int) bool

func keep(yield func(int) bool) {
	saved = yield
	yield(1)
}

func try(name string, f func()) {
	defer func() { fmt.Println(name, recover()) }()
	f()
}

func Sum[T int | float64](s Seq[T]) T {
	var t T
	for v := range s {
		t += v
	}
	return t
}

func main() {
	for i, s := range All([]string{"x", "y", "z"}) {
		fmt.Println(i, s)
	}
	l := &list{[]string{"p", "q", "r"}}
	for s := range l.Each {
		if s == "q" {
			continue
		}
		fmt.Println(s)
	}
	fmt.Println(nested())
	gotoOut()
	defers()
	fmt.Println(recovers())
	bodyPanics()
	try("swallow", func() {
		for range swallow {
			panic("x")
		}
	})
	try("resume", func() {
		for x := range resumeAfterPanic {
			if x == 1 {
				panic("y")
			}
		}
	})
	try("exit", func() {
		for range keep {
		}
		saved(2)
	})
	fmt.Println(Sum[int](count(5)))
	var ps []*int
	for i := range count(3) {
		ps = append(ps, &i)
	}
	fmt.Println(*ps[0], *ps[1], *ps[2])
	type pt struct{ x int }
	var p pt
	m := map[int]int{}
	for p.x = range count(3) {
		m[p.x]++
	}
	fmt.Println(p.x, len(m))
L:
	switch {
	default:
		for i := range count(5) {
			switch i {
			case 1:
				continue
			case 3:
				break L
			}
			fmt.Println("sw", i)
		}
	}
	for i := range count(10) {
		select {
		default:
			if i > 1 {
				break
			}
			fmt.Println("sel", i)
		}
		if i == 3 {
			break
		}
	}
}
`)
	want := `0 x
1 y
2 z
p
r
found 12
goto 0
goto 1
done
last
inner 2 1
inner 2 0
loop 2
inner 1 1
inner 1 0
loop 1
inner 0 1
inner 0 0
loop 0
first
recovered boom
caught body 1
swallow runtime error: range function recovered a loop body panic and did not resume panicking
resume runtime error: range function continued iteration after loop body panic
exit runtime error: range function continued iteration after whole loop exit
10
0 1 2
2 3
sw 0
sw 2
sel 0
sel 1
`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The plain forms: break and continue, 0 and 2 values, multiple results,
// a named result, labelled continue and break of an outer range over a
// function, closures of the iteration variable, `=` iteration variables,
// and a yield after the body returned false.
func TestRoutelabRangeOverFuncBranches(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func seq(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func pairs(yield func(string, int) bool) {
	_ = yield("a", 1) && yield("b", 2) && yield("c", 3)
}

func zero(yield func() bool) {
	yield()
	yield()
}

func find(x int) (int, bool) {
	for i := range seq(10) {
		if i == x {
			return i * 10, true
		}
	}
	return -1, false
}

func named() (r int) {
	for i := range seq(10) {
		r += i
		if i == 3 {
			return
		}
	}
	return 100
}

func main() {
	for i := range seq(5) {
		if i == 1 {
			continue
		}
		if i == 3 {
			break
		}
		fmt.Println("i", i)
	}
	for k, v := range pairs {
		fmt.Println(k, v)
	}
	for range zero {
		fmt.Println("zero")
	}
	fmt.Println(find(4))
	fmt.Println(find(40))
	fmt.Println(named())
outer:
	for i := range seq(3) {
		for j := range seq(3) {
			if j == 2 {
				continue outer
			}
			if i == 2 {
				break outer
			}
			fmt.Println(i, j)
		}
	}
	var fs []func()
	for i := range seq(3) {
		fs = append(fs, func() { fmt.Println("f", i) })
	}
	for _, f := range fs {
		f()
	}
	var k string
	var v int
	for k, v = range pairs {
	}
	fmt.Println(k, v)
	defer func() { fmt.Println("recovered:", recover()) }()
	bad := func(yield func(int) bool) {
		yield(1)
		yield(2)
	}
	for x := range bad {
		fmt.Println(x)
		break
	}
}
`)
	want := `i 0
i 2
a 1
b 2
c 3
zero
zero
40 true
-1 false
6
0 0
0 1
1 0
1 1
f 0
f 1
f 2
c 3
1
recovered: runtime error: range function continued iteration after function for loop body returned false
`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// More iteration variables than the yield function has values is Go's
// compile error, and a range over a function at the top level of an input
// runs.
func TestRoutelabRangeOverFuncErrors(t *testing.T) {
	i := interp.New(interp.Options{})
	_, err := i.Eval(`func seq(yield func(int) bool) { _ = yield(1) && yield(2) }`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = i.Eval(`for a, b := range seq { println(a, b) }`)
	if err == nil || !strings.Contains(err.Error(), "range over seq (value of type func(func(int) bool)) permits only one iteration variable") {
		t.Errorf("got %v, want the iteration variable error", err)
	}
	v, err := i.Eval(`s := 0; for a := range seq { s += a * 10 }; s`)
	if err != nil || v.Interface() != 30 {
		t.Errorf("got %v, %v, want 30", v, err)
	}
}

// Package iter is Go's, compiled from source: Seq and Seq2, Pull and Pull2
// (with a goroutine). A range over the result of a call of a generic
// function takes the call's type (nodeType gave its argument's, a map).
func TestRoutelabIterPackage(t *testing.T) {
	got := runStdout(t, `package main

import (
	"fmt"
	"iter"
)

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func pairs(m []string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i, s := range m {
			if !yield(i, s) {
				return
			}
		}
	}
}

func main() {
	for i := range count(3) {
		fmt.Println(i)
	}
	for i, s := range pairs([]string{"a", "b"}) {
		fmt.Println(i, s)
	}
	next, stop := iter.Pull(count(5))
	v, ok := next()
	fmt.Println(v, ok)
	v, ok = next()
	fmt.Println(v, ok)
	stop()
	v, ok = next()
	fmt.Println(v, ok)
	n2, s2 := iter.Pull2(pairs([]string{"x"}))
	a, b, ok2 := n2()
	fmt.Println(a, b, ok2)
	a, b, ok2 = n2()
	fmt.Println(a, b, ok2)
	s2()
}
`)
	want := `0
1
2
0 a
1 b
0 true
1 true
0 false
0 x true
0  false
`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = runStdout(t, `package main

import (
	"fmt"
	"iter"
)

func Keys[K comparable, V any](m map[K]V) iter.Seq[K] {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func All[E any](x []E) iter.Seq2[int, E] {
	return func(yield func(int, E) bool) {
		for i, v := range x {
			if !yield(i, v) {
				return
			}
		}
	}
}

func main() {
	for k := range Keys(map[string]int{"a": 1}) {
		fmt.Println(k)
	}
	for i, s := range All([]string{"x", "y"}) {
		fmt.Print(i, s, " ")
	}
}
`)
	want = `a
0x 1y `
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A label in a clause of a select or switch is defined when a goto before
// it is compiled (the compiler crashed on the forward goto).
func TestRoutelabLabelsInClauses(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func main() {
	select {
	default:
		goto L
	L:
		for i := 0; i < 2; i++ {
			fmt.Println(i)
		}
	}
	switch {
	default:
		goto M
	M:
		fmt.Println("m")
	}
}
`)
	want := "0\n1\nm\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A type parameter that is a type argument of a parameter's generic type
// (s Seq[T], s iter.Seq2[K, V]) is inferred from the argument's instance
// (it was "cannot infer T").
func TestRoutelabInferFromGenericTypeInstance(t *testing.T) {
	got := runStdout(t, `package main

import (
	"fmt"
	"iter"
)

type Seq[V any] func(yield func(V) bool)

func count(n int) Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func pairs() iter.Seq2[string, float64] {
	return func(yield func(string, float64) bool) { _ = yield("a", 1.5) && yield("b", 2) }
}

func Sum[T int | float64](s Seq[T]) T {
	var t T
	for v := range s {
		t += v
	}
	return t
}

func Values[K comparable, V any](s iter.Seq2[K, V]) []V {
	var r []V
	for _, v := range s {
		r = append(r, v)
	}
	return r
}

func main() {
	fmt.Println(Sum(count(5)))
	fmt.Println(Values(pairs()))
}
`)
	want := `10
[1.5 2]
`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// a, b := f(x) at the top level with a generic f declares a and b with
// f's results for the inferred type arguments (they had its type
// parameters: "nil reflect type"), iter.Pull's next and stop too; a result
// that is an instance of a generic type is instantiated ("cannot infer
// Seq2").
func TestRoutelabGenericMultiResultAtTopLevel(t *testing.T) {
	var out strings.Builder
	i := interp.New(interp.Options{Stdout: &out})
	if err := i.Use(stdlib.Symbols()); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`import ("fmt"; "iter")`,
		`func two[T any](x T) (T, []T) { return x, []T{x, x} }`,
		`a, b := two("s")`,
		`fmt.Println(a, b)`,
		`func seq(yield func(int) bool) { _ = yield(1) && yield(2) }`,
		`next, stop := iter.Pull(seq)`,
		`fmt.Println(next())`,
		`stop()`,
		`fmt.Println(next())`,
		`func All[E any](x []E) iter.Seq2[int, E] { return func(yield func(int, E) bool) { _ = yield(0, x[0]) } }`,
		`s := All([]string{"z"})`,
		`for i, v := range s { fmt.Println(i, v) }`,
	} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if got, want := out.String(), "s [s s]\n1 true\n0 false\n0 z\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
