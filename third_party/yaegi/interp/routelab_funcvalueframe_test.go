package interp_test

import (
	"sync"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// A function value called from compiled code reuses the frame of its last
// call when nothing held it, whichever goroutine calls: results, fresh
// locals, closures made in a call and a recovered panic stay Go's, called
// in turn and from many goroutines at once.
func TestRoutelabFunctionValueFrameReuse(t *testing.T) {
	i := interp.New(interp.Options{})
	if _, err := i.Eval(`package main

func cost(x int) float64 {
	var acc float64 // zero at every call
	for k := 0; k < x; k++ {
		acc += 2
	}
	return acc
}

func keep(x int) func() int { return func() int { return x } }

func risky(x int) int {
	if x < 0 {
		panic("negative")
	}
	return x * 3
}
`); err != nil {
		t.Fatal(err)
	}
	get := func(name string) any {
		v, err := i.Eval("main." + name)
		if err != nil {
			t.Fatal(err)
		}
		return v.Interface()
	}
	cost := get("cost").(func(int) float64)
	keep := get("keep").(func(int) func() int)
	risky := get("risky").(func(int) int)

	for x := 0; x < 50; x++ {
		if got := cost(x); got != float64(2*x) {
			t.Fatalf("cost(%d) = %v, want %v", x, got, 2*x)
		}
	}
	var kept []func() int
	for x := 0; x < 20; x++ {
		kept = append(kept, keep(x))
	}
	for x, f := range kept {
		if f() != x {
			t.Errorf("the closure of call %d returns %d", x, f())
		}
	}
	func() {
		defer func() { recover() }()
		risky(-1)
	}()
	if got := risky(4); got != 12 {
		t.Errorf("after a panic, risky(4) = %d", got)
	}

	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 2000; k++ {
				x := (g*7 + k) % 40
				if got := cost(x); got != float64(2*x) {
					errs <- "concurrent cost call returned a wrong value"
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
