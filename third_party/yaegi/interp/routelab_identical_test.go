package interp_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// A defined type compares with a value of its underlying type literal (an
// OutputID with the [32]interface{} a function returns was "mismatched
// types": Go's fixedbugs/issue23545.go), and any is interface{} (*any and
// *interface{} were mismatched: fixedbugs/issue49665.go); distinct defined
// types still do not compare.
func TestRoutelabIdenticalTypes(t *testing.T) {
	src := `package main

import "fmt"

type OutputID [2]interface{}
type IDs []int
type M map[string]int

func get() [2]interface{} { return [2]interface{}{1, 2} }

var x any
var y interface{}

func main() {
	var o OutputID = get()
	var s IDs
	var m M
	fmt.Println(o == get(), o != get(), s == nil, m == nil, &x == &y, &x != &y)
	p := &x
	p = &y
	fmt.Printf("%T %T\n", p, []any{})
}
`
	if got, want := runProgram(t, src), "true false true true false true\n*interface {} []interface {}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	bad := `package main

type A [2]int
type B [2]int

func main() {
	var a A
	var b B
	println(a == b)
}
`
	i := interp.New(interp.Options{})
	if _, err := i.Eval(bad); err == nil || !strings.Contains(err.Error(), "mismatched types") {
		t.Errorf("comparing two defined types: %v, want mismatched types", err)
	}
}
