package dsl_test

import (
	"bytes"
	"context"
	"testing"
)

// A package-level var spec whose names have different types (var v, ok =
// x.(T)) is initialised in Go's order too, after the variables it uses (it
// kept its initialiser and ran before them: v was nil, ok false).
func TestInitOrderOfCommaOKVar(t *testing.T) {
	s := newSession(t)
	var out, errs bytes.Buffer
	src := `package main

import "fmt"

type T struct{ x int }

var tt, ok = i.(*T)
var i interface{} = t
var t = &T{42}
var v, found = m["a"]
var m = map[string]int{"a": 1}

func main() {
	fmt.Println(tt.x, ok, v, found)
}
`
	if err := s.RunScript(context.Background(), src, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if want := "42 true 1 true\n"; out.String() != want || errs.Len() != 0 {
		t.Errorf("stdout %q, stderr %q, want %q", out.String(), errs.String(), want)
	}
}
