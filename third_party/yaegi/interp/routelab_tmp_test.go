package interp_test

import (
	"os"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

func TestTmpTop(t *testing.T) {
	i := interp.New(interp.Options{Stdout: os.Stdout})
	i.Use(stdlib.Symbols())
	for _, src := range []string{`import ("fmt"; "iter")`, `func All[E any](x []E) iter.Seq2[int, E] {
	return func(yield func(int, E) bool) {
		for i, v := range x {
			if !yield(i, v) {
				return
			}
		}
	}
}`, `for i, s := range All([]string{"x", "y"}) {
	fmt.Print(i, s, " ")
}`} {
		if _, err := i.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
}
