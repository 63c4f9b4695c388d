package interp_test

import "testing"

// return <-ch, alone or with other results, returns the received value (the
// return's Set failed: "reflect.Value.Set using unaddressable value").
func TestRoutelabReturnReceive(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type T chan int

func (t T) Accept() (int, string) { return <-t, "ok" }

func one(t T) int { return <-t }

func main() {
	t := make(T, 3)
	t <- 1
	t <- 2
	t <- 3
	fmt.Println(one(t))
	var c, s = t.Accept()
	fmt.Println(c, s)
	var x int
	x = <-t
	p := &x
	*p++
	fmt.Println(x)
}
`)
	want := "1\n2 ok\n4\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
