package worker

import (
	"context"
	"testing"
)

// BenchmarkCellRoundTrip is what the worker process adds to a trivial
// cell: "echo 1" through a Supervisor and its worker, and the same cell in
// process for comparison.
func BenchmarkCellRoundTrip(b *testing.B) {
	ctx := context.Background()
	b.Run("supervised", func(b *testing.B) {
		h := supervise(b, "serve", nil)
		for b.Loop() {
			if _, err := h.Execute(ctx, "echo 1", &recorder{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("in-process", func(b *testing.B) {
		l := newTestLang()
		for b.Loop() {
			if _, err := l.Execute(ctx, "echo 1", &recorder{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
