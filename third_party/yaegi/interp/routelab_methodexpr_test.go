package interp_test

import "testing"

// A method expression T.M used as a value is a function of the receiver
// and the method's arguments: it was wrapped with the method's own type,
// without the receiver ("reflect.Set: value of type func() int is not
// assignable to type func(struct { Xa int }) int"), once the method had
// been compiled, as in an instance of a generic function. (*T).M of a
// value method takes a pointer, and a promoted method (M of a field
// embedded in T) is called with that field for receiver.
func TestRoutelabMethodExpressionValues(t *testing.T) {
	src := `package main

import "fmt"

type s[T any] struct{ a T }

func (x s[T]) g1() T         { return x.a }
func (x *s[T]) set(v T)      { x.a = v }
func (x s[T]) g2(k T) (T, T) { return x.a, k }

type u struct{}

func (u) g() {}

type E1 struct{}
type E2[_ any] struct{ v int }

func (E1) M() int       { return 0 }
func (e *E2[_]) N() int { return e.v }

type E3 struct{ w int }

func (e *E3) P() int { e.w++; return e.w }

type W[X any] struct {
	E1
	*E2[*X]
	E3
}

func gen[T any](v, w T) {
	x := s[T]{a: v}
	f1 := s[T].g1
	f1p := (*s[T]).g1
	fmt.Println(f1(x), f1p(&x))
	set := (*s[T]).set
	set(&x, w)
	f2 := s[T].g2
	fmt.Println(f2(x, v))
}

func promoted[X any]() {
	t := W[X]{E2: &E2[*X]{1}}
	for _, f := range []func(W[X]) int{W[X].M, W[X].N} {
		fmt.Print(f(t), " ")
	}
	p := (*W[X]).P
	m := (*W[X]).M
	fmt.Println(p(&t), p(&t), t.w, m(&t))
}

func main() {
	gen[int](7, 8)
	gen[string]("a", "b")
	promoted[int]()
	defer func() { fmt.Println("recovered:", recover()) }()
	var np *u
	f := (*u).g
	f(np)
}
`
	want := "7 7\n8 7\na a\nb a\n0 1 1 2 2 0\nrecovered: value method main.u.g called using nil *u pointer\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A method expression taken after the method was called keeps the receiver
// in its type: the copy of the method's type kept the method's reflect
// type, made by the call ("reflect: Call with too many input arguments").
func TestRoutelabMethodExpressionAfterCall(t *testing.T) {
	src := `package main

import "strconv"

type myint int

func (m myint) String() string { return strconv.Itoa(int(m)) }

type Stringer interface{ String() string }

func str[T Stringer](v T) string {
	f1 := T.String
	return f1(v)
}

func main() {
	println(myint(3).String())
	println(str[myint](myint(4)))
}
`
	if got, want := runProgram(t, src), "3\n4\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
