package console

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/live"
)

// Limits of what a page may ask for: enough to explore, small enough that
// every session stays cheap and its cluster fits on a screen.
const (
	MinRate     = 1.0
	MaxRate     = 1000.0 // req/s
	MaxReplicas = 8
	MinSpeed    = 10.0   // simulated ms per real second
	MaxSpeed    = 5000.0 // simulated ms per real second
)

// setup is what a page's simulation starts from; Reset starts it again from
// a new one. The traffic slider, policy picker and dilation act on the
// running session instead (and are recorded when they change the run).
type setup struct {
	Scenario      string  `json:"scenario"`
	Rate          float64 `json:"rate_rps"`
	Heterogeneity string  `json:"heterogeneity"`
	Replicas      int     `json:"replicas"`
	Seed          uint64  `json:"seed"`
	Speed         float64 `json:"speed"`
	Policy        string  `json:"policy"`
}

// defaultSetup is the specification's cluster: three replicas at 8/11/16 ms,
// 100 req/s, steady traffic, Adaptive routing, 120 simulated ms a second.
func defaultSetup() setup {
	return setup{Scenario: "steady", Rate: engine.DefaultRate, Heterogeneity: string(engine.DefaultHeterogeneity),
		Replicas: 3, Seed: 1, Speed: live.DefaultSpeed, Policy: "adaptive"}
}

// validate checks every field against the console's limits and the
// policies on offer.
func (s setup) validate(policies *policySet) error {
	switch {
	case !slices.Contains(engine.ScenarioNames(), s.Scenario):
		return field("scenario", s.Scenario, "one of "+strings.Join(engine.ScenarioNames(), ", "))
	case !(s.Rate >= MinRate && s.Rate <= MaxRate):
		return field("rate_rps", s.Rate, fmt.Sprintf("a rate from %g to %g req/s", MinRate, MaxRate))
	case s.Heterogeneity != string(engine.DefaultHeterogeneity) && s.Heterogeneity != string(engine.HighHeterogeneity):
		return field("heterogeneity", s.Heterogeneity, "default or high")
	case s.Replicas < 1 || s.Replicas > MaxReplicas:
		return field("replicas", s.Replicas, fmt.Sprintf("an integer from 1 to %d", MaxReplicas))
	case s.Seed < 1:
		return field("seed", s.Seed, "an integer >= 1")
	case !(s.Speed >= MinSpeed && s.Speed <= MaxSpeed):
		return field("speed", s.Speed, fmt.Sprintf("simulated ms per real second from %g to %g", MinSpeed, MaxSpeed))
	}
	_, err := policies.lookup(s.Policy)
	return err
}

// scenario is the built-in scenario at the setup's rate, with the replicas
// taking the heterogeneity's speeds in turn (8, 11, 16, 8, … ms by default).
func (s setup) scenario() (engine.Scenario, error) {
	scn, err := engine.BuiltinScenario(s.Scenario, s.Rate, engine.Heterogeneity(s.Heterogeneity))
	if err != nil {
		return engine.Scenario{}, err
	}
	speeds := scn.Speeds
	scn.Speeds = make([]float64, s.Replicas)
	for i := range scn.Speeds {
		scn.Speeds[i] = speeds[i%len(speeds)]
	}
	if err := scn.Validate(math.Inf(1)); err != nil {
		return engine.Scenario{}, fmt.Errorf("the %s scenario with %d replicas: %w", s.Scenario, s.Replicas, err)
	}
	return scn, nil
}

// field is a bad value: which field, the value and what is allowed.
func field(name string, value any, allowed string) error {
	return &engine.FieldError{Field: name, Value: value, Allowed: allowed}
}
