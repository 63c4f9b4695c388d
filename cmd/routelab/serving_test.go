package main

import (
	"strings"
	"testing"
)

// A serving scenario is compared like any other, at its own rate unless
// --rate says otherwise, with the serving model's columns and records.
func TestCompareServingScenario(t *testing.T) {
	out, stderr, code := runCLI(t, "compare", "--scenario", "chat", "--seeds", "2", "--policies", "least-queue,p2c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"chat — 3 replicas, 24 req/s", "TTFT p99 ms", "prefix hits", "least-queue", "p2c"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	out, stderr, code = runCLI(t, "compare", "--scenario", "chat", "--rate", "12", "--seeds", "2", "--policies", "least-queue", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{`"rate_rps": 12`, `"ttft_p99_ms"`, `"median_prefix_hit_rate"`, `"max_batch": 32`} {
		if !strings.Contains(out, want) {
			t.Errorf("the JSON lacks %s", want)
		}
	}
}
