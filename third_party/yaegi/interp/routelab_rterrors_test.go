package interp_test

import "testing"

// A failed type assertion, an index or slice bound out of range, a slice
// converted to a longer array, a negative shift count, make with a bad
// length or capacity, a lookup of an unhashable key (in _, _ = m[k] too)
// and an append beyond the largest int panic with values that satisfy
// runtime.Error and print Go's messages, which name Go's types (reflect's
// panics were strings without the index or the length, and a failed
// assertion panicked with the interpreter's compile error: Go's
// test/recover2.go, convert4.go, fixedbugs/issue16130.go, issue30116.go,
// issue19113.go, issue23734.go, issue37975.go, issue29190.go). The
// expected output is what go run prints.
func TestRoutelabRuntimeErrorValues(t *testing.T) {
	got := runStdout(t, `package main

import (
	"fmt"
	"runtime"
)

type I interface{ Get() int }
type J interface{ Put() }
type T struct{}

func (T) Get() int { return 1 }

type E struct{}

func (E) Error() string { return "e" }

func try(name string, f func()) {
	defer func() {
		r := recover()
		_, ok := r.(runtime.Error)
		fmt.Printf("%s: %v (runtime.Error %v)\n", name, r, ok)
	}()
	f()
}

func main() {
	var e interface{} = 0
	var n interface{}
	var i I = T{}
	var ni I
	var err error = fmt.Errorf("x")
	try("any to I", func() { _ = e.(I) })
	try("any to string", func() { _ = e.(string) })
	try("nil any to string", func() { _ = n.(string) })
	try("nil any to I", func() { _ = n.(I) })
	try("I to *T", func() { _ = i.(*T) })
	try("I to J", func() { _ = i.(J) })
	try("nil I to J", func() { _ = ni.(J) })
	try("nil I to T", func() { _ = ni.(T) })
	try("error to E", func() { _ = err.(E) })
	try("error to I", func() { _ = err.(I) })
	try("nil literal", func() { _ = interface{ Get() int }(nil).(T) })
	s := []int{1, 2, 3}
	a := [3]int{}
	str := "abc"
	k, m := 5, -1
	u := uint64(1)
	u <<= 63
	try("index", func() { _ = s[k] })
	try("negative index", func() { _ = a[m] })
	try("unsigned index", func() { _ = str[u] })
	try("slice high", func() { _ = s[1:k] })
	try("slice low", func() { _ = s[m:] })
	try("slice low > high", func() { j := 1; _ = str[2:j] })
	try("string high", func() { _ = str[:k] })
	try("array 3-index max", func() { _ = a[0:1:k] })
	try("slice 3-index", func() { j := 1; _ = s[2:j:3] })
	try("slice 3-index high", func() { _ = s[0:k-2:2] })
	try("to array", func() { _ = [4]int(s) })
	try("to array pointer", func() { _ = (*[4]int)(s) })
	try("negative shift", func() { _ = k << m })
	try("make len", func() { _ = make([]int, m) })
	try("make cap", func() { _ = make([]int, k, k+m) })
	keys := map[interface{}]int{}
	try("unhashable key", func() { _, _ = keys[s] })
	huge := make([]struct{}, int(^uint(0)>>1))
	try("append overflow", func() { huge = append(huge, struct{}{}) })
}
`)
	want := `any to I: interface conversion: int is not main.I: missing method Get (runtime.Error true)
any to string: interface conversion: interface {} is int, not string (runtime.Error true)
nil any to string: interface conversion: interface {} is nil, not string (runtime.Error true)
nil any to I: interface conversion: interface is nil, not main.I (runtime.Error true)
I to *T: interface conversion: main.I is main.T, not *main.T (runtime.Error true)
I to J: interface conversion: main.T is not main.J: missing method Put (runtime.Error true)
nil I to J: interface conversion: interface is nil, not main.J (runtime.Error true)
nil I to T: interface conversion: main.I is nil, not main.T (runtime.Error true)
error to E: interface conversion: error is *errors.errorString, not main.E (runtime.Error true)
error to I: interface conversion: *errors.errorString is not main.I: missing method Get (runtime.Error true)
nil literal: interface conversion: interface { Get() int } is nil, not main.T (runtime.Error true)
index: runtime error: index out of range [5] with length 3 (runtime.Error true)
negative index: runtime error: index out of range [-1] (runtime.Error true)
unsigned index: runtime error: index out of range [9223372036854775808] with length 3 (runtime.Error true)
slice high: runtime error: slice bounds out of range [:5] with capacity 3 (runtime.Error true)
slice low: runtime error: slice bounds out of range [-1:] (runtime.Error true)
slice low > high: runtime error: slice bounds out of range [2:1] (runtime.Error true)
string high: runtime error: slice bounds out of range [:5] with length 3 (runtime.Error true)
array 3-index max: runtime error: slice bounds out of range [::5] with length 3 (runtime.Error true)
slice 3-index: runtime error: slice bounds out of range [2:1:] (runtime.Error true)
slice 3-index high: runtime error: slice bounds out of range [:3:2] (runtime.Error true)
to array: runtime error: cannot convert slice with length 3 to array or pointer to array with length 4 (runtime.Error true)
to array pointer: runtime error: cannot convert slice with length 3 to array or pointer to array with length 4 (runtime.Error true)
negative shift: runtime error: negative shift amount (runtime.Error true)
make len: runtime error: makeslice: len out of range (runtime.Error true)
make cap: runtime error: makeslice: cap out of range (runtime.Error true)
unhashable key: hash of unhashable type: []int (runtime.Error true)
append overflow: runtime error: growslice: len out of range (runtime.Error true)
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
