package interp_test

import "testing"

// make of a send-only or receive-only channel type makes a channel, as in
// Go (it failed with "reflect.MakeChan: unidirectional channel type": Go's
// typeparam/append.go).
func TestRoutelabMakeUnidirectionalChannel(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type Recv <-chan int

func main() {
	r := make(Recv)
	s := make(chan<- int, 3)
	s <- 1
	fmt.Println(r != nil, len(s), cap(s), cap(r))
	a := append([]Recv{r}, r)
	fmt.Println(len(a), a[0] == r, a[1] == r)
	select {
	case v := <-r:
		fmt.Println("received", v)
	default:
		fmt.Println("nothing to receive")
	}
}
`)
	want := "true 1 3 0\n2 true true\nnothing to receive\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
