package interp_test

import (
	"strings"
	"testing"
)

// A generic type that contains itself through another generic type
// (type X[A any] U[X[A]], Go's test suite: typeparam/nested.go) is refused
// with a message that says so: the constraint check saw the other generic
// type uninstantiated and said "main.U does not implement main.intish".
func TestRoutelabRecursiveInstanceMessage(t *testing.T) {
	got := compileError(t, `package main

import "fmt"

type intish interface{ ~int }

func F[A intish]() { fmt.Println(A(1)) }

func main() {
	type U[_ any] int
	F[U[int]]()
	type X[A any] U[X[A]]
	F[X[int]]()
}
`)
	if want := "the interpreter cannot instantiate main.U here: its type arguments need an instance that is not complete yet"; !strings.Contains(got, want) {
		t.Errorf("got %q, want it to contain %q", got, want)
	}
}
