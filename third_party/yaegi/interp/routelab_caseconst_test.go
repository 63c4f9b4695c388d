package interp_test

import "testing"

// An untyped constant case of an expression switch takes the tag's type: a
// uint64 tag was converted to the constant's default type, float64, so
// 1e16+1 matched `case 1e16` (Go's fixedbugs/issue43480.go).
func TestRoutelabUntypedCaseTakesTagType(t *testing.T) {
	src := `package main

func big(x uint64) bool {
	switch x {
	case 1e0, 1e16, 1e19:
		return true
	}
	return false
}

func small(x int8) int {
	switch x {
	case 'a':
		return 1
	case 2.0:
		return 2
	}
	return 0
}

func main() {
	println(big(1), big(10000000000000000), big(10000000000000001), big(10000000000000000000), big(9999999999999999999))
	println(small(97), small(2), small(3))
}
`
	if got, want := runProgram(t, src), "true true false true false\n1 2 0\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A binary operation assigned to or returned as an interface has a slot of
// its own, then is stored in the interface: `return x > y` from a function
// returning any failed in reflect's SetBool (Go's fixedbugs/issue4785.go).
func TestRoutelabBinaryIntoInterface(t *testing.T) {
	src := `package main

type I interface{}

func gt(x, y interface{}) interface{} { return x.(float64) > y.(float64) }
func add(x, y int) any                { return x + y }
func cat(x, y string) I               { return x + y }
func eq(x, y int) (int, any)          { return 1, x == y }

func main() {
	v := gt(1.0, 2.0)
	println(v != false, v.(bool))
	a, b := 3, 4
	var i any
	i = a < b
	println(i.(bool))
	i = a + b
	println(i.(int))
	var j I = a * b
	_, e := eq(2, 2)
	println(j.(int), add(1, 2).(int), cat("a", "b").(string), e.(bool))
}
`
	if got, want := runProgram(t, src), "false false\ntrue\n7\n12 3 ab true\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
