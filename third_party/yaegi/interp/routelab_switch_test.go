package interp_test

import "testing"

// A switch tries its default after all its cases wherever it is written, and
// a fallthrough goes to the clause written next (the default was swapped with
// the last clause: Go's switch.go); every expression of a case is tested
// (case a, b: ignored b in a switch without a tag: issue8325.go); case nil
// matches a nil slice, map or function (issue53635.go); a channel tag and
// case of different directions compare (issue67190.go).
func TestRoutelabSwitchClauses(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func main() {
	for _, b := range []byte{'5', 'B', '!'} {
		switch {
		case '0' <= b && b <= '9',
			'A' <= b && b <= 'Z':
			fmt.Print("ok ")
		default:
			fmt.Print("bad ")
		}
	}
	fmt.Println()
	for i := 0; i < 4; i++ {
		switch i {
		default:
			fmt.Print("d", i, " ")
			fallthrough
		case 1:
			fmt.Print("one ")
		case 2, 3:
			fmt.Print("two or three ")
			fallthrough
		case 4:
			fmt.Print("four ")
		}
	}
	fmt.Println()
	count := 0
	switch {
	default:
		count++
		fallthrough
	case false:
		count += 10
	case true:
		count += 100
	}
	fmt.Println(count)
	n := 0
	next := func() int { n++; return n }
	switch 2 {
	case next(), next():
		fmt.Println("second", n)
	}
	var s []int
	var m map[int]int
	var fn func()
	switch s {
	case nil:
		fmt.Print("nil slice ")
	}
	switch m {
	case nil:
		fmt.Print("nil map ")
	}
	switch fn {
	case nil:
		fmt.Print("nil func ")
	}
	s = []int{}
	switch s {
	case nil:
		fmt.Print("FAIL")
	default:
		fmt.Println("non-nil slice")
	}
	ch1 := make(chan int)
	var ch2 <-chan int = ch1
	switch ch1 {
	case ch2:
		fmt.Print("chan ")
	}
	switch ch2 {
	case ch1:
		fmt.Println("chan")
	}
	var x interface{} = 3.5
	switch x.(type) {
	default:
		fmt.Println("default")
	case float64:
		fmt.Println("float64")
	}
}
`)
	want := "ok ok bad \nd0 one one two or three four two or three four \n100\nsecond 2\nnil slice nil map nil func non-nil slice\nchan chan\nfloat64\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The variables a select clause declares are new at each execution (&x kept
// the address of one variable, so every pointer saw the last value: Go's
// fixedbugs/issue48289.go).
func TestRoutelabSelectDeclaresFresh(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	var ptrs [3]*int
	var oks [3]*bool
	for i := range ptrs {
		ch <- i * 10
		select {
		case x := <-ch:
			ptrs[i] = &x
		}
		ch <- i
		select {
		case y, ok := <-ch:
			oks[i] = &ok
			_ = y
		}
	}
	close(ch)
	select {
	case _, ok := <-ch:
		*oks[0] = ok
	}
	fmt.Println(*ptrs[0], *ptrs[1], *ptrs[2], *oks[0], *oks[1])
}
`)
	want := "0 10 20 false true\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The receive of a select clause may be parenthesized (case x, ok :=
// (<-c): was refused with "assignment mismatch": Go's chan/select3.go).
func TestRoutelabSelectParenthesizedReceive(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func main() {
	c := make(chan int, 3)
	c <- 1
	c <- 2
	c <- 3
	close(c)
	select {
	case x := (<-c):
		fmt.Print(x, " ")
	}
	select {
	case x, ok := ((<-c)):
		fmt.Print(x, ok, " ")
	}
	var y int
	select {
	case y = (<-c):
		fmt.Print(y, " ")
	}
	select {
	case (<-c):
		fmt.Println("closed")
	}
}
`)
	want := "1 2 true 3 closed\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
