package experiment

import (
	"context"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// User strings reach HTML escaped.
func TestHTMLDisplaysEscape(t *testing.T) {
	s := engine.NewScenario(`<script>alert("x")</script>`)
	p := engine.PolicySpec{Name: "<b>mine</b>", Kind: engine.CostPolicy}
	for _, h := range []string{s.HTML(), p.HTML(), Experiment{Scenario: s, Policies: []engine.PolicySpec{p}}.HTML()} {
		if strings.Contains(h, "<script>") || strings.Contains(h, "<b>") {
			t.Errorf("unescaped: %s", h)
		}
	}
}

// A summary is labelled with its record's names, and a run shows counts and
// percentiles, never its latencies.
func TestResultDisplaysAreLabelled(t *testing.T) {
	c, err := Compare(context.Background(), Experiment{Scenario: mustScenario(t, "straggler", 150, engine.DefaultHeterogeneity),
		Policies: []engine.PolicySpec{engine.LeastQueue(), engine.Adaptive(engine.DefaultAdaptiveParams())}, Seeds: DefaultSeeds(2)})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Policies[1].Summary
	for _, label := range []string{"median_p99_ms", "p99_min_ms", "median_attainment", "median_goodput_rps", "summary of 2 runs"} {
		if !strings.Contains(s.String(), label) || !strings.Contains(s.HTML(), label) {
			t.Errorf("summary lacks %q:\n%s", label, s)
		}
	}
	r := c.Policies[1].Runs[0]
	if len(r.Latencies) < 1000 {
		t.Fatalf("a run kept %d latencies", len(r.Latencies))
	}
	one := r.String()
	if !strings.HasPrefix(one, "adaptive on straggler, seed 1: ") || !strings.Contains(one, "p99") || strings.Contains(one, "\n") {
		t.Errorf("run: %s", one)
	}
	if h := r.HTML(); len(h) > 8000 || !strings.Contains(h, "p99_ms") || !strings.Contains(h, "latencies in .Latencies") {
		t.Errorf("run HTML (%d bytes): %s", len(h), h)
	}
	text, html := c.String(), c.HTML()
	for _, col := range SummaryColumns(false) {
		if !strings.Contains(text, col.TextHead()) || !strings.Contains(html, col.TextHead()) {
			t.Errorf("column %q missing from a table", col.TextHead())
		}
	}
}
