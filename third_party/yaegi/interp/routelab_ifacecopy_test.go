package interp_test

import "testing"

// A value put in an interface is a copy: changing the variable, or the slot
// of the call that gave it, afterwards does not change the interface's value
// (Go's chan/powser2.go: items sent on channels by goroutines showed what the
// sender computed later).
func TestRoutelabInterfaceHoldsACopy(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type item interface{ pr() }

type rat struct{ num int64 }

func (u *rat) pr() { fmt.Println("rat", u.num) }

type V int

func (v V) pr() { fmt.Println("V", int(v)) }

func mk(i int64) *rat { return &rat{i} }

func put(dat item, c chan item) { c <- dat }

func main() {
	x := &rat{1}
	var i item = x
	x = &rat{2}
	i.pr()
	v := V(3)
	var j item = v
	v = 4
	j.pr()
	var k item
	k = v
	v = 5
	k.pr()
	s := []item{v}
	v = 6
	s[0].pr()
	m := map[int]item{1: v}
	v = 7
	m[1].pr()
	f := func() item { return v }
	r := f()
	v = 8
	r.pr()
	var a any = v
	v = 9
	a.(item).pr()

	c := make(chan item, 3)
	for n := int64(0); n < 3; n++ {
		put(mk(n), c)
	}
	var l []item
	for n := int64(0); n < 3; n++ {
		l = append(l, mk(n))
	}
	for n := 0; n < 3; n++ {
		(<-c).pr()
		l[n].pr()
	}

	done := make(chan bool)
	for g := int64(0); g < 4; g++ {
		go func(g int64) {
			for n := int64(0); n < 100; n++ {
				put(mk(g*1000+n), c)
			}
			done <- true
		}(g)
	}
	sum := int64(0)
	for n := 0; n < 400; n++ {
		sum += (<-c).(*rat).num
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	fmt.Println(sum)
}
`)
	want := "rat 1\nV 3\nV 4\nV 5\nV 6\nV 7\nV 8\nrat 0\nrat 0\nrat 1\nrat 1\nrat 2\nrat 2\n619800\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A composite literal assigned to an interface-typed struct field, element
// or dereferenced pointer is stored wrapped (it failed with "reflect.Set:
// value of type interp.valueInterface is not assignable to type struct {…}",
// Go's typeparam/issue48645b.go).
func TestRoutelabCompositeLiteralIntoInterfaceField(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type I interface{ M() }

type Iterator[T any] interface{ Iterate(func(T) bool) }

type S struct{ it I }

type Stream[T any] struct{ it Iterator[T] }

type empty struct{}

func (empty) M()                       { fmt.Println("empty") }
func (empty) Iterate(f func(int) bool) { fmt.Println("iterate", f(1)) }

type one struct{ a int }

func (o one) M() { fmt.Println("one", o.a) }

func main() {
	s := S{}
	s.it = one{3}
	s.it.M()
	s.it = empty{}
	s.it.M()
	p := &S{}
	p.it = one{4}
	p.it.M()
	a := make([]I, 2)
	a[0], a[1] = one{5}, empty{}
	a[0].M()
	a[1].M()
	m := map[string]I{}
	m["x"] = one{6}
	m["x"].M()
	var i I
	pi := &i
	*pi = one{7}
	i.M()
	var e any
	pe := &e
	*pe = one{8}
	e.(I).M()
	st := Stream[int]{}
	st.it = empty{}
	st.it.Iterate(func(int) bool { return true })
}
`)
	want := "one 3\nempty\none 4\none 5\nempty\none 6\none 7\none 8\niterate true\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A comma-ok map index assigned to a source interface stores the element
// with its methods, the zero element for a missing key (Go's
// typeparam/issue50642.go: "reflect: call of reflect.Value.Interface on zero
// Value", and "value of type int is not assignable to type
// interp.valueInterface" for a present key).
func TestRoutelabCommaOKMapIndexIntoInterface(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type MyInt int

func (i MyInt) String() string { return fmt.Sprint("a", int(i)) }

type Stringer interface{ String() string }

var temp2 Stringer

type Temp2[T Stringer] struct{}

func (it Temp2[T]) HasNext() string {
	var x map[int]T
	var ok bool
	temp2, ok = x[43]
	_ = ok
	return temp2.String()
}

func main() {
	y := map[int]MyInt{1: 5}
	var s Stringer
	var ok bool
	s, ok = y[1]
	fmt.Println(s.String(), ok)
	s, ok = y[2]
	fmt.Println(s.String(), ok)
	s2, ok2 := y[2]
	fmt.Println(s2.String(), ok2)
	var e any
	e, ok = y[1]
	_, isS := e.(Stringer)
	fmt.Println(isS, ok)
	fmt.Println(Temp2[MyInt]{}.HasNext())
}
`)
	want := "a5 true\na0 false\na0 false\ntrue true\na0\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
