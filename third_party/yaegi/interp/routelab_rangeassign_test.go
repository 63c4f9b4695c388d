package interp_test

import "testing"

// A range statement with = assigns its iteration values to the operands on
// its left, evaluated at each iteration (yaegi declared new variables, so the
// operands kept their old values: Go's stringrange.go, issue13162.go,
// mapclear.go, issue9691.go).
func TestRoutelabRangeAssign(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func main() {
	var i int
	var c rune
	for i, c = range "héllo" {
	}
	fmt.Println(i, c)
	i = -1
	for i = range []int{} {
	}
	fmt.Println(i)
	for i = range [3]int{} {
	}
	fmt.Println(i)
	m := map[string]int{}
	for m["k"] = range "abc" {
	}
	fmt.Println(m)
	a := []int{0, 0, 0}
	n := 0
	next := func() int { n++; return n - 1 }
	for _, a[next()] = range []int{7, 8, 9} {
	}
	fmt.Println(a, n)
	var p = new(int)
	for *p = range make([]bool, 4) {
	}
	fmt.Println(*p)
	ch := make(chan int, 2)
	ch <- 5
	ch <- 6
	close(ch)
	var v int
	for v = range ch {
	}
	fmt.Println(v)
	var fs []func() int
	for i = range []int{0, 0, 0} {
		fs = append(fs, func() int { return i })
	}
	fmt.Println(fs[0](), fs[2]())
	for i, c := range "ab" {
		_, _ = i, c
	}
	fmt.Println(i)
}
`)
	want := "5 111\n-1\n2\nmap[k:2]\n[7 8 9] 3\n3\n6\n2 2\n2\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
