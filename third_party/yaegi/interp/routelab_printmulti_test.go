package interp_test

import "testing"

// print(f()) and println(f()) with a multi-value f print every result.
func TestRoutelabPrintMultiValueCall(t *testing.T) {
	got := runProgram(t, `package main

import "strconv"

func f() (int16, float64, string) { return -42, 42.0, "x" }
func g() (any, error) { return nil, nil }

func main() {
	print(f())
	println(f())
	println(g())
	println(strconv.Atoi("12"))
}
`)
	want := "-4242x-42 42 x\n(0x0,0x0) (0x0,0x0)\n12 (0x0,0x0)\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
