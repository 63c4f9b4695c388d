package engine

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/routelab/routelab/internal/record"
)

// ScenarioFile is a scenario saved as JSON. `routelab compare
// --scenario-file` compares policies on its Scenario; the console saves a
// recorded live session as one, Session saying how to replay it exactly.
// The scenario is the object `compare --json` writes under "scenario".
type ScenarioFile struct {
	Scenario Scenario         `json:"scenario"`
	Session  *RecordedSession `json:"session,omitempty"`
}

// RecordedSession says how a live session replays: run Scenario with this
// seed and policy (switching as it did) to Until, and the counts are those
// the session showed then.
type RecordedSession struct {
	Seed     uint64        `json:"seed"`
	Policy   string        `json:"policy"`
	Switches []NamedSwitch `json:"switches,omitempty"`
	Until    float64       `json:"until_ms"`
	Counts   SessionCounts `json:"counts"`
}

// NamedSwitch is a PolicySwitch by the policy's name.
type NamedSwitch struct {
	At     float64 `json:"at_ms"`
	Policy string  `json:"policy"`
}

// SessionCounts are a session's counts since time zero: arrivals,
// completions and requests shed, and those waiting or in flight.
type SessionCounts struct {
	Arrivals   int64 `json:"arrivals"`
	Completed  int64 `json:"completed"`
	Shed       int64 `json:"shed"`
	Unfinished int   `json:"unfinished"`
}

// ParseScenarioFile reads a scenario file; unknown fields and bad values
// are errors naming the file and the position or field. Event times are
// not bounded here: a run checks them against its own length.
func ParseScenarioFile(data []byte, name string) (ScenarioFile, error) {
	var f ScenarioFile
	if err := record.DecodeStrict(data, name, &f); err != nil {
		return ScenarioFile{}, err
	}
	if err := f.Validate(); err != nil {
		return ScenarioFile{}, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// Validate checks the scenario (events at any time from 0 on) and the
// recorded session, if any.
func (f ScenarioFile) Validate() error {
	if err := f.Scenario.Validate(math.Inf(1)); err != nil {
		return fmt.Errorf("scenario: %w", err)
	}
	if f.Session == nil {
		return nil
	}
	if err := f.Session.validate(); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	return nil
}

func (r *RecordedSession) validate() error {
	if r.Seed < 1 {
		return fieldErr("seed", r.Seed, "an integer >= 1")
	}
	if r.Policy == "" {
		return fieldErr("policy", r.Policy, "the name of the policy the session started with")
	}
	if !finite(r.Until) || r.Until < 0 || !onGrid(r.Until) {
		return fieldErr("until_ms", r.Until, "a finite multiple of 0.5 ms >= 0")
	}
	for i, s := range r.Switches {
		if !finite(s.At) || s.At < 0 || (i > 0 && s.At < r.Switches[i-1].At) {
			return fieldErr(fmt.Sprintf("switches[%d].at_ms", i), s.At, "a finite time >= 0, in order")
		}
		if s.Policy == "" {
			return fieldErr(fmt.Sprintf("switches[%d].policy", i), s.Policy, "a policy name")
		}
	}
	c := r.Counts
	if c.Arrivals < 0 || c.Completed < 0 || c.Shed < 0 || c.Unfinished < 0 || c.Completed+c.Shed+int64(c.Unfinished) != c.Arrivals {
		return fieldErr("counts", fmt.Sprintf("%+v", c), "counts >= 0 with arrivals = completed + shed + unfinished")
	}
	return nil
}

// PolicySpec is the session's routing: its policy, switched as recorded.
// lookup finds a policy by name (engine.PolicyByName for the built-ins).
func (r *RecordedSession) PolicySpec(lookup func(name string) (PolicySpec, error)) (PolicySpec, error) {
	first, err := lookup(r.Policy)
	if err != nil {
		return PolicySpec{}, err
	}
	if len(r.Switches) == 0 {
		return first, nil
	}
	sw := make([]PolicySwitch, len(r.Switches))
	for i, s := range r.Switches {
		p, err := lookup(s.Policy)
		if err != nil {
			return PolicySpec{}, fmt.Errorf("switches[%d]: %w", i, err)
		}
		sw[i] = PolicySwitch{At: s.At, Policy: p}
	}
	return Switching(first, sw), nil
}

// MarshalIndent is the file as JSON, indented by two spaces, with a final
// newline.
func (f ScenarioFile) MarshalIndent() ([]byte, error) {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
