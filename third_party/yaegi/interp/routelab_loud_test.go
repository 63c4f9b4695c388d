package interp_test

import "testing"

// A non-constant shift of an untyped constant takes its type from the
// context, as a shift count (uint) or as an operand of a typed operation; its
// frame slot kept the default type int ("reflect: call of reflect.Value.Uint
// on int Value", Go's test/fixedbugs/bug180.go, divmod.go).
func TestRoutelabUntypedShiftInContext(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func main() {
	x := 2
	fmt.Println(1 << (1 << uint(x)))
	var v uint = 3
	fmt.Println(v >> ((1 >> v) + (1 >> v)))
	var u uint64 = 8
	fmt.Println(u | 1<<uint(x))
	var w uint32 = 1
	fmt.Println(w | 1<<(x&31))
}
`)
	want := "16\n3\n12\n5\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
