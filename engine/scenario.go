package engine

import (
	"fmt"
	"math"
	"slices"
)

// EventKind names a scenario event.
type EventKind string

// The scenario events.
const (
	// EventSetRate sets the arrival rate to Value req/s.
	EventSetRate EventKind = "set-rate"
	// EventScaleRate sets the arrival rate to Value × the scenario's base rate.
	EventScaleRate EventKind = "scale-rate"
	// EventSlow makes Replica Value times slower than its base speed
	// (not compounding; Value 1 restores it). It applies to requests that
	// start service at or after the event.
	EventSlow EventKind = "slow"
	// EventRestore gives Replica back its base speed.
	EventRestore EventKind = "restore"
	// EventFail takes Replica out of service: its in-flight request finishes,
	// its waiting queue is re-routed, it receives no traffic until it recovers.
	EventFail EventKind = "fail"
	// EventRecover brings Replica back into service.
	EventRecover EventKind = "recover"
)

// Event is a change to the cluster at a fixed simulated time, shared by all
// policies and seeds.
type Event struct {
	At      float64   `json:"at_ms"`
	Kind    EventKind `json:"kind"`
	Replica int       `json:"replica,omitempty"` // 1-based
	Value   float64   `json:"value,omitempty"`
}

func (e Event) String() string {
	switch e.Kind {
	case EventSetRate:
		return fmt.Sprintf("%gs: rate %g req/s", e.At/1000, e.Value)
	case EventScaleRate:
		return fmt.Sprintf("%gs: rate ×%g", e.At/1000, e.Value)
	case EventSlow:
		return fmt.Sprintf("%gs: replica %d ×%g slower", e.At/1000, e.Replica, e.Value)
	}
	return fmt.Sprintf("%gs: %s replica %d", e.At/1000, e.Kind, e.Replica)
}

// affectsReplica tells whether the event names a replica.
func (k EventKind) affectsReplica() bool {
	return k == EventSlow || k == EventRestore || k == EventFail || k == EventRecover
}

// Scenario is a complete description of a cluster and its workload: every run
// of a scenario with the same seed sees exactly the same requests.
type Scenario struct {
	Name string `json:"name"`
	// Rate is the base arrival rate in requests per second.
	Rate float64 `json:"rate_rps"`
	// Speeds are the replicas' mean service times (ms) for the reference
	// request (demand 11 ms); there are len(Speeds) replicas.
	Speeds []float64 `json:"speeds_ms"`
	// QueueCap bounds each replica's waiting queue (not counting the request
	// in flight); a replica with a full queue is not eligible.
	QueueCap int            `json:"queue_cap"`
	Arrivals ArrivalProcess `json:"arrivals"`
	// Trace holds the requests replayed when Arrivals is Replay.
	Trace  []TraceRecord `json:"-"`
	Demand DemandModel   `json:"demand"`
	// Jitter is the half-width of the uniform service-time multiplier:
	// 0.1 gives U(0.9, 1.1). Zero disables it (the draw still happens).
	Jitter float64 `json:"jitter"`
	Events []Event `json:"events"`
	// Serving, when set, makes the replicas continuous-batching LLM servers
	// (see ServingConfig); nil is the specification's model.
	Serving *ServingConfig `json:"serving,omitempty"`
}

// Model constants fixed by the specification.
const (
	DefaultRate     = 100.0 // req/s
	DefaultQueueCap = 50
	DefaultJitter   = 0.1
	DefaultSLO      = 50.0  // ms
	DefaultWarmup   = 3000  // ms
	DefaultMeasure  = 12000 // ms
	StepMs          = 0.5   // simulator timestep
	// DefaultSeedCount is how many seeds an experiment runs unless told:
	// seeds 1 to 10.
	DefaultSeedCount = 10
)

// Heterogeneity names a set of replica speeds.
type Heterogeneity string

// The heterogeneity settings of the specification.
const (
	DefaultHeterogeneity Heterogeneity = "default"
	HighHeterogeneity    Heterogeneity = "high"
)

// Speeds returns the replica speeds (ms per reference request) of h.
func (h Heterogeneity) Speeds() ([]float64, error) {
	switch h {
	case DefaultHeterogeneity, "":
		return []float64{8, 11, 16}, nil
	case HighHeterogeneity:
		return []float64{6, 11, 24}, nil
	}
	return nil, fieldErr("heterogeneity", string(h), "default or high")
}

