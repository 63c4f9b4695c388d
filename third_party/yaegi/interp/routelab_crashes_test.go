package interp_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// compileError evaluates src, a main package, and returns its compile error
// ("" when there is none). The compiler's own panics fail the test.
func compileError(t *testing.T, src string) string {
	t.Helper()
	var out strings.Builder
	i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
	if err := i.Use(stdlib.Symbols()); err != nil {
		t.Fatal(err)
	}
	_, err := evalStep(i, src)
	if err == nil {
		return ""
	}
	if strings.HasPrefix(err.Error(), "panic:") || strings.Contains(err.Error(), "CFG post-order panic") {
		t.Fatalf("the compiler failed: %v", err)
	}
	return err.Error()
}

// Struct types may have any number of blank fields (Go's test suite:
// fixedbugs/bug442.go, fixedbugs/issue21048.go).
func TestRoutelabBlankFields(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

type T struct {
	_ int
	X interface{}
	_ string
	Y float64
	_ [2]byte
}

func main() {
	m := map[T]int{}
	m[T{X: 1, Y: 2}] = 1
	m[T{X: 2, Y: 3}] = 2
	m[T{X: 1, Y: 2}] = 3
	fmt.Println(len(m), m[T{X: 1, Y: 2}], T{X: 1} == T{X: 1})
	fmt.Printf("%v\n", T{X: "x", Y: 1})
}
`)
	if want := "2 3 true\n{0 x  1 [0 0]}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The results of a multi-valued call are the arguments of a builtin that is
// given only that call (fixedbugs/issue5793.go).
func TestRoutelabBuiltinOfMultiValueCall(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

func two() (float64, float64)   { return 5, 7 }
func three() ([]byte, byte, byte) { return []byte{'a'}, 'b', 'c' }
func cp() ([]byte, string)       { return make([]byte, 2), "xyz" }

func main() {
	x := 3.0
	f := func() (float32, float32) { return float32(x), 1 }
	fmt.Println(complex(two()), string(append(three())), copy(cp()), complex(f()))
}
`)
	if want := "(5+7i) abc 2 (3+1i)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A package-level constant may have the name of a predeclared identifier;
// the interpreter's own uses of int, string… still mean the predeclared types
// (rename.go).
func TestRoutelabPredeclaredNamesShadowed(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

const (
	append = 1
	int    = 2
	string = 3
	nil    = 4
	iota   = 5
)

func main() {
	n := append + int + string + nil + iota
	var s = "s"
	fmt.Println(n, s, 1.5)
}
`)
	if want := "15 s 1.5\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A value received from a channel lands in an addressable slot: a result
// (return <-c), a variable, an element of an array behind a pointer in a
// select (chan/powser1.go).
func TestRoutelabReceiveIntoSlot(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

type rat struct{ num, den int64 }

var c = make(chan rat, 4)

func get() rat { return <-c }

func main() {
	c <- rat{1, 2}
	fmt.Println(get())
	var r rat
	c <- rat{3, 4}
	r = <-c
	p := &r
	p.num = 5
	fmt.Println(r)
	dat := new([2]chan rat)
	dat[1] = c
	c <- rat{6, 7}
	var it rat
	select {
	case it = <-dat[0]:
	case it = <-dat[1]:
	}
	fmt.Println(it)
	c <- rat{8, 9}
	select {
	case it = <-dat[0]:
		fmt.Println("nil channel")
	case it = <-c:
	}
	fmt.Println(it)
	c <- rat{1, 1}
	select {
	case v, ok := <-c:
		fmt.Println(v, ok)
	}
}
`)
	if want := "{1 2}\n{5 4}\n{6 7}\n{8 9}\n{1 1} true\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = runProgram(t, `package main

import "fmt"

func main() {
	var x struct{ a int }
	c := make(chan int, 1)
	c <- 1
	select {
	case x.a = <-c:
	}
	fmt.Println(x.a)
}
`)
	if got != "1\n" {
		t.Errorf("case x.a = <-c: got %q, want x.a = 1", got)
	}
}

// A generic type that contains an instance of itself other than through a
// struct or an interface would instantiate without end: it is refused
// where it is declared (typeparam/issue47901.go, issue48030.go,
// issue48617.go, fixedbugs/issue72063.go were "incomplete type Chan[int]").
// Recursion through a struct or an interface still compiles, and types
// that are not generic are represented (TestRoutelabRecursiveTypes).
func TestRoutelabRecursiveGenericTypesRefused(t *testing.T) {
	for _, c := range []struct{ decl, want string }{
		{"type Chan[T any] chan Chan[T]\n\nvar _ = make(Chan[int])", "recursive type Chan (Chan refers to Chan) is not supported"},
		{"type Src[T any] func() Src[T]\n\nvar _ Src[int]", "recursive type Src (Src refers to Src) is not supported"},
		{"func f[T any]() {\n\ttype in[U any] func(in[U]) T\n}", "recursive type in (in refers to in) is not supported"},
	} {
		src := "package main\n\n" + c.decl + "\n\nfunc main() {}\n"
		if got := compileError(t, src); !strings.Contains(got, c.want) || !strings.Contains(got, "other than through a struct or an interface") {
			t.Errorf("%s: error %q, want it to contain %q", c.decl, got, c.want)
		}
	}
	got := runProgram(t, `package main

import "fmt"

type T struct {
	next *T
	f    func(T) int
}

type I interface{ M() I }

type L []*T

type X []G[int]

// X is the type parameter here, not the type above.
type G[X any] []X

type List[T any] struct {
	next *List[T]
	v    T
}

func main() {
	type F struct{ F *F }
	var t T
	fmt.Println(t.next == nil, len(L{&t}), F{}.F == nil, len(G[string]{"a"}), List[int]{v: 2}.v)
}
`)
	if want := "true 1 true 1 2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A constraint with a term that names a type parameter (~struct{ ID T })
// is accepted (typeparam/issue50690b.go).
func TestRoutelabConstraintTermWithTypeParam(t *testing.T) {
	got := runProgram(t, `package main

import "fmt"

func Print[T ~string](s T) { fmt.Println(s) }

func PrintWith[T ~string, S interface {
	~struct {
		ID T
		Fn func(T)
	}
}](message T, obj S) {
	fmt.Println(message)
}

type Shop[T ~string] struct {
	ID T
	Fn func(T)
}

func main() {
	PrintWith("hello", Shop[string]{ID: "fake", Fn: Print[string]})
}
`)
	if want := "hello\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A generic type whose instantiation needs itself without end is refused
// instead of overflowing the stack (typeparam/list2.go, orderedmap.go).
func TestRoutelabEndlessInstantiationRefused(t *testing.T) {
	got := compileError(t, `package main

type _Element[T any] struct {
	next, prev *_Element[T]
	list       *_List[T]
	Value      T
}

type _List[T any] struct {
	root _Element[T]
	len  int
}

func (l *_List[T]) Len() int { return l.len }

func main() {
	var l _List[string]
	_ = l.Len()
}
`)
	if got != "" && !strings.Contains(got, "its instantiation needs itself again and again") {
		t.Errorf("error %q, want the instantiation to be refused or to compile", got)
	}
}
