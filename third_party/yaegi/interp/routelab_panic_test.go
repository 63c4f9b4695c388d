package interp_test

import "testing"

// recover returns the value passed to panic (it was the reflect.Value
// holding it, unequal to it), panic(nil) is Go's *runtime.PanicNilError, a
// panic in a deferred call replaces the one in progress and the frame's
// other deferred calls still run and may recover it (they never ran), and
// indexing or slicing through a nil array pointer is Go's nil dereference
// (Go's test/recover.go, recover3.go). The expected output is what go run
// prints.
func TestRoutelabPanicValues(t *testing.T) {
	got := runStdout(t, `package main

import (
	"errors"
	"fmt"
	"runtime"
)

func recovered(f func()) (v interface{}) {
	defer func() { v = recover() }()
	f()
	return nil
}

func replaced() (v interface{}) {
	defer func() { v = recover() }()
	defer func() { panic("second") }()
	panic("first")
}

func main() {
	v := recovered(func() { panic(1) })
	fmt.Printf("%T %v %v\n", v, v, v == 1)
	e := errors.New("boom")
	w := recovered(func() { panic(e) })
	fmt.Println(w == e)
	fmt.Println(replaced())
	n := recovered(func() { panic(nil) })
	_, ok := n.(*runtime.PanicNilError)
	fmt.Println(ok, n)
	var p *[4]int
	d := recovered(func() { _ = p[1] })
	_, ok = d.(runtime.Error)
	fmt.Println(ok, d)
	d = recovered(func() { _ = p[1:2] })
	fmt.Println(d)
}
`)
	want := `int 1 true
true
second
true panic called with nil argument
true runtime error: invalid memory address or nil pointer dereference
runtime error: invalid memory address or nil pointer dereference
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// defer recover() is a deferred call: run by the function's own panic it
// recovers nothing, run when the function returns normally it stops the
// panic that runs the function as a deferred call (it ran at the defer
// statement and stopped the panic in progress there: Go's test/recover1.go).
// The expected output is what go run prints.
func TestRoutelabDeferRecover(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func show(want interface{}) {
	fmt.Println("recovered", recover(), "want", want)
}

func deferredInPanic() {
	defer show(2)
	defer func() {
		defer show(3)
		defer recover() // run by the panic of 3: recovers nothing
		panic(3)
	}()
	panic(2)
}

func deferredOnReturn() {
	defer show(nil)
	defer func() {
		defer recover() // run when the function returns: stops the panic of 5
	}()
	panic(5)
}

func main() {
	deferredInPanic()
	deferredOnReturn()
	fmt.Println("done")
}
`)
	want := `recovered 3 want 3
recovered 2 want 2
recovered <nil> want <nil>
done
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
