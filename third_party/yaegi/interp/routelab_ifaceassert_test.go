package interp_test

import "testing"

// An assertion to an interface of the program's from an empty interface
// gives the interface value (a reflect.Set panic, Go's interface/convert.go,
// fixedbugs/bug242.go, typeparam/dottype.go), and an assertion to a concrete
// type from such an interface compares the dynamic type by name (T and U
// were both string to reflect, so s.(U) held for a T).
func TestRoutelabAssertFromInterface(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type Stringer interface{ String() string }

type Lengther interface {
	String() string
	Length() int
}

type T string

func (t T) String() string { return string(t) }
func (t T) Length() int    { return len(t) }

type U string

func (u U) String() string { return string(u) }

func main() {
	var s Stringer = T("hello")
	var e interface{}
	e = s
	s = e.(Stringer)
	fmt.Println(s.String())
	var l Lengther
	l, ok := e.(Lengther)
	fmt.Println(l.Length(), ok)
	_, ok = s.(U)
	fmt.Println(ok)
	_, ok = s.(T)
	fmt.Println(ok)
	s = U("bye")
	u, ok := s.(U)
	fmt.Println(u, ok)
	t, ok := s.(T)
	fmt.Printf("%q %v\n", t, ok)
	defer func() { fmt.Println(recover() != nil) }()
	_ = s.(T)
}
`)
	want := "hello\n5 true\nfalse\ntrue\nbye true\n\"\" false\ntrue\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
