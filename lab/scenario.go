package lab

import (
	"fmt"
	"html"
	"math"
	"os"
	"slices"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// Scenario describes a cluster, its workload, its timeline of events and the
// experiment protocol (seeds, warm-up, measurement, SLO). Methods return a
// changed copy, so a scenario can be varied freely:
//
//	base := lab.Straggler()
//	fast, busy := base.Rate(100), base.Rate(250)
//
// Every method checks its arguments and the scenario as a whole: a bad value
// fails in the call that gave it, and so does a change that leaves the
// scenario invalid (Speeds that drop a replica an event names).
type Scenario struct {
	scn   engine.Scenario
	proto engine.Protocol
	seeds []uint64
}

// Event is a change to the cluster; place it in time with Scenario.At.
type Event struct{ e engine.Event }

func (e Event) String() string { return e.e.String() }

// SetRate sets the arrival rate (req/s).
func SetRate(rps float64) Event {
	checkRate("lab.SetRate", rps)
	return Event{engine.Event{Kind: engine.EventSetRate, Value: rps}}
}

// ScaleRate sets the arrival rate to factor × the scenario's base rate.
func ScaleRate(factor float64) Event {
	check("lab.ScaleRate", finite(factor) && factor > 0, "factor", factor, "a finite number > 0 (times the base rate)")
	return Event{engine.Event{Kind: engine.EventScaleRate, Value: factor}}
}

// Slow makes a replica (1-based id) factor times slower than its base speed.
func Slow(replica int, factor float64) Event {
	checkReplica("lab.Slow", replica)
	check("lab.Slow", finite(factor) && factor > 0 && factor <= engine.MaxFactor, "factor", factor,
		fmt.Sprintf("a number in (0, %g]", float64(engine.MaxFactor)))
	return Event{engine.Event{Kind: engine.EventSlow, Replica: replica, Value: factor}}
}

// Restore gives a replica back its base speed.
func Restore(replica int) Event {
	checkReplica("lab.Restore", replica)
	return Event{engine.Event{Kind: engine.EventRestore, Replica: replica}}
}

// Fail takes a replica out of service: its in-flight request finishes and its
// queue is re-routed.
func Fail(replica int) Event {
	checkReplica("lab.Fail", replica)
	return Event{engine.Event{Kind: engine.EventFail, Replica: replica}}
}

// Recover brings a failed replica back.
func Recover(replica int) Event {
	checkReplica("lab.Recover", replica)
	return Event{engine.Event{Kind: engine.EventRecover, Replica: replica}}
}

// checkReplica checks what an event knows alone; Scenario.At checks the id
// against the scenario's replicas.
func checkReplica(op string, id int) {
	check(op, id >= 1, "replica", id, "a replica id >= 1 (replicas are numbered from 1)")
}

func checkRate(op string, rps float64) {
	check(op, finite(rps) && rps > 0 && rps <= engine.MaxRate, "rps", rps,
		fmt.Sprintf("a number of requests per second in (0, %g]", float64(engine.MaxRate)))
}

// NewScenario starts a scenario with the specification's defaults: three
// replicas at 8/11/16 ms, 100 req/s Poisson, token-based demand, no events;
// 10 seeds, 3 s warm-up, 12 s measurement, 50 ms SLO.
func NewScenario(name string) *Scenario {
	return &Scenario{scn: engine.NewScenario(name), proto: engine.DefaultProtocol(), seeds: experiment.DefaultSeeds(engine.DefaultSeedCount)}
}

func builtin(op, name string) *Scenario {
	s, err := engine.BuiltinScenario(name, engine.ScenarioRate(name), engine.DefaultHeterogeneity)
	if err != nil {
		fail(op, err)
	}
	out := NewScenario(name)
	out.scn = s
	return out
}

// Steady is constant traffic with no events.
func Steady() *Scenario { return builtin("lab.Steady", "steady") }

// Burst doubles the traffic from 6 s to 9 s.
func Burst() *Scenario { return builtin("lab.Burst", "burst") }

// Straggler slows replica 1 ×5 from 5 s to 10 s.
func Straggler() *Scenario { return builtin("lab.Straggler", "straggler") }

// Failure fails replica 2 from 6 s to 10 s.
func Failure() *Scenario { return builtin("lab.Failure", "failure") }

// Named returns a built-in scenario by name: the specification's steady,
// burst, straggler and failure, or a scenario of the serving model (chat,
// sessions, long-context, kv-pressure, hot-prefix, herding,
// prefix-failure) at its usual rate (docs/serving.md).
func Named(name string) *Scenario { return builtin("lab.Named", name) }

// The serving model's scenarios (engine.BuiltinScenarios describes each),
// at their usual rates; lab.Named(name) makes the same.

// Chat is chat turns behind 32 shared system prompts, with prefix caching.
func Chat() *Scenario { return builtin("lab.Chat", "chat") }

// Sessions is multi-turn conversations, each turn extending the last.
func Sessions() *Scenario { return builtin("lab.Sessions", "sessions") }

// LongContext is chat with a tenth of long documents and of long replies.
func LongContext() *Scenario { return builtin("lab.LongContext", "long-context") }

// KVPressure is long replies into small KV caches: admissions wait,
// requests are preempted.
func KVPressure() *Scenario { return builtin("lab.KVPressure", "kv-pressure") }

// HotPrefix is chat whose burst lands on a new system prompt.
func HotPrefix() *Scenario { return builtin("lab.HotPrefix", "hot-prefix") }

// Herding is chat near capacity with signals scraped every 200 ms.
func Herding() *Scenario { return builtin("lab.Herding", "herding") }

// PrefixFailure is chat with a replica that fails and returns with an
// empty prefix cache.
func PrefixFailure() *Scenario { return builtin("lab.PrefixFailure", "prefix-failure") }

// with returns a copy changed by f and checked whole, failing as op.
func (s *Scenario) with(op string, f func(c *Scenario)) *Scenario {
	c := *s
	c.scn.Speeds = slices.Clone(s.scn.Speeds)
	c.scn.Events = slices.Clone(s.scn.Events)
	c.seeds = slices.Clone(s.seeds)
	f(&c)
	if _, _, err := c.Engine(); err != nil {
		fail(op, err)
	}
	return &c
}

// Name renames the scenario.
func (s *Scenario) Name(name string) *Scenario {
	return s.with("Scenario.Name", func(c *Scenario) { c.scn.Name = name })
}

// Rate sets the base arrival rate (req/s).
func (s *Scenario) Rate(rps float64) *Scenario {
	checkRate("Scenario.Rate", rps)
	return s.with("Scenario.Rate", func(c *Scenario) { c.scn.Rate = rps })
}

// Speeds sets the replicas' mean service times for the reference request
// (ms); the number of speeds is the number of replicas.
func (s *Scenario) Speeds(ms ...float64) *Scenario {
	return s.with("Scenario.Speeds", func(c *Scenario) { c.scn.Speeds = slices.Clone(ms) })
}

// Heterogeneity sets the speeds by name: "default" (8/11/16 ms) or "high"
// (6/11/24 ms).
func (s *Scenario) Heterogeneity(name string) *Scenario {
	sp, err := engine.Heterogeneity(name).Speeds()
	if err != nil {
		fail("Scenario.Heterogeneity", err)
	}
	return s.with("Scenario.Heterogeneity", func(c *Scenario) { c.scn.Speeds = sp })
}

// QueueCap sets each replica's waiting-queue capacity.
func (s *Scenario) QueueCap(n int) *Scenario {
	return s.with("Scenario.QueueCap", func(c *Scenario) { c.scn.QueueCap = n })
}

// Jitter sets the half-width of the uniform service-time jitter (0.1 gives
// U(0.9, 1.1); 0 turns it off).
func (s *Scenario) Jitter(halfWidth float64) *Scenario {
	return s.with("Scenario.Jitter", func(c *Scenario) { c.scn.Jitter = halfWidth })
}

// Periodic makes arrivals evenly spaced instead of Poisson.
func (s *Scenario) Periodic() *Scenario {
	return s.with("Scenario.Periodic", func(c *Scenario) { c.scn.Arrivals = engine.Periodic })
}

// Exponential makes service demand exponential with the given mean (ms).
func (s *Scenario) Exponential(meanMs float64) *Scenario {
	return s.with("Scenario.Exponential", func(c *Scenario) {
		c.scn.Demand.Kind, c.scn.Demand.Mean = engine.ExponentialDemand, meanMs
	})
}

// Deterministic gives every request the same demand (ms).
func (s *Scenario) Deterministic(ms float64) *Scenario {
	return s.with("Scenario.Deterministic", func(c *Scenario) {
		c.scn.Demand.Kind, c.scn.Demand.Mean = engine.FixedDemand, ms
	})
}

// LogNormal makes service demand log-normal with the given mean (ms) and
// coefficient of variation.
func (s *Scenario) LogNormal(meanMs, cv float64) *Scenario {
	return s.with("Scenario.LogNormal", func(c *Scenario) {
		c.scn.Demand.Kind, c.scn.Demand.Mean, c.scn.Demand.CV = engine.LogNormalDemand, meanMs, cv
	})
}

// Tokens sets the token model of token-based demand.
func (s *Scenario) Tokens(m engine.TokenModel) *Scenario {
	return s.with("Scenario.Tokens", func(c *Scenario) { c.scn.Demand.Kind, c.scn.Demand.Tokens = engine.TokenDemand, m })
}

// Serving makes the replicas the serving model's — continuous batching
// over a KV cache with a prefix cache, router signals that can be stale or
// probed — as c configures it (engine.DefaultServing() is a start;
// docs/serving.md). The scenario's demand must be token-based.
func (s *Scenario) Serving(c engine.ServingConfig) *Scenario {
	return s.with("Scenario.Serving", func(x *Scenario) { x.scn.Serving = &c })
}

// Trace replays arrivals and token counts from a CSV file
// (arrival_ms,prompt_tokens,output_tokens).
func (s *Scenario) Trace(path string) *Scenario {
	trace, err := readTrace(path)
	if err != nil {
		fail("Scenario.Trace", err)
	}
	return s.with("Scenario.Trace", func(c *Scenario) { c.scn.Trace, c.scn.Arrivals = trace, engine.Replay })
}

func readTrace(path string) ([]engine.TraceRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return engine.ReadTrace(f, path)
}

// At schedules events at a time in seconds of simulated time, within the
// run: set a longer run with Warmup or Measure first.
func (s *Scenario) At(seconds float64, events ...Event) *Scenario {
	const op = "Scenario.At"
	end := s.proto.Horizon() / 1000
	check(op, seconds >= 0 && toMs(seconds) <= s.proto.Horizon(), "seconds", seconds,
		fmt.Sprintf("a time within the run, 0 to %g s (call .Warmup or .Measure first for a longer run)", end))
	check(op, len(events) > 0, "events", word("none"), "at least one event, such as lab.Fail(2)")
	return s.with(op, func(c *Scenario) {
		for _, e := range events {
			ev := e.e
			ev.At = toMs(seconds)
			c.scn.Events = append(c.scn.Events, ev)
		}
	})
}

// toMs turns seconds into ms, onto the simulator's 0.5 ms grid when the
// product misses it by rounding alone: 0.5005 s × 1000 is
// 500.49999999999994 in floating point, and a warm-up or measurement off
// the grid would be refused.
func toMs(seconds float64) float64 {
	ms := seconds * 1000
	grid := math.Round(ms/engine.StepMs) * engine.StepMs
	if math.Abs(ms-grid) <= 1e-9*math.Max(1, math.Abs(ms)) {
		return grid
	}
	return ms
}

// Seeds sets the number of seeds (1..n).
func (s *Scenario) Seeds(n int) *Scenario {
	check("Scenario.Seeds", n >= 1, "n", n, "a number of seeds >= 1")
	return s.with("Scenario.Seeds", func(c *Scenario) { c.seeds = experiment.DefaultSeeds(n) })
}

// SeedList sets the seeds explicitly: at least one, each >= 1, no repeats.
func (s *Scenario) SeedList(seeds ...int) *Scenario {
	const op = "Scenario.SeedList"
	check(op, len(seeds) > 0, "seeds", word("none"), "at least one seed")
	for i, v := range seeds {
		field := fmt.Sprintf("seeds[%d]", i)
		check(op, v >= 1, field, v, "integers >= 1")
		check(op, !slices.Contains(seeds[:i], v), field, v, "distinct seeds")
	}
	return s.with(op, func(c *Scenario) {
		c.seeds = make([]uint64, len(seeds))
		for i, v := range seeds {
			c.seeds[i] = uint64(v)
		}
	})
}

// Warmup sets the discarded warm-up (seconds).
func (s *Scenario) Warmup(seconds float64) *Scenario {
	check("Scenario.Warmup", finite(seconds) && seconds >= 0, "seconds", seconds, "a finite number of seconds >= 0")
	return s.with("Scenario.Warmup", func(c *Scenario) { c.proto.Warmup = toMs(seconds) })
}

// Measure sets the measurement window (seconds).
func (s *Scenario) Measure(seconds float64) *Scenario {
	check("Scenario.Measure", finite(seconds) && seconds > 0, "seconds", seconds, "a finite number of seconds > 0")
	return s.with("Scenario.Measure", func(c *Scenario) { c.proto.Measure = toMs(seconds) })
}

// SLO sets the end-to-end latency objective (ms).
func (s *Scenario) SLO(ms float64) *Scenario {
	return s.with("Scenario.SLO", func(c *Scenario) { c.proto.SLO = ms })
}

// Engine returns the engine's scenario and protocol, validated (a scenario
// from the builders is always valid; a zero Scenario is not).
func (s *Scenario) Engine() (engine.Scenario, engine.Protocol, error) {
	if err := s.proto.Validate(); err != nil {
		return engine.Scenario{}, engine.Protocol{}, err
	}
	if err := s.scn.Validate(s.proto.Horizon()); err != nil {
		return engine.Scenario{}, engine.Protocol{}, err
	}
	return s.scn, s.proto, nil
}

// protocolLine describes the protocol and the seeds.
func (s Scenario) protocolLine() string {
	return fmt.Sprintf("protocol: %d seeds, %g s warm-up, %g s measured, SLO %g ms",
		len(s.seeds), s.proto.Warmup/1000, s.proto.Measure/1000, s.proto.SLO)
}

// String describes the scenario in a few lines.
func (s Scenario) String() string {
	text := s.scn.String() + "\n" + s.protocolLine()
	if _, _, err := s.Engine(); err != nil {
		text += "\ninvalid: " + err.Error()
	}
	return text
}

// HTML shows the scenario as a table, then its protocol.
func (s Scenario) HTML() string {
	out := s.scn.HTML() + "<p>" + html.EscapeString(s.protocolLine()) + "</p>"
	if _, _, err := s.Engine(); err != nil {
		out += "<p>invalid: " + html.EscapeString(err.Error()) + "</p>"
	}
	return out
}
