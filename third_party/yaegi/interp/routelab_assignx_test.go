package interp_test

import "testing"

// A map entry as a destination of a comma-ok or multi-value assignment is
// written to its map (the map did not change).
func TestRoutelabMapEntryInCommaOK(t *testing.T) {
	got := runStdout(t, `package main

import (
	"fmt"
	"strconv"
)

func f() (int, error) { return 7, nil }

func main() {
	var a any = 1
	m := map[string]int{"k": 3}
	var ok bool
	var err error
	m["assert"], ok = a.(int)
	m["index"], ok = m["k"]
	ch := make(chan int, 1)
	ch <- 5
	m["recv"], ok = <-ch
	m["call"], err = f()
	m["bin"], err = strconv.Atoi("12")
	fmt.Println(m, ok, err)
	defer func() { fmt.Println(recover()) }()
	var nilMap map[string]int
	nilMap["x"], ok = a.(int)
}
`)
	want := "map[assert:1 bin:12 call:7 index:3 k:3 recv:5] true <nil>\nassignment to entry in nil map\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
