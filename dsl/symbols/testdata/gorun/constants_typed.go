// Typed constants keep their types; iota and implicit repetition.
package main

import (
	"fmt"
	"time"
)

type Color int

const (
	Red Color = iota
	Green
	Blue
)

const third = 1.0 / 3

func main() {
	fmt.Println(Red, Green, Blue)
	d := 2 * time.Second
	fmt.Println(d, d/3)
	var u uint8 = 255
	u++
	fmt.Println(u, third*3 == 1, int64(1)<<40)
	var sh int64 = 1 << 40
	n := 3
	var m int64 = 1 << n
	fmt.Println(sh, m)
}
