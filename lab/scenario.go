package lab

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/routelab/routelab/engine"
)

// Scenario describes a cluster, its workload, its timeline of events and the
// experiment protocol (seeds, warm-up, measurement, SLO). Methods return a
// changed copy, so a scenario can be varied freely:
//
//	base := lab.Straggler()
//	fast, busy := base.Rate(100), base.Rate(250)
type Scenario struct {
	scn   engine.Scenario
	proto engine.Protocol
	seeds []uint64
	err   error // the first builder error, reported when the scenario is used
}

// Event is a change to the cluster; place it in time with Scenario.At.
type Event struct{ e engine.Event }

func (e Event) String() string { return e.e.String() }

// SetRate sets the arrival rate (req/s).
func SetRate(rps float64) Event { return Event{engine.Event{Kind: engine.EventSetRate, Value: rps}} }

// ScaleRate sets the arrival rate to factor × the scenario's base rate.
func ScaleRate(factor float64) Event {
	return Event{engine.Event{Kind: engine.EventScaleRate, Value: factor}}
}

// Slow makes a replica (1-based id) factor times slower than its base speed.
func Slow(replica int, factor float64) Event {
	return Event{engine.Event{Kind: engine.EventSlow, Replica: replica, Value: factor}}
}

// Restore gives a replica back its base speed.
func Restore(replica int) Event {
	return Event{engine.Event{Kind: engine.EventRestore, Replica: replica}}
}

// Fail takes a replica out of service: its in-flight request finishes and its
// queue is re-routed.
func Fail(replica int) Event { return Event{engine.Event{Kind: engine.EventFail, Replica: replica}} }

// Recover brings a failed replica back.
func Recover(replica int) Event {
	return Event{engine.Event{Kind: engine.EventRecover, Replica: replica}}
}

// NewScenario starts a scenario with the specification's defaults: three
// replicas at 8/11/16 ms, 100 req/s Poisson, token-based demand, no events;
// 10 seeds, 3 s warm-up, 12 s measurement, 50 ms SLO.
func NewScenario(name string) *Scenario {
	return &Scenario{scn: engine.NewScenario(name), proto: engine.DefaultProtocol(), seeds: engine.DefaultSeeds(10)}
}

func builtin(name string) *Scenario {
	s, err := engine.BuiltinScenario(name, engine.DefaultRate, engine.DefaultHeterogeneity)
	out := NewScenario(name)
	out.scn, out.err = s, err
	return out
}

// Steady is constant traffic with no events.
func Steady() *Scenario { return builtin("steady") }

// Burst doubles the traffic from 6 s to 9 s.
func Burst() *Scenario { return builtin("burst") }

// Straggler slows replica 1 ×5 from 5 s to 10 s.
func Straggler() *Scenario { return builtin("straggler") }

// Failure fails replica 2 from 6 s to 10 s.
func Failure() *Scenario { return builtin("failure") }

// Named returns a built-in scenario by name (steady, burst, straggler, failure).
func Named(name string) *Scenario {
	if !slices.Contains(engine.ScenarioNames(), name) {
		out := NewScenario(name)
		out.err = fmt.Errorf("scenario %q is not built in (want one of %s)", name, strings.Join(engine.ScenarioNames(), ", "))
		return out
	}
	return builtin(name)
}

// with returns a copy changed by f; the first error sticks.
func (s *Scenario) with(f func(c *Scenario)) *Scenario {
	c := *s
	c.scn.Speeds = slices.Clone(s.scn.Speeds)
	c.scn.Events = slices.Clone(s.scn.Events)
	c.seeds = slices.Clone(s.seeds)
	if c.err == nil {
		f(&c)
	}
	return &c
}

// Name renames the scenario.
func (s *Scenario) Name(name string) *Scenario {
	return s.with(func(c *Scenario) { c.scn.Name = name })
}

// Rate sets the base arrival rate (req/s).
func (s *Scenario) Rate(rps float64) *Scenario { return s.with(func(c *Scenario) { c.scn.Rate = rps }) }

// Speeds sets the replicas' mean service times for the reference request
// (ms); the number of speeds is the number of replicas.
func (s *Scenario) Speeds(ms ...float64) *Scenario {
	return s.with(func(c *Scenario) { c.scn.Speeds = slices.Clone(ms) })
}

// Heterogeneity sets the speeds by name: "default" (8/11/16 ms) or "high"
// (6/11/24 ms).
func (s *Scenario) Heterogeneity(name string) *Scenario {
	return s.with(func(c *Scenario) {
		sp, err := engine.Heterogeneity(name).Speeds()
		c.scn.Speeds, c.err = sp, err
	})
}

// QueueCap sets each replica's waiting-queue capacity.
func (s *Scenario) QueueCap(n int) *Scenario { return s.with(func(c *Scenario) { c.scn.QueueCap = n }) }

// Jitter sets the half-width of the uniform service-time jitter (0.1 gives
// U(0.9, 1.1); 0 turns it off).
func (s *Scenario) Jitter(halfWidth float64) *Scenario {
	return s.with(func(c *Scenario) { c.scn.Jitter = halfWidth })
}

