package interp_test

import "testing"

// An expression switch whose tag or case is an interface compares dynamic
// types and values, as == does in Go (yaegi converted the tag to the case's
// type: "reflect.Value.Convert: value of type interface {} cannot be
// converted to type string", Go's fixedbugs/bug375.go, switch.go), and an
// interface case of a switch without a tag is compared with true (Bool
// panicked on the interface).
func TestRoutelabSwitchOnInterface(t *testing.T) {
	got := runStdout(t, `package main

import "fmt"

type F float64

type S interface{ M() }

type T int

func (T) M() {}

func kind(x interface{}) string {
	switch x {
	case nil:
		return "nil"
	case 1:
		return "int 1"
	case F(1):
		return "F 1"
	case 1.0:
		return "float64 1"
	case "hello":
		return "hello"
	}
	return "other"
}

func main() {
	fmt.Println(kind(nil), kind(1), kind(1.0), kind("hello"), kind(int8(1)))
	var s S = T(2)
	switch s {
	case T(1):
		fmt.Println("T 1")
	case T(2):
		fmt.Println("T 2")
	}
	switch i := interface{}(true); {
	case i:
		fmt.Println("true")
	default:
		fmt.Println("not true")
	}
	v := 3
	switch interface{}(v) {
	case v:
		fmt.Println("v")
	}
}
`)
	want := "nil int 1 float64 1 hello other\nT 2\ntrue\nv\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
