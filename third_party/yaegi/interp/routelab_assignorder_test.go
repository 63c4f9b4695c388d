package interp_test

import "testing"

// A multiple assignment evaluates the map and key operands on its left and
// all its values before it stores any (i, m[i] = 1, 2 stored into m[1]:
// Go's issue4620.go; a, b, c = f(), f(), f() stored the second call's result
// into b before the third, which read b: bug159.go; reorder.go), also when
// it redeclares a variable (y, z := 5, y).
func TestRoutelabAssignmentOrder(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type T struct{ a int }

func main() {
	m := map[int]int{0: 1}
	i := 0
	i, m[i] = 1, 2
	fmt.Println(m, i)
	m1, m2 := m, map[int]int{}
	m, m[7] = m2, 3
	fmt.Println(m, m1)
	b := 0
	g := func() int { b--; return -b }
	var a, c int
	a, b, c = g(), g(), g()
	fmt.Println(a, b, c)
	ch := make(chan int, 1)
	ch <- 9
	x, y := 1, 2
	x, y = <-ch, x
	fmt.Println(x, y)
	s, u := T{1}, T{2}
	s, u = T{u.a}, T{s.a}
	fmt.Println(s, u)
	y, z := 5, y
	fmt.Println(y, z)
}
`)
	want := "map[0:2] 1\nmap[] map[0:2 7:3]\n1 2 3\n9 1\n{2} {1}\n5 1\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A return statement of a function with named results computes all its
// values before it stores any (return b, a returned b, b: Go's bug185.go).
func TestRoutelabReturnNamedResultsOrder(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func f2() (a, b int) {
	a, b = 1, 2
	return b, a
}

func f3() (a, b, c string) {
	a, b, c = "a", "b", "c"
	return c, a, b
}

func f4() (a int, err error) {
	a = 3
	return 4, fmt.Errorf("e%d", a)
}

func main() {
	fmt.Println(f2())
	fmt.Println(f3())
	fmt.Println(f4())
	g := func() (x, y []int) {
		x, y = []int{1}, []int{2}
		return y, x
	}
	fmt.Println(g())
}
`)
	want := "2 1\nc a b\n4 e3\n[2] [1]\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// append with several values copies each before it stores any, as one may be
// an element of the slice's array that an earlier one overwrites
// (append(s[:4], '5', s[4]) appended '5' twice: Go's bug428.go).
func TestRoutelabAppendOperandsCopied(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

func main() {
	s := make([]byte, 5, 6)
	copy(s, "12346")
	s = append(s[:len(s)-1], '5', s[len(s)-1])
	fmt.Println(string(s))
	a := [4]int{1, 2, 3, 4}
	b := append(a[:1], a[3], a[2], a[1])
	fmt.Println(b, a)
}
`)
	want := "123456\n[1 4 3 2] [1 4 3 2]\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
