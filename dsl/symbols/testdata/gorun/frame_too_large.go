// Ranging by value over an array of more than 1 GB needs a stack frame Go's
// compiler refuses to build; the interpreter would copy it.
package main

func count() int {
	xs := [3000 * 2000][33]int{}
	n := 0
	for _, x := range xs {
		n += len(x)
	}
	return n
}

func main() {
	println(count())
}
