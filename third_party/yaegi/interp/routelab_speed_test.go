package interp_test

import (
	"testing"

	"github.com/traefik/yaegi/interp"
)

// Benchmarks of the interpreter's inner loop: calls, integer arithmetic
// in a loop, and channel operations between goroutines.

func benchEval(b *testing.B, src, call string) {
	b.Helper()
	i := interp.New(interp.Options{})
	if _, err := i.Eval(src); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		if _, err := i.Eval(call); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRoutelabCalls(b *testing.B) {
	benchEval(b, `
func fib(x int) (int, int) {
	if x < 3 {
		return 0, x
	}
	a, b := fib(x - 2)
	c, d := fib(x - 1)
	return a + d, b + c
}`, `fib(22)`)
}

func BenchmarkRoutelabLoop(b *testing.B) {
	benchEval(b, `
func loop(n int) int64 {
	var s int64
	for i := 0; i < n; i++ {
		a := int64(i) * 7
		s += a / 3 % 11
	}
	return s
}`, `loop(100000)`)
}

func BenchmarkRoutelabChan(b *testing.B) {
	benchEval(b, `
func pingpong(n int) int {
	c := make(chan int)
	done := make(chan int)
	go func() {
		s := 0
		for v := range c {
			s += v
		}
		done <- s
	}()
	for i := 0; i < n; i++ {
		c <- i
	}
	close(c)
	return <-done
}`, `pingpong(10000)`)
}

// The faster call path keeps Go's semantics: variables defined in a loop
// are new at each iteration when a closure or a pointer holds them, the
// results of a call and its arguments are copies, a constant returned for a
// typed result has that type.
func TestRoutelabFrameSemantics(t *testing.T) {
	src := `package main

import "fmt"

type pt struct{ x, y int }

func two(a int) (int, int) { return a, 0 }

func swap(p pt) pt { p.x, p.y = p.y, p.x; return p }

func main() {
	var fs []func() int
	var ps []*int
	for i := 0; i < 3; i++ {
		v := i * 10
		w, _ := two(i)
		fs = append(fs, func() int { return v + w })
	}
	for i := 0; i < 3; i++ {
		v := i
		ps = append(ps, &v)
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	for _, p := range ps {
		fmt.Print(*p, " ")
	}
	p := pt{1, 2}
	q := swap(p)
	s := 0
	for i := 0; i < 4; i++ {
		a, b := two(i)
		c := a + b
		s += c
	}
	var f float64 = 1
	g := func() float64 { return 2 }
	fmt.Println(p, q, s, f+g())
}
`
	if got, want := runProgram(t, src), "0 11 22 0 1 2 {1 2} {2 1} 6 3\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Numeric conversions set their result in place and convert as Go does.
func TestRoutelabNumberConversions(t *testing.T) {
	src := `package main

import "fmt"

type celsius float64

func main() {
	i := -3
	u := uint8(250)
	x := 2.75
	var f32 float32 = 1.1
	fmt.Println(uint8(i), int8(u), uint16(i), int(x), int(-x), uint32(x), float32(x), float64(f32), celsius(i), int64(u)+1, byte(300+i))
	var s int64
	for k := 0; k < 5; k++ {
		s += int64(k) * 3
	}
	fmt.Println(s, float64(s)/2, uint64(1<<63)+uint64(s))
}
`
	want := "253 -6 65533 2 -2 2 2.75 1.100000023841858 -3 251 41\n30 15 9223372036854775838\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func BenchmarkRoutelabMethodCalls(b *testing.B) {
	benchEval(b, `
type counter struct{ n int }

func (c *counter) add(k int) int { c.n += k; return c.n }

func (c counter) get() int { return c.n }

func methods(n int) int {
	c := &counter{}
	s := 0
	for i := 0; i < n; i++ {
		s += c.add(i) - c.get()
	}
	return s
}`, `methods(10000)`)
}

// A method called by name runs directly, with Go's semantics: a value
// receiver is a copy made when the method is selected, before the
// arguments; a pointer receiver is the address; promoted methods of
// embedded fields, methods of generic types, methods that assign to their
// receiver, recursive methods and a nil pointer receiver of a value method.
func TestRoutelabDirectMethodCalls(t *testing.T) {
	src := `package main

import "fmt"

type T struct{ a int }

func (t T) val(x int) int    { return t.a*100 + x }
func (t *T) inc(x int) int   { t.a += x; return t.a }
func (t T) reset() int       { t = T{}; return t.a }
func (t *T) depth(n int) int { if n == 0 { return t.a }; return t.depth(n-1) + 1 }

type E struct {
	*T
	name string
}

type G[V any] struct{ v V }

func (g *G[V]) get() V { return g.v }

func bump(t *T) int { t.a++; return 0 }

func main() {
	t := T{a: 1}
	fmt.Println(t.val(bump(&t)), t.a) // gc copies the receiver after the arguments
	p := &t
	fmt.Println(p.inc(5), t.a, p.val(1), t.reset(), t.a)
	e := E{T: &T{a: 7}, name: "e"}
	fmt.Println(e.inc(1), e.val(2), e.depth(3))
	g := &G[string]{v: "s"}
	fmt.Println(g.get(), (&G[int]{v: 4}).get())
	var s int
	f := func() { s += t.inc(1) }
	f()
	f()
	fmt.Println(s, t.a)
	defer func() { fmt.Println("recovered:", recover()) }()
	var np *T
	np.val(0)
}
`
	want := "200 2\n7 7 701 0 7\n8 802 11\ns 4\n17 9\nrecovered: runtime error: invalid memory address or nil pointer dereference\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func BenchmarkRoutelabDivMod(b *testing.B) {
	benchEval(b, `
func divmod(n int) uint32 {
	var s uint32
	d := 7
	for i := 1; i < n; i++ {
		u := uint32(i) * 2654435761
		s += u/10 + u%7 + uint32(i/d) + uint32(i%(d+i))
	}
	return s
}`, `divmod(100000)`)
}

// Numeric operands read from the running frame, an enclosing one, a global
// or a constant give the same results for every kind.
func TestRoutelabNumericOperands(t *testing.T) {
	src := `package main

import "fmt"

var g8 int8 = -128
var gu uint16 = 65535

func main() {
	a, b := int8(-128), int8(-1)
	var c uint8 = 250
	var d int64 = -7
	var e uint64 = 1<<64 - 1
	var x float32 = 1.5
	var y = 2.25
	u, v := uint32(4000000000), uint32(3)
	f := func() (int8, uint8, int64, uint64, float64) {
		return a / b, c + 10, d % 3, e / 2, float64(x) * y
	}
	fmt.Println(a/b, a%b, c+10, c*2, d/2, d%3, e/3, e%10, x*2, y/3, u/v, u%v, u+v)
	fmt.Println(f())
	fmt.Println(g8/b, gu+1, gu/2, -d, ^c, d<<2, e>>60, c&0x0f, u|1)
}
`
	want := "-128 0 4 244 -3 -1 6148914691236517205 5 3 0.75 1333333333 1 4000000003\n" +
		"-128 4 -1 9223372036854775807 3.375\n" +
		"-128 0 32767 7 5 -28 15 10 4000000001\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
