package interp_test

import "testing"

// A type declared in a function shadows a package-level type of the same
// name, declared before or after it (the package's was taken: "too many
// values in struct literal", Go's fixedbugs/issue8947.go).
func TestRoutelabLocalTypeShadowsPackageType(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type T struct{ V int }

func f1() {
	type T [2]int
	p := T{0, 1}
	fmt.Println(p, p == (T{0, 1}), len(p))
}

func f2() {
	type U string
	fmt.Printf("%v %d\n", U("u"), len(U("uu")))
}

type U struct{ A, B int }

func main() {
	f1()
	f2()
	fmt.Println(T{3}, U{1, 2})
}
`)
	want := "[0 1] true 2\nu 2\n{3} {1 2}\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
