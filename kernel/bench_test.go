package kernel

import (
	"context"
	"io"
	"testing"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
)

// BenchmarkExecuteRoundTrip measures a trivial execute over real sockets,
// from request to both the reply and iopub idle, with the Go test client.
func BenchmarkExecuteRoundTrip(b *testing.B) {
	k := startKernel(b)
	c := dial(b, k.ci)
	for b.Loop() {
		if r, _ := c.execute("echo 1", nil); r.Content["status"] != "ok" {
			b.Fatal(r.Content)
		}
	}
}

// BenchmarkExecuteRoundTripGo is the same with the real Go session running
// `1+1`: the kernel's own share of a notebook round trip.
func BenchmarkExecuteRoundTripGo(b *testing.B) {
	ci := testConnectionInfo(b, testKey)
	file := writeConnectionFile(b, ci)
	sess, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, file, sess, io.Discard) }()
	defer func() { cancel(); <-done }()
	waitListening(b, ci)
	c := dial(b, ci)
	for b.Loop() {
		if r, _ := c.execute("1+1", nil); r.Content["status"] != "ok" {
			b.Fatal(r.Content)
		}
	}
}
