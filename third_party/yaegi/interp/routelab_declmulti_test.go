package interp_test

import "testing"

// `var a, b T = f()` declares a and b of type T (they took f's result types:
// `h.([]*T)` with `var h, _ interface{} = g(s)` was "invalid type assertion:
// non-interface type", Go's fixedbugs/issue46725.go), and an elided `&T{…}`
// of an array, slice or map type T in a literal of `[]*T` is a pointer to a
// new T (it was taken for a T: "Convert: value of type int cannot be
// converted to type [4]int").
func TestRoutelabDeclaredMultiValueAndElidedPointers(t *testing.T) {
	src := `package main

import "fmt"

type T [4]int

func g(x []*T) ([]*T, []*T) { return x, x }
func two() (int, int)        { return 1, 2 }

func main() {
	s := [10]*T{{8675309}}
	var h, _ interface{} = g(s[:])
	var a, b any = two()
	_, ok := h.([]*T)
	fmt.Printf("%v %v %T %v %v %v\n", ok, h.([]*T)[0][0], a, a, b, s[1] == nil)
	pm := []*map[string]int{{"k": 9}}
	ps := []*[]int{{4, 5}}
	m := map[string]*T{"a": {1, 2}}
	fmt.Println((*pm[0])["k"], (*ps[0])[1], len(*ps[0]), m["a"][1])
}
`
	want := "true 8675309 int 1 2 true\n9 5 2 2\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
