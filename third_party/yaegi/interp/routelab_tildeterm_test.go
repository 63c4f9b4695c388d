package interp_test

import "testing"

// A type defined by a type literal satisfies a ~ term of its underlying
// type (Go's test suite: typeparam/issue49295.go): Token, a *[16]byte, was
// "main.Token does not implement interface{}" for interface{ ~*[16]byte }.
func TestRoutelabTildeTermOfDefinedType(t *testing.T) {
	src := `package main

import "fmt"

type Token *[4]byte

type Names []string

func First[T interface{ ~*[4]byte }](b []byte) T { return T(b[:4]) }

func Len[S ~[]string](s S) int { return len(s) }

func main() {
	t := First[Token]([]byte("abcdef"))
	fmt.Println(string(t[:]), Len(Names{"a", "b"}), Len[Names](nil))
}
`
	if got, want := runProgram(t, src), "abcd 2 0\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
