package interp_test

import "testing"

// A branch statement ending a select clause goes where it says: `break L`
// leaves the labeled loop, `continue` the iteration, a plain break only the
// select (Go's chan/select.go looped for ever on `default: break LOOP`).
func TestRoutelabSelectBranches(t *testing.T) {
	src := `package main

func main() {
	n := 0
LOOP:
	for {
		select {
		default:
			break LOOP
		}
		n++
		if n > 3 {
			println("break LOOP did not leave the loop")
			return
		}
	}
	c := make(chan int, 1)
L2:
	for {
		select {
		case c <- 1:
			break L2
		}
	}
	<-c
	sum := 0
	for i := 0; i < 3; i++ {
		select {
		default:
			if i == 1 {
				break
			}
			sum += 10
			continue
		}
		sum += 100
	}
	var a chan int = make(chan int, 1)
	sent := 0
	for k := 0; k < 3; k++ {
		select {
		case a <- k:
			sent++
			a = nil
		default:
		}
	}
	println(n, sum, sent)
}
`
	if got, want := runProgram(t, src), "0 120 1\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A received value is stored in place: `return <-c` failed with "reflect.Value.Set
// using unaddressable value" when the receive had to wait.
func TestRoutelabReturnBlockingReceive(t *testing.T) {
	src := `package main

func get(n int) int {
	c := make(chan int)
	go func() { c <- n * 2 }()
	return <-c
}

func main() {
	c := make(chan bool, 1)
	c <- true
	if <-c {
		println(get(21), get(4))
	}
}
`
	if got, want := runProgram(t, src), "42 8\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A receive assigned to variables in a select clause with an empty body
// (`case v, ok = <-c:`, `case x.a = <-c:`) receives; it panicked with
// "reflect.Select: invalid Dir" (Go's chan/select4.go, typeparam/chans.go).
func TestRoutelabSelectAssignEmptyBody(t *testing.T) {
	src := `package main

func main() {
	var x struct{ a int }
	arr := []int{0, 0}
	c := make(chan int, 1)
	c <- 5
	select {
	case arr[1] = <-c:
		println("body", arr[1])
	}
	c <- 42
	var c1 chan int
	select {
	case x.a = <-c:
	case <-c1:
	}
	c <- 7
	var v int
	var ok bool
	select {
	case v, ok = <-c:
	}
	close(c)
	select {
	case w := <-c:
		v += w
	}
	println(x.a, v, ok)
}
`
	if got, want := runProgram(t, src), "body 5\n42 7 true\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
