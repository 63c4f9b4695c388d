package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/routelab/routelab/engine"
)

// An unknown name is offered the allowed one a slip away, and nothing when
// none is near: a guess far off would mislead.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		field, value, want string
	}{
		{"scenario", "stedy", `; did you mean "steady"?`},
		{"scenario", "Steady", `; did you mean "steady"?`},
		{"scenario", "longcontext", `; did you mean "long-context"?`},
		{"policy", "leastqueue", `; did you mean "least-queue"?`},
		{"policy", "p2", `; did you mean "p2c"?`},
		{"policy", "oracle", ""},
		{"scenario", "x", ""},
		{"scenario", "", ""},
		{"heterogeneity", "hihg", ""},
	} {
		err := fmt.Errorf("study.json: %w", &engine.FieldError{Field: c.field, Value: c.value, Allowed: "one of them"})
		if got := didYouMean(err); got != c.want {
			t.Errorf("%s %q: got %q, want %q", c.field, c.value, got, c.want)
		}
	}
	if got := didYouMean(errors.New("policy: nope")); got != "" {
		t.Errorf("a plain error got %q", got)
	}
	if got := didYouMean(&engine.FieldError{Field: "policy", Value: 3.0}); got != "" {
		t.Errorf("a number got %q", got)
	}
}