// Periodic makes arrivals evenly spaced instead of Poisson.
func (s *Scenario) Periodic() *Scenario {
	return s.with(func(c *Scenario) { c.scn.Arrivals = engine.Periodic })
}

// Exponential makes service demand exponential with the given mean (ms).
func (s *Scenario) Exponential(meanMs float64) *Scenario {
	return s.with(func(c *Scenario) { c.scn.Demand.Kind, c.scn.Demand.Mean = engine.ExponentialDemand, meanMs })
}

// Deterministic gives every request the same demand (ms).
func (s *Scenario) Deterministic(ms float64) *Scenario {
	return s.with(func(c *Scenario) { c.scn.Demand.Kind, c.scn.Demand.Mean = engine.FixedDemand, ms })
}

// LogNormal makes service demand log-normal with the given mean (ms) and
// coefficient of variation.
func (s *Scenario) LogNormal(meanMs, cv float64) *Scenario {
	return s.with(func(c *Scenario) {
		c.scn.Demand.Kind, c.scn.Demand.Mean, c.scn.Demand.CV = engine.LogNormalDemand, meanMs, cv
	})
}

// Tokens sets the token model of token-based demand.
func (s *Scenario) Tokens(m engine.TokenModel) *Scenario {
	return s.with(func(c *Scenario) { c.scn.Demand.Kind, c.scn.Demand.Tokens = engine.TokenDemand, m })
}

// Trace replays arrivals and token counts from a CSV file
// (arrival_ms,prompt_tokens,output_tokens).
func (s *Scenario) Trace(path string) *Scenario {
	return s.with(func(c *Scenario) {
		f, err := os.Open(path)
		if err != nil {
			c.err = err
			return
		}
		defer f.Close()
		c.scn.Trace, c.err = engine.ReadTrace(f, path)
		c.scn.Arrivals = engine.Replay
	})
}

// At schedules events at a time in seconds of simulated time.
func (s *Scenario) At(seconds float64, events ...Event) *Scenario {
	return s.with(func(c *Scenario) {
		for _, e := range events {
			ev := e.e
			ev.At = seconds * 1000
			c.scn.Events = append(c.scn.Events, ev)
		}
	})
}

// Seeds sets the number of seeds (1..n).
func (s *Scenario) Seeds(n int) *Scenario {
	return s.with(func(c *Scenario) {
		if n < 1 {
			c.err = &engine.FieldError{Field: "seeds", Value: n, Allowed: "an integer >= 1"}
			return
		}
		c.seeds = engine.DefaultSeeds(n)
	})
}

// SeedList sets the seeds explicitly.
func (s *Scenario) SeedList(seeds ...int) *Scenario {
	return s.with(func(c *Scenario) {
		c.seeds = nil
		for _, v := range seeds {
			if v < 1 {
				c.err = &engine.FieldError{Field: "seeds", Value: v, Allowed: "integers >= 1"}
				return
			}
			c.seeds = append(c.seeds, uint64(v))
		}
	})
}

// Warmup sets the discarded warm-up (seconds).
func (s *Scenario) Warmup(seconds float64) *Scenario {
	return s.with(func(c *Scenario) { c.proto.Warmup = seconds * 1000 })
}

// Measure sets the measurement window (seconds).
func (s *Scenario) Measure(seconds float64) *Scenario {
	return s.with(func(c *Scenario) { c.proto.Measure = seconds * 1000 })
}

// SLO sets the end-to-end latency objective (ms).
func (s *Scenario) SLO(ms float64) *Scenario { return s.with(func(c *Scenario) { c.proto.SLO = ms }) }

// Engine returns the engine's scenario and protocol, validated.
func (s *Scenario) Engine() (engine.Scenario, engine.Protocol, error) {
	if s.err != nil {
		return engine.Scenario{}, engine.Protocol{}, s.err
	}
	if err := s.proto.Validate(); err != nil {
		return engine.Scenario{}, engine.Protocol{}, err
	}
	if err := s.scn.Validate(s.proto.Horizon()); err != nil {
		return engine.Scenario{}, engine.Protocol{}, err
	}
	return s.scn, s.proto, nil
}

// String describes the scenario in a few lines.
func (s *Scenario) String() string {
	var b strings.Builder
	arrivals := s.scn.Traffic()
	if s.scn.Arrivals == engine.Poisson {
		arrivals += " Poisson"
	}
	fmt.Fprintf(&b, "scenario %s: %s at %s ms; arrivals: %s; demand: %s; queue cap %d\n",
		s.scn.Name, s.scn.Cluster(), joinFloats(s.scn.Speeds, "/"), arrivals, s.scn.Demand.Kind, s.scn.QueueCap)
	for _, e := range s.scn.Events {
		fmt.Fprintf(&b, "  at %s\n", e)
	}
	fmt.Fprintf(&b, "protocol: %d seeds, %g s warm-up, %g s measured, SLO %g ms",
		len(s.seeds), s.proto.Warmup/1000, s.proto.Measure/1000, s.proto.SLO)
	if s.err != nil {
		fmt.Fprintf(&b, "\ninvalid: %v", s.err)
	}
	return b.String()
}

func joinFloats(xs []float64, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%g", x)
	}
	return strings.Join(parts, sep)
}
