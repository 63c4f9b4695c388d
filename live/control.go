package live

import (
	"fmt"
	"math"

	"github.com/routelab/routelab/engine"
)

// Control is one action on a live session: an event of the scenario's
// kinds at the current simulated time (and, for a burst, its end later), or
// a switch of policy. Make one with the functions below.
type Control struct {
	Event  engine.Event
	Until  float64 // for a burst: how long (simulated ms) before the rate returns
	Policy engine.PolicySpec
}

// SetRate sets the arrival rate (req/s).
func SetRate(rps float64) Control {
	return Control{Event: engine.Event{Kind: engine.EventSetRate, Value: rps}}
}

// Burst multiplies the scenario's base rate by factor for ms simulated
// milliseconds, then returns it to the base rate.
func Burst(factor, ms float64) Control {
	return Control{Event: engine.Event{Kind: engine.EventScaleRate, Value: factor}, Until: ms}
}

// Slow makes a replica factor times slower.
func Slow(replica int, factor float64) Control {
	return Control{Event: engine.Event{Kind: engine.EventSlow, Replica: replica, Value: factor}}
}

// Restore returns a slowed replica to its speed.
func Restore(replica int) Control {
	return Control{Event: engine.Event{Kind: engine.EventRestore, Replica: replica}}
}

// Fail takes a replica out: its in-flight request finishes, its queue is
// routed again, and it takes no traffic until Recover.
func Fail(replica int) Control {
	return Control{Event: engine.Event{Kind: engine.EventFail, Replica: replica}}
}

// Recover brings a failed replica back.
func Recover(replica int) Control {
	return Control{Event: engine.Event{Kind: engine.EventRecover, Replica: replica}}
}

// Use switches the router to a fresh instance of policy.
func Use(policy engine.PolicySpec) Control { return Control{Policy: policy} }

// apply schedules the control in sim at simulated time at (ms), or at the
// next boundary if that is earlier (-Inf: now).
func (c Control) apply(sim *engine.Simulator, at float64) error {
	if c.Policy.New != nil || c.Policy.Name != "" {
		return sim.UseAt(at, c.Policy)
	}
	if c.Event.Kind == "" {
		return fmt.Errorf("an empty control: make one with live.SetRate, Burst, Slow, Restore, Fail, Recover or Use")
	}
	e := c.Event
	e.At = at
	if c.Event.Kind != engine.EventScaleRate || c.Until == 0 {
		return sim.Schedule(e)
	}
	if !(c.Until > 0) || math.IsInf(c.Until, 0) {
		return &engine.FieldError{Field: "burst duration", Value: c.Until, Allowed: "a number of simulated ms > 0"}
	}
	if err := sim.Schedule(e); err != nil {
		return err
	}
	start := max(at, sim.Now()+engine.StepMs)
	return sim.Schedule(engine.Event{At: start + c.Until, Kind: engine.EventScaleRate, Value: 1})
}