// NewScenario returns a steady scenario with the specification's defaults:
// three replicas at 8/11/16 ms, 100 req/s Poisson, token-based demand.
func NewScenario(name string) Scenario {
	return Scenario{
		Name:     name,
		Rate:     DefaultRate,
		Speeds:   []float64{8, 11, 16},
		QueueCap: DefaultQueueCap,
		Arrivals: Poisson,
		Demand:   DefaultDemand(),
		Jitter:   DefaultJitter,
	}
}

// scenarioDef is one built-in scenario: its name, what it shows, and its
// events; a serving scenario also has its usual rate (req/s) and sets up
// its serving section.
type scenarioDef struct {
	name, lab, about string // lab: the lab function that makes it
	events           []Event
	rate             float64
	serving          func(*Scenario)
}

func builtinScenarios() []scenarioDef { return append(specScenarios(), servingScenarios()...) }

// specScenarios are the specification's four scenarios.
func specScenarios() []scenarioDef {
	return []scenarioDef{
		{name: "steady", lab: "Steady", about: "constant traffic, no events"},
		{name: "burst", lab: "Burst", about: "traffic ×2 from 6 s to 9 s", events: []Event{
			{At: 6000, Kind: EventScaleRate, Value: 2}, {At: 9000, Kind: EventScaleRate, Value: 1}}},
		{name: "straggler", lab: "Straggler", about: "replica 1 slows ×5 at 5 s and recovers at 10 s", events: []Event{
			{At: 5000, Kind: EventSlow, Replica: 1, Value: 5}, {At: 10000, Kind: EventRestore, Replica: 1}}},
		{name: "failure", lab: "Failure", about: "replica 2 fails at 6 s and recovers at 10 s", events: []Event{
			{At: 6000, Kind: EventFail, Replica: 2}, {At: 10000, Kind: EventRecover, Replica: 2}}},
	}
}

// findScenario is the built-in scenario named name. An experiment's
// conditions look theirs up many times, most of them the specification's:
// those are found without building the serving scenarios' definitions.
func findScenario(name string) (scenarioDef, bool) {
	for _, defs := range []func() []scenarioDef{specScenarios, servingScenarios} {
		for _, d := range defs() {
			if d.name == name {
				return d, true
			}
		}
	}
	return scenarioDef{}, false
}

// ScenarioEntry is a built-in scenario's record in the registry, which
// every list of scenarios is read from: --scenario, lab.Named, lab's
// functions and the docs.
type ScenarioEntry struct {
	Name   string // the name of --scenario, records and lab.Named
	Family string // one of ScenarioFamilies
	About  string // what it shows, in a few words
	// LabFunc is the lab function that makes it (lab.KVPressure for
	// "kv-pressure"): its name spelled as a Go identifier.
	LabFunc string
	Rate    float64 // its usual arrival rate, req/s
}

// ScenarioFamilies are the families of built-in scenarios: the
// specification's four, and those of the serving model.
func ScenarioFamilies() []string { return []string{"specification", "serving"} }

// BuiltinScenarios lists the built-in scenarios' records, the
// specification's first.
func BuiltinScenarios() []ScenarioEntry {
	var out []ScenarioEntry
	for i, defs := range []func() []scenarioDef{specScenarios, servingScenarios} {
		for _, d := range defs() {
			out = append(out, ScenarioEntry{Name: d.name, Family: ScenarioFamilies()[i], About: d.about, LabFunc: d.lab, Rate: ScenarioRate(d.name)})
		}
	}
	return out
}

// ScenarioNames lists the built-in scenarios.
func ScenarioNames() []string {
	var out []string
	for _, d := range builtinScenarios() {
		out = append(out, d.name)
	}
	return out
}

// ScenarioAbout describes a built-in scenario in a few words.
func ScenarioAbout(name string) string {
	d, _ := findScenario(name)
	return d.about
}

// ScenarioRate is a built-in scenario's usual rate (req/s): DefaultRate for
// the specification's, a rate near the serving scenarios' capacity for
// theirs; 0 for an unknown name.
func ScenarioRate(name string) float64 {
	switch d, ok := findScenario(name); {
	case !ok:
		return 0
	case d.rate > 0:
		return d.rate
	}
	return DefaultRate
}

// BuiltinScenario returns a built-in scenario at the given rate (req/s) and
// heterogeneity.
func BuiltinScenario(name string, rate float64, h Heterogeneity) (Scenario, error) {
	speeds, err := h.Speeds()
	if err != nil {
		return Scenario{}, err
	}
	if d, ok := findScenario(name); ok {
		s := NewScenario(name)
		s.Rate = rate
		s.Speeds = speeds
		s.Events = slices.Clone(d.events)
		if d.serving != nil {
			d.serving(&s)
		}
		return s, s.Validate(DefaultWarmup + DefaultMeasure)
	}
	return Scenario{}, UnknownName("scenario", name, ScenarioNames(), "")
}

