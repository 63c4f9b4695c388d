package interp_test

import "testing"

// Goroutines running the same select statement each select on their own
// channels: the statement's cases were one slice shared by every execution,
// so a goroutine could wait on another's channels (Go's chan/powser1.go hung
// or printed wrong coefficients). Every channel here is filled and closed
// beforehand, so a receive from the wrong one gives a wrong value, never a
// hang.
func TestRoutelabConcurrentSelects(t *testing.T) {
	src := `package main

const workers, rounds = 4, 3000

func worker(k int, in, other chan int, res chan int) {
	bad := 0
	for r := 0; r < rounds; r++ {
		select {
		case v := <-in:
			if v != k {
				bad++
			}
		case other <- k:
			bad++
		}
	}
	res <- bad
}

func main() {
	res := make(chan int)
	for k := 1; k <= workers; k++ {
		in := make(chan int, rounds)
		for r := 0; r < rounds; r++ {
			in <- k
		}
		close(in)
		go worker(k, in, nil, res)
	}
	bad := 0
	for k := 0; k < workers; k++ {
		bad += <-res
	}
	println("bad receives:", bad)
}
`
	if got, want := runProgram(t, src), "bad receives: 0\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
