package interp_test

import (
	"strings"
	"testing"
)

// A map literal's keys that are constants only in an instance of a generic
// function (T(0) with T an int) may be equal, as Go's type check sees no
// constants there (Go's test suite: typeparam/issue42758.go); a duplicate
// constant key is reported as Go does (the message printed %!s(int=0)).
func TestRoutelabMapKeysInGenericInstance(t *testing.T) {
	src := `package main

import "fmt"

func F[T, U ~int | ~int8]() map[any]int {
	return map[any]int{int(0): 0, T(0): 1, U(0): 2}
}

func main() {
	fmt.Println(F[int, int](), len(F[int, int8]()))
}
`
	if got, want := runProgram(t, src), "map[0:2] 2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, c := range []struct{ lit, want string }{
		{`map[string]int{"a": 1, "a": 2}`, `4:29: duplicate key "a" in map literal`},
		{`map[int]int{1: 1, 1: 2}`, `4:24: duplicate key 1 in map literal`},
	} {
		src := "package main\n\nfunc main() {\n\t_ = " + c.lit + "\n}\n"
		if got := compileError(t, src); !strings.HasSuffix(got, c.want) {
			t.Errorf("%s: error %q, want %q", c.lit, got, c.want)
		}
	}
}
