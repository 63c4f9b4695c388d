package dsl

import (
	"context"
	"fmt"
	"testing"

	"github.com/routelab/routelab/display"
)

type discard struct{}

func (discard) Stream(string, string)                {}
func (discard) Display(display.Bundle, string, bool) {}
func (discard) Clear(bool)                           {}

// BenchmarkCheckAfter200Cells is the cost of Go's check of a typical cell
// in a session that has run 200 cells before it (funcs, types with
// methods, constants and variables): the check alone, without running.
func BenchmarkCheckAfter200Cells(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for i := range 200 {
		var cell string
		switch i % 4 {
		case 0:
			cell = fmt.Sprintf("func f%d(x int) float64 { return math.Sqrt(float64(x + %d)) }", i, i)
		case 1:
			cell = fmt.Sprintf("type T%d struct{ n int; name string }\nfunc (t *T%d) Bump() int { t.n++; return t.n }", i, i)
		case 2:
			cell = fmt.Sprintf("const c%d = %d * 2\nv%d := []string{\"a\", strconv.Itoa(c%d)}", i, i, i, i)
		default:
			cell = fmt.Sprintf("m%d := map[string]int{\"k\": %d}\nt%d := &T%d{n: len(m%d)}", i, i, i, i-2, i)
		}
		if _, err := s.Execute(ctx, cell, discard{}); err != nil {
			b.Fatalf("cell %d: %v\n%s", i, err, cell)
		}
	}
	cell := "y := f0(3) + float64(t3.Bump()) + float64(len(v2))\nfmt.Sprint(y, strings.ToUpper(v198[0]))"
	chunks, _, err := splitCell(cell)
	if err != nil {
		b.Fatal(err)
	}
	s.cells++
	for b.Loop() {
		if cc, err := s.goCheck(cell, chunks); err != nil || cc == nil {
			b.Fatal(err, cc)
		}
	}
}
