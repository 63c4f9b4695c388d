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

// x := <-ch declares a new variable each time it runs: the pointers and
// closures kept from earlier iterations keep their own values (writing the
// received value into the slot's memory made them all the last one: 3 3 3).
func TestRoutelabReceiveDefinesAFreshVariable(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func get(ch chan *int) *int { return <-ch }

func main() {
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	ch <- 3
	var ps []*int
	for i := 0; i < 3; i++ {
		x := <-ch
		ps = append(ps, &x)
	}
	fmt.Println(*ps[0], *ps[1], *ps[2])
	pc := make(chan *int, 2)
	a, b := 10, 20
	pc <- &a
	pc <- &b
	p := get(pc)
	q := get(pc)
	fmt.Println(*p, *q)
	var fs []func() int
	c2 := make(chan int, 2)
	c2 <- 5
	c2 <- 6
	for i := 0; i < 2; i++ {
		y := <-c2
		fs = append(fs, func() int { return y })
	}
	fmt.Println(fs[0](), fs[1]())
}
`)
	want := "1 2 3\n10 20\n5 6\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
