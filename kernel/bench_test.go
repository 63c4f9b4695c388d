package kernel

import "testing"

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
