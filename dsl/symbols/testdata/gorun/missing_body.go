// A function without a body is refused, as Go's compiler refuses it.
package main

func f() int

func main() {
	println(f())
}
