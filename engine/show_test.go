package engine

import (
	"strings"
	"testing"
)

// A view of a thousand replicas shows maxShown rows and says how many it
// left out, in text and HTML alike.
func TestDisplaysCutLongLists(t *testing.T) {
	v := View{Now: 12.5}
	for i := range 1000 {
		v.Replicas = append(v.Replicas, Replica{ID: i + 1, Healthy: true, ServiceEWMA: 11})
	}
	v.Eligible = v.Replicas
	// title, eligible, grid header, 20 rows, the count of the others
	if n := strings.Count(v.String(), "\n") + 1; n != 24 {
		t.Errorf("text display has %d lines, want 24:\n%s", n, v.String())
	}
	for name, out := range map[string]string{"text": v.String(), "html": v.HTML()} {
		if !strings.Contains(out, "… 980 more replicas (1000 in all)") || strings.Contains(out, ">21<") {
			t.Errorf("%s display of 1000 replicas is not cut to 20:\n%.600s", name, out)
		}
		if !strings.Contains(out, "1, 2, 3") || !strings.Contains(out, "… (1000 in all)") {
			t.Errorf("%s display does not cut the eligible list:\n%.600s", name, out)
		}
	}
}

// Showing a simulator reads it without changing it: a run shown at every
// step ends exactly as one never shown.
func TestShowingASimulatorChangesNothing(t *testing.T) {
	run := func(show bool) Totals {
		sim, err := NewSimulator(mustScenario(t, "failure", 150, DefaultHeterogeneity), LeastQueue(), SimOptions{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			if show {
				_ = sim.String() + sim.HTML()
			}
			if err := sim.Advance(50); err != nil {
				t.Fatal(err)
			}
		}
		return sim.Totals()
	}
	if a, b := run(false), run(true); a != b {
		t.Errorf("shown %v, not shown %v", b, a)
	}
}

// A spec says what it is: kind, parameters, and for a default built-in
// the registry's description.
func TestPolicySpecDisplay(t *testing.T) {
	cases := []struct {
		p    PolicySpec
		want []string
	}{
		{Adaptive(AdaptiveParams{C: 0.1, Alpha: 0.15, Ceiling: 80}), []string{"adaptive(c=0.1,L=80): built-in policy; c = 0.1, α = 0.15, L = 80 ms"}},
		{LatencyAware(DefaultAlpha), []string{"latency-aware: built-in policy; α = 0.15"}},
		{RoundRobin(), []string{"round-robin: built-in policy"}},
		{WeightedRoundRobin(0.3), []string{"weighted-rr(α=0.3): built-in policy; α = 0.3"}},
		{PolicySpec{Name: "mine", Kind: PickerPolicy}, []string{"mine: scripted picker"}},
		{PolicySpec{Name: "go"}, []string{"go: policy written in Go"}},
	}
	for _, c := range cases {
		for _, w := range c.want {
			if !strings.Contains(c.p.String(), w) {
				t.Errorf("%q lacks %q", c.p.String(), w)
			}
		}
	}
	if h := LatencyAware(DefaultAlpha).HTML(); !strings.Contains(h, PolicyAbout("latency-aware")) || !strings.Contains(h, "EWMA weight of the newest observation") {
		t.Errorf("latency-aware HTML: %s", h)
	}
	if h := Adaptive(AdaptiveParams{C: 0.1, Alpha: 0.15, Ceiling: 100}).HTML(); strings.Contains(h, PolicyAbout("adaptive")) {
		t.Errorf("a tuned adaptive shows the default's description: %s", h)
	}
}
