package interp_test

import "testing"

// A blank type declaration declares nothing (Go's test suite:
// typeparam/issue48424.go): it was "cannot use _ as value".
func TestRoutelabBlankTypeDeclarations(t *testing.T) {
	src := `package main

import "fmt"

type _ struct{ a int }

type (
	_[T struct{}]                     struct{}
	_[M map[K]V, K comparable, V any] struct{}
)

func main() {
	type _ int
	type _[T any] []T
	fmt.Println("ok")
}
`
	if got, want := runProgram(t, src), "ok\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
