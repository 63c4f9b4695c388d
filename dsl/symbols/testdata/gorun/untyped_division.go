// An untyped constant expression takes the type its context gives it, and
// is computed exactly first: 3 / 2 is the integer 1, then a float64.
package main

import "fmt"

func main() {
	var z float64 = 3 / 2
	fmt.Println(z)
	const big = 1 << 100
	fmt.Println(big>>98, 7/2.0, 1e3, 'a'+1)
	var f32 float32 = 1.0 / 3
	fmt.Println(f32, float64(f32) == 1.0/3)
	x := 10 / 4 * 2.0
	fmt.Printf("%T %v\n", x, x)
}
