package interp_test

import "testing"

// A range over a string goes by byte offsets, an invalid byte being
// utf8.RuneError of width 1 (an index after one was off, Go's
// stringrange.go failed with "string slice index out of bounds"), also over
// its indices only (they were rune counts).
func TestRoutelabRangeOverString(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func main() {
	s := "h\xcaé\u0123x"
	for i := range s {
		fmt.Print(i, " ")
	}
	fmt.Println()
	var i int
	var c rune
	for i, c = range s {
		fmt.Print(i, ":", c, " ")
	}
	fmt.Println()
	for i, c := range s {
		fmt.Print(i, ":", c, " ")
	}
	fmt.Println()
	var any1 interface{}
	for _, any1 = range "ab" {
		fmt.Print(any1, " ")
	}
	fmt.Println()
}
`)
	want := "0 1 2 4 6 \n0:104 1:65533 2:233 4:291 6:120 \n0:104 1:65533 2:233 4:291 6:120 \n97 98 \n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
