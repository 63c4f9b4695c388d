package interp_test

import "testing"

// A call reuses the frame of the previous call from the same frame, and its
// slots when nothing can refer to them after it returns: values kept in an
// interface of the program (a type with methods), through pointers, slices
// and closures, recursion, a recovered panic and goroutines see what Go
// gives.
func TestRoutelabFrameReuse(t *testing.T) {
	src := `package main

import "fmt"

type celsius float64

func (c celsius) String() string { return fmt.Sprintf("%.1fC", float64(c)) }

type reading interface{ String() string }

var kept []reading
var ptrs []*int
var fns []func() int
var arrs [][]int

func keep(c celsius) { kept = append(kept, c) }

func named(x float64) celsius {
	c := celsius(x)
	keep(c)
	return c
}

func direct(x float64) {
	c := celsius(x)
	kept = append(kept, c)
}

func addr(x int) int {
	v := x * 2
	ptrs = append(ptrs, &v)
	return v
}

func closure(x int) int {
	v := x + 1
	fns = append(fns, func() int { return v })
	return v
}

func slice(x int) int {
	var a [3]int
	a[0], a[1], a[2] = x, x+1, x+2
	arrs = append(arrs, a[:])
	return a[0]
}

func fib(x int) (int, int) {
	if x < 3 {
		return 0, x
	}
	a, b := fib(x - 2)
	c, d := fib(x - 1)
	return a + d, b + c
}

func sum(n int) int {
	var b [8]int
	if n == 0 {
		return 0
	}
	b[n%8] = n
	return sum(n-1) + b[n%8]
}

func mayPanic(x int) (r int) {
	defer func() {
		if recover() != nil {
			r = -x
		}
	}()
	if x%2 == 1 {
		panic("odd")
	}
	return x
}

func worker(x int, out chan int) { out <- x * x }

func spawn(x int, out chan int) int {
	v := x + 100
	go worker(v, out)
	return v
}

func main() {
	for i := 0; i < 3; i++ {
		named(float64(i) + 0.5)
		direct(float64(i) + 0.25)
		addr(i)
		closure(i)
		slice(i * 10)
	}
	for _, k := range kept {
		fmt.Print(k.String(), " ")
	}
	fmt.Println()
	for _, p := range ptrs {
		fmt.Print(*p, " ")
	}
	for _, f := range fns {
		fmt.Print(f(), " ")
	}
	fmt.Println(arrs)
	a, b := fib(20)
	fmt.Println(a, b, sum(100))
	fmt.Println(mayPanic(3), mayPanic(4), mayPanic(5))
	out := make(chan int, 3)
	s := 0
	for i := 0; i < 3; i++ {
		s += spawn(i, out)
	}
	t := 0
	for i := 0; i < 3; i++ {
		t += <-out
	}
	fmt.Println(s, t)
}
`
	want := "0.5C 0.2C 1.5C 1.2C 2.5C 2.2C \n0 2 4 1 2 3 [[0 1 2] [10 11 12] [20 21 22]]\n2584 8362 5050\n-3 4 -5\n303 30605\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A deferred call of a declared function does not keep its frame from being
// reused; a deferred function literal's closures refer to it, and keep it.
func TestRoutelabFrameReuseWithDefer(t *testing.T) {
	src := `package main

import (
	"errors"
	"fmt"
	"sync"
)

var sink interface{}

func f(err *error) {
	if err != nil {
		sink = err
	}
}

func A(n int64) (res int64, err error) {
	defer f(&err)
	if n < 0 {
		err = errors.New("neg")
		return
	}
	if n <= 1 {
		return n, nil
	}
	res, err = A(n - 1)
	res++
	return
}

var wg sync.WaitGroup
var got []int
var mu sync.Mutex

func outer(x int) int {
	y := x * 3
	defer func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			got = append(got, y)
			mu.Unlock()
		}()
	}()
	return y
}

func main() {
	r, e := A(50)
	fmt.Println(r, e)
	_, e = A(-1)
	fmt.Println(e, *(sink.(*error)))
	s := 0
	for i := 0; i < 5; i++ {
		s += outer(i)
	}
	wg.Wait()
	t := 0
	for _, v := range got {
		t += v
	}
	fmt.Println(s, t, len(got))
}
`
	want := "50 <nil>\nneg neg\n30 30 5\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