// Replicas is the number of replicas.
func (s *Scenario) Replicas() int { return len(s.Speeds) }

// Traffic describes the arrivals for people: "100 req/s", "100 req/s
// periodic" or "a trace of 1239 requests".
func (s *Scenario) Traffic() string {
	switch s.Arrivals {
	case Replay:
		return fmt.Sprintf("a trace of %d requests", len(s.Trace))
	case Periodic:
		return fmt.Sprintf("%g req/s periodic", s.Rate)
	}
	return fmt.Sprintf("%g req/s", s.Rate)
}

// Cluster describes the replicas for people: "1 replica", "3 replicas".
func (s *Scenario) Cluster() string {
	if len(s.Speeds) == 1 {
		return "1 replica"
	}
	return fmt.Sprintf("%d replicas", len(s.Speeds))
}

// sortedEvents returns the events in time order (stable, so events at the
// same time apply in the order given).
func (s *Scenario) sortedEvents() []Event {
	ev := slices.Clone(s.Events)
	slices.SortStableFunc(ev, func(a, b Event) int { return cmpFloat(a.At, b.At) })
	return ev
}

// Validate checks every field; horizon (ms) bounds event times.
func (s *Scenario) Validate(horizon float64) error {
	if s.Arrivals != Replay {
		if err := checkUpTo("rate_rps", s.Rate, MaxRate); err != nil {
			return err
		}
	}
	if len(s.Speeds) < 1 || len(s.Speeds) > MaxReplicas {
		return fieldErr("replicas", len(s.Speeds), fmt.Sprintf("1 to %d replicas (one speed each)", MaxReplicas))
	}
	for i, v := range s.Speeds {
		if err := checkUpTo(fmt.Sprintf("speeds_ms[%d]", i), v, MaxMs); err != nil {
			return err
		}
	}
	if s.QueueCap < 1 || s.QueueCap > MaxQueueCap {
		return fieldErr("queue_cap", s.QueueCap, fmt.Sprintf("an integer from 1 to %d", MaxQueueCap))
	}
	if err := checkRange("jitter", s.Jitter, 0, 0.99); err != nil {
		return err
	}
	if err := s.validateArrivals(); err != nil {
		return err
	}
	if err := s.Demand.validate(); err != nil {
		return err
	}
	for i, e := range s.Events {
		if err := s.validateEvent(fmt.Sprintf("events[%d]", i), e, horizon); err != nil {
			return err
		}
	}
	if s.Serving != nil {
		return s.Serving.validate(s)
	}
	return nil
}

func (s *Scenario) validateArrivals() error {
	switch s.Arrivals {
	case Poisson, Periodic:
		return nil
	case Replay:
		if len(s.Trace) == 0 {
			return fieldErr("trace", "empty", "at least one request when arrivals is trace")
		}
		for i, r := range s.Trace {
			if !finite(r.At) || r.At < 0 || (i > 0 && r.At < s.Trace[i-1].At) {
				return fieldErr(fmt.Sprintf("trace[%d].arrival_ms", i), r.At, "finite, >= 0 and non-decreasing")
			}
			if err := r.check(fmt.Sprintf("trace[%d]", i)); err != nil {
				return err
			}
		}
		return nil
	}
	return fieldErr("arrivals", string(s.Arrivals), "poisson, periodic or trace")
}

func (s *Scenario) validateEvent(field string, e Event, horizon float64) error {
	if !finite(e.At) || e.At < 0 || e.At > horizon {
		return fieldErr(field+".at_ms", e.At, fmt.Sprintf("a time within the run, 0 to %g ms", horizon))
	}
	switch e.Kind {
	case EventSetRate, EventScaleRate:
		if s.Arrivals == Replay {
			return fieldErr(field+".kind", string(e.Kind), "no rate events when replaying a trace")
		}
		if e.Kind == EventScaleRate {
			return checkUpTo(field+".value", e.Value, MaxRate/math.Max(s.Rate, 1))
		}
		return checkUpTo(field+".value", e.Value, MaxRate)
	case EventSlow:
		if err := checkUpTo(field+".value", e.Value, MaxFactor); err != nil {
			return err
		}
	case EventRestore, EventFail, EventRecover:
	default:
		return fieldErr(field+".kind", string(e.Kind), "set-rate, scale-rate, slow, restore, fail or recover")
	}
	if e.Replica < 1 || e.Replica > len(s.Speeds) {
		return fieldErr(field+".replica", e.Replica, fmt.Sprintf("a replica id from 1 to %d", len(s.Speeds)))
	}
	return nil
}
