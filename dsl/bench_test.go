package dsl_test

import (
	"context"
	"testing"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlibsym"
)

// Targets: a trivial cell within 1 ms, a fresh session within 50 ms.

func BenchmarkTrivialCell(b *testing.B) {
	s := newSession(b)
	rec := &recorder{}
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Execute(ctx, "1+1", rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCellWithLoop(b *testing.B) {
	s := newSession(b)
	rec := &recorder{}
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Execute(ctx, "t := 0\nfor i := range 100 { t += i }\nt", rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNewSession(b *testing.B) {
	for b.Loop() {
		s, err := dsl.New(dsl.Options{Libraries: []dsl.Library{testlibsym.Library(true)}})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
