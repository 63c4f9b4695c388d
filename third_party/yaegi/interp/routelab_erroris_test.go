package interp_test

import "testing"

// An error of the program's is its own errors.Is target, and == between
// error values compares what they hold: the compiled wrapper holds a func, so
// errors.Is(err, err) was false and err == error(E{}) panicked with
// "comparing uncomparable type interp._error".
func TestRoutelabErrorIdentity(t *testing.T) {
	src := `package main

import (
	"errors"
	"fmt"
	"io"
)

type E struct{ s string }

func (e E) Error() string { return e.s }

type PE struct{ s string }

func (e *PE) Error() string { return e.s }

func get(i int) error {
	switch i {
	case 0:
		return nil
	case 1:
		return io.EOF
	}
	return E{"x"}
}

func main() {
	var err error = E{"a"}
	var p error = &PE{"p"}
	fmt.Println(errors.Is(err, err), errors.Is(err, E{"a"}), errors.Is(err, E{"b"}), errors.Is(p, p), errors.Is(p, &PE{"p"}))
	fmt.Println(errors.Is(fmt.Errorf("wrap: %w", err), err), err == error(E{"a"}), err != error(E{"b"}), p == p)
	for i := 0; i < 3; i++ {
		e := get(i)
		fmt.Println(e == nil, e == io.EOF, e != io.EOF, e == get(2), errors.Is(e, E{"x"}), errors.Is(e, io.EOF))
	}
}
`
	want := "true true false true false\ntrue true true true\n" +
		"true false true false false false\nfalse true false false false true\nfalse false true true true false\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
