package engine

import (
	"fmt"
	"html"
	"slices"
	"strings"
)

// PolicySwitch is a change of routing policy at a simulated time: a fresh
// instance of Policy routes from At on, observing the completions of that
// boundary too.
type PolicySwitch struct {
	At     float64
	Policy PolicySpec
}

// String says which policy takes over when.
func (s PolicySwitch) String() string {
	return fmt.Sprintf("%s routes from %g s", s.Policy.Name, s.At/1000)
}

// HTML shows the switch as its text.
func (s PolicySwitch) HTML() string { return html.EscapeString(s.String()) }

// Switching is first until the first switch, then each switch's policy in
// turn: how a live session that changed policies replays (Simulator.Use).
// Each later policy is made when it takes over, from the same environment
// (its random stream continues the run's policy stream).
func Switching(first PolicySpec, switches []PolicySwitch) PolicySpec {
	sw := slices.Clone(switches)
	slices.SortStableFunc(sw, func(a, b PolicySwitch) int { return cmpFloat(a.At, b.At) })
	names := []string{first.Name}
	for _, s := range sw {
		names = append(names, fmt.Sprintf("%s at %g s", s.Policy.Name, s.At/1000))
	}
	return PolicySpec{Name: strings.Join(names, " → "), Kind: first.Kind, New: func(env PolicyEnv) (Policy, error) {
		if env.Now == nil {
			return nil, fmt.Errorf("a switching policy needs the simulated time (PolicyEnv.Now)")
		}
		for i, s := range sw {
			if s.Policy.New == nil {
				return nil, fieldErr(fmt.Sprintf("switches[%d].policy", i), s.Policy.Name, "a policy with a constructor")
			}
		}
		cur, err := first.New(env)
		if err != nil {
			return nil, err
		}
		return &switching{env: env, cur: cur, switches: sw}, nil
	}}
}

// switching routes with the policy whose time has come.
type switching struct {
	env      PolicyEnv
	cur      Policy
	switches []PolicySwitch
	next     int
	err      error
}

// advance makes the policies due by now.
func (p *switching) advance() error {
	for p.err == nil && p.next < len(p.switches) && p.switches[p.next].At <= p.env.Now() {
		s := p.switches[p.next]
		p.next++
		cur, err := s.Policy.New(p.env)
		if err != nil {
			p.err = fmt.Errorf("policy %q at %g ms: %w", s.Policy.Name, s.At, err)
			break
		}
		p.cur = cur
	}
	return p.err
}

func (p *switching) Pick(v *View) (int, error) {
	if err := p.advance(); err != nil {
		return 0, err
	}
	return p.cur.Pick(v)
}

// Observe reports a completion to the policy routing now (an error making
// a policy surfaces at the next Pick).
func (p *switching) Observe(replica int, serviceMs float64) {
	if p.advance() == nil {
		p.cur.Observe(replica, serviceMs)
	}
}

// ObserveCompletion reports a completion to the policy routing now, if it
// observes completions.
func (p *switching) ObserveCompletion(c Completion) {
	if p.advance() == nil {
		if o, ok := p.cur.(CompletionObserver); ok {
			o.ObserveCompletion(c)
		}
	}
}

// Admit asks the policy routing now, if it admits; an error making a policy
// admits, to surface at Pick.
func (p *switching) Admit(v *View) bool {
	if p.advance() == nil {
		if a, ok := p.cur.(Admitter); ok {
			return a.Admit(v)
		}
	}
	return true
}
