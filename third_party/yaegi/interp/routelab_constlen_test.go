package interp_test

import "testing"

// The length of a pointer to an array is its type's, nil included; len(*p)
// and a range over *p with at most one iteration variable do not evaluate
// *p unless it calls a function or receives; reading the elements of a nil
// *array fails with Go's run-time error (Go's nil.go, const4.go,
// fixedbugs/bug454.go, issue72844.go).
func TestRoutelabNilArrayPointer(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

var calls int

func nilArray() *[4]int {
	calls++
	return nil
}

var np *[4]int

func panics(f func()) (msg any) {
	defer func() { msg = recover() }()
	f()
	return nil
}

func main() {
	s := 0
	for i := range np {
		s += i
	}
	for i, _ := range np {
		s += i
	}
	fmt.Println(s, len(np), cap(np), len(nilArray()), calls)
	fmt.Println(len(*np), cap(*np), calls)
	for range *np {
		s++
	}
	fmt.Println(s)
	fmt.Println(panics(func() { _ = len(*nilArray()) }), calls)
	fmt.Println(panics(func() {
		for range *nilArray() {
		}
	}), calls)
	fmt.Println(panics(func() {
		for _, v := range np {
			s += v
		}
	}))
	fmt.Println(panics(func() { s += np[1] }))
	a := [3]int{1, 2, 3}
	q := &a
	p := &a
	for i, v := range p {
		s += i * v
	}
	fmt.Println(s, q[0], p[2])
}
`)
	want := "12 4 4 4 1\n4 4 1\n16\nruntime error: invalid memory address or nil pointer dereference 2\nruntime error: invalid memory address or nil pointer dereference 3\nruntime error: invalid memory address or nil pointer dereference\nruntime error: invalid memory address or nil pointer dereference\n24 1 3\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
