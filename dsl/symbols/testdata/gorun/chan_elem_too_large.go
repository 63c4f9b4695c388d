// A channel's element may be at most 64 kB in Go: the compiler refuses a
// larger one, which go/types accepts and the interpreter's reflect.ChanOf
// would panic on.
package main

type block struct{ data [1 << 16]byte }

func main() {
	ch := make(chan block, 1)
	println(cap(ch))
}
