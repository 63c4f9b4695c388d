// An int returned where a float64 is wanted is refused, as Go refuses it.
package main

import "fmt"

func main() {
	h := func(x int) float64 { return x / 2 }
	fmt.Println(h(3))
}
