package interp_test

import "testing"

// A range with a value variable over a slice, array or map of channels
// ranges over the elements: the value variable's channel type was taken for
// the operand's, so it was compiled as a range over a channel ("reflect: call
// of reflect.Value.Len on int Value", Go's chanlinear.go).
func TestRoutelabRangeOverChannels(t *testing.T) {
	src := `package main

func main() {
	var a []chan bool
	for i := 0; i < 2; i++ {
		d := make(chan bool, 2)
		d <- true
		a = append(a, d)
	}
	a[1] <- false
	for i, d := range a {
		println(i, len(d), <-d)
	}
	m := map[string]chan int{"x": make(chan int, 3)}
	for k, c := range m {
		println(k, cap(c))
	}
	c := make(chan int, 2)
	c <- 4
	c <- 5
	close(c)
	for v := range c {
		println(v)
	}
}
`
	if got, want := runProgram(t, src), "0 1 true\n1 2 true\nx 3\n4\n5\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
