// An array's length is the constant Go computes, whatever its spelling.
package main

import "fmt"

const N = 3

var b [1e1]int

func main() {
	var a [N * 2]int
	c := [2.0]string{"x", "y"}
	fmt.Println(len(a), len(b), c, len([...]int{4: 1}))
}
