package interp_test

import (
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

type rangeBinInner struct{ Names []string }

type rangeBinOuter struct{ Items []*rangeBinInner }

// TestRoutelabRangeOverIndexedBinField: a range over a field of an element
// of a compiled slice (sweep.Comparisons[0].Policies) compiles; the
// range-over-function lowering asked for its type before it was compiled,
// and the selector's nil type crashed the compiler.
func TestRoutelabRangeOverIndexedBinField(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(interp.Exports{"example.com/x/x": {
		"Outer": reflect.ValueOf((*rangeBinOuter)(nil)),
		"Make":  reflect.ValueOf(func() *rangeBinOuter { return &rangeBinOuter{Items: []*rangeBinInner{{Names: []string{"a", "b"}}}} }),
	}}); err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval(`import "example.com/x"

func count() string {
	o := x.Make()
	s := ""
	for _, n := range o.Items[0].Names {
		s += n
	}
	return s
}`)
	if err != nil {
		t.Fatalf("compile: %v (%v)", err, v)
	}
	got, err := i.Eval("count()")
	if err != nil || got.Interface() != "ab" {
		t.Fatalf("count() = %v, %v; want ab", got, err)
	}
	got, err = i.Eval("o := x.Make()\ns := \"\"\nfor _, n := range o.Items[0].Names { s += n }\ns")
	if err != nil || got.Interface() != "ab" {
		t.Fatalf("at the top level: %v, %v; want ab", got, err)
	}
}
