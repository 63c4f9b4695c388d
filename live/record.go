package live

import "github.com/routelab/routelab/engine"

// Recording is the session so far as a scenario file, taken at one instant:
// the scenario with every control added at the time it took effect, and the
// seed, starting policy, switches of policy, simulated time and counts that
// replay it (engine.RecordedSession). A replay of the file to its Until,
// with the policies the names stand for, shows the same counts.
func (s *Session) Recording() engine.ScenarioFile {
	s.mu.Lock()
	defer s.mu.Unlock()
	scn := s.opts.Scenario
	scn.Events = append(append([]engine.Event(nil), scn.Events...), s.sim.LiveEvents()...)
	scn.Name = scn.Name + " (live session)"
	f := s.frame(s.stopped)
	rec := &engine.RecordedSession{
		Seed: s.opts.Seed, Policy: s.opts.Policy.Name, Until: f.Now,
		Counts: engine.SessionCounts{Arrivals: f.Arrivals, Completed: f.Completed, Shed: f.Shed, Unfinished: f.Unfinished},
	}
	for _, sw := range s.sim.Switches() {
		rec.Switches = append(rec.Switches, engine.NamedSwitch{At: sw.At, Policy: sw.Policy.Name})
	}
	return engine.ScenarioFile{Scenario: scn, Session: rec}
}
