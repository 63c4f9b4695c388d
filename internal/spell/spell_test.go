package spell

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3},
		{"stedy", "steady", 1}, {"p99", "p99", 0}, {"Δp", "Δq", 1},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
}

// A slip is offered its name; a name far from every allowed one, an allowed
// name itself and an empty one are offered nothing.
func TestNearest(t *testing.T) {
	allowed := []string{"steady", "long-context", "least-queue", "p2c", "p99_ms", "ttft_p99_ms"}
	for _, c := range []struct{ name, want string }{
		{"stedy", "steady"}, {"Steady", "steady"}, {"longcontext", "long-context"},
		{"leastqueue", "least-queue"}, {"p2", "p2c"}, {"ttft_p99", "ttft_p99_ms"},
		{"p99", "p99_ms"}, {"oracle", ""}, {"x", ""}, {"", ""}, {"steady", ""},
	} {
		if got := Nearest(c.name, allowed); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
