package engine

import (
	"strings"
	"testing"
)

// An unknown scenario, policy or metric name is offered the allowed one a
// slip away, and nothing when none is near: a guess far off would mislead.
func TestUnknownNamesSuggest(t *testing.T) {
	for _, c := range []struct {
		lookup func(string) error
		value  string
		want   string
	}{
		{func(s string) error { _, err := BuiltinScenario(s, 100, DefaultHeterogeneity); return err }, "stedy", `; did you mean "steady"?`},
		{func(s string) error { _, err := BuiltinScenario(s, 100, DefaultHeterogeneity); return err }, "Steady", `; did you mean "steady"?`},
		{func(s string) error { _, err := BuiltinScenario(s, 100, DefaultHeterogeneity); return err }, "longcontext", `; did you mean "long-context"?`},
		{func(s string) error { _, err := PolicyByName(s); return err }, "leastqueue", `; did you mean "least-queue"?`},
		{func(s string) error { _, err := PolicyByName(s); return err }, "p2", `; did you mean "p2c"?`},
		{func(s string) error { _, err := PolicyByName(s); return err }, "oracle", ""},
		{func(s string) error { _, err := MetricByKey(s); return err }, "ttft_p99", `; did you mean "ttft_p99_ms"?`},
		{func(s string) error { _, err := MetricByKey(s); return err }, "atainment", `; did you mean "attainment"?`},
		{func(s string) error { _, err := BuiltinScenario(s, 100, DefaultHeterogeneity); return err }, "x", ""},
	} {
		err := c.lookup(c.value)
		if err == nil {
			t.Fatalf("%q was accepted", c.value)
		}
		msg := err.Error()
		if !strings.Contains(msg, "is not allowed (want one of ") {
			t.Errorf("%q: %q does not list the allowed names", c.value, msg)
		}
		got := ""
		if i := strings.Index(msg, "; did you mean"); i >= 0 {
			got = msg[i:]
		}
		if got != c.want {
			t.Errorf("%q: got %q, want suggestion %q", c.value, msg, c.want)
		}
	}
}
