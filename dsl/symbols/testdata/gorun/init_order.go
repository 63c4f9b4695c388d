// Package-level variables are initialised by dependency, in any order of
// declaration, before init and main; print formats as Go's runtime does.
//
// Only as a file: as a cell, var x = f() is a statement that runs before
// var y = 21 does.
package main

import "fmt"

var x = f()

func f() int { return y * 2 }

var y = 21

var order []string

func init() { order = append(order, fmt.Sprint("init ", x, y)) }

type T int

func (t *T) M() int { return int(*t) + 1 }

type S struct{ *T }

func main() {
	t := T(41)
	fn := S.M
	g := (*T).M
	fmt.Println(order, fn(S{&t}), g(&t))
	print("abc", "xyz", 1.5, "\n")
	println([]int(nil), (*int)(nil), 2.5)
}
