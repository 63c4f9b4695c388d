// An undefined type is named, inside a function too.
package main

func main() {
	f := func() {
		b := &Bar{a: 1}
		_ = b
	}
	f()
}
