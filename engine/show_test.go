package engine

import (
	"regexp"
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

// peek routes to the first eligible replica and keeps what its 50th view
// showed.
type peek struct {
	n    int
	text string
}

func (p *peek) Pick(v *View) (int, error) {
	if p.n++; p.n == 50 {
		p.text = v.String()
	}
	return v.Eligible[0].ID, nil
}

func (*peek) Observe(int, float64) {}

// A view of the serving model shows the request (its arrival rounded) and
// the serving signals the router sees; the specification's model, which has
// none, keeps its columns.
func TestViewShowsServingSignals(t *testing.T) {
	see := func(scenario string) string {
		p := &peek{}
		spec := PolicySpec{Name: "peek", New: func(PolicyEnv) (Policy, error) { return p, nil }}
		sim, err := NewSimulator(mustScenario(t, scenario, 150, DefaultHeterogeneity), spec, SimOptions{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for p.text == "" {
			if err := sim.Advance(50); err != nil {
				t.Fatal(err)
			}
		}
		return p.text
	}
	chat := see("chat")
	for _, want := range []string{"request 50 at ", " prompt tokens, system prompt ", "KV util  tokens in flight  prefix hit tokens  signal age ms  probed"} {
		if !strings.Contains(chat, want) {
			t.Errorf("the serving view lacks %q:\n%s", want, chat)
		}
	}
	if at := regexp.MustCompile(`request 50 at ([0-9.]+) ms`).FindStringSubmatch(chat); at == nil || !regexp.MustCompile(`^\d+\.\d$`).MatchString(at[1]) {
		t.Errorf("the arrival time is not rounded to 0.1 ms: %v", at)
	}
	steady := see("steady")
	if strings.Contains(steady, "KV util") || !strings.Contains(steady, "replica  healthy  waiting  in flight  service EWMA ms  reward EWMA  completed\n") {
		t.Errorf("the specification's view changed its columns:\n%s", steady)
	}
}
