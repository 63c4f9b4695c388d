package interp_test

import "testing"

// An element of an array through a pointer is addressable: &p[i] with p a
// *[N]T (Go's fixedbugs/issue71932.go, nilptr2.go) was refused with
// "cannot take address of uint8".
func TestRoutelabAddressOfElementThroughPointer(t *testing.T) {
	src := `package main

import "fmt"

func main() {
	a := [3]byte{1, 2, 3}
	p := &a
	q := &p[1]
	*q = 7
	s := []byte{4, 5}
	r := (*[2]byte)(s)
	fmt.Println(a, &r[0] == &s[0])
}
`
	if got, want := runProgram(t, src), "[1 7 3] true\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
