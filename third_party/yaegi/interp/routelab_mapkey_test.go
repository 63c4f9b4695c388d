package interp_test

import "testing"

// nil as a map key is the key type's zero value in an index, an assignment,
// an operation assignment, a comma-ok and a delete (Go's fixedbugs/bug285.go:
// "MapIndex: value of type interface {} is not assignable to type *struct").
func TestRoutelabNilMapKey(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type T struct{ X int }

type P *T

func main() {
	mp := make(map[*T]int)
	mp[nil] = 42
	p := &T{7}
	mp[p] = 1
	mp[nil]++
	v, ok := mp[nil]
	fmt.Println(mp[nil], mp[p], len(mp), v, ok)
	delete(mp, nil)
	fmt.Println(len(mp))
	mc := make(map[chan int]string)
	mc[nil] = "nil"
	fmt.Println(mc[nil], len(mc))
	mq := map[P]int{nil: 1}
	mq[nil] += 2
	fmt.Println(mq[nil], mq[P(nil)])
}
`)
	want := "43 1 2 43 true\n1\nnil 1\n3 3\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
