package lab

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/routelab/routelab/engine"
)

// Replica is what a policy sees of one replica at a routing decision:
// queue state, health and statistics of completed requests — never a
// request's sampled service time.
type Replica = engine.Replica

// View is the router's picture of the cluster at one decision.
type View = engine.View

// PolicySpec names a policy and builds a fresh instance for every run.
type PolicySpec = engine.PolicySpec

// Option tunes a built-in policy: lab.C, lab.Alpha or lab.Ceiling. A policy
// takes only the options it reads (lab.LatencyAware takes lab.Alpha alone);
// any other option is refused, as silently ignoring it would mislead.
type Option struct {
	param optionParam
	value float64
}

type optionParam int

const (
	optC optionParam = iota + 1
	optAlpha
	optCeiling
)

// call is the function that makes an option of this parameter.
func (p optionParam) call() string {
	return [...]string{optC: "lab.C", optAlpha: "lab.Alpha", optCeiling: "lab.Ceiling"}[p]
}

// String is the call that made the option: lab.C(0.9).
func (o Option) String() string {
	if o.param == 0 {
		return "lab.Option{} (not made by lab.C, lab.Alpha or lab.Ceiling)"
	}
	return fmt.Sprintf("%s(%g)", o.param.call(), o.value)
}

func (o Option) set(p *engine.AdaptiveParams) {
	switch o.param {
	case optC:
		p.C = o.value
	case optAlpha:
		p.Alpha = o.value
	case optCeiling:
		p.Ceiling = o.value
	}
}

// newOption checks the value with the engine's own bounds, so a bad value
// fails where it was written.
func newOption(param optionParam, v float64) Option {
	o := Option{param, v}
	p := engine.DefaultAdaptiveParams()
	o.set(&p)
	if err := p.Validate(); err != nil {
		fail(param.call(), err)
	}
	return o
}

// C sets Adaptive's exploration weight (default 0.35; finite, >= 0).
func C(c float64) Option { return newOption(optC, c) }

// Alpha sets the EWMA weight of the newest observation (default 0.15; in
// (0, 1]).
func Alpha(a float64) Option { return newOption(optAlpha, a) }

// Ceiling sets Adaptive's reward ceiling L in ms (default 100; finite, > 0).
func Ceiling(ms float64) Option { return newOption(optCeiling, ms) }

// params applies opts to the defaults. An option the policy does not take,
// or one given twice, fails naming the options the policy takes.
func params(op, policy string, opts []Option, takes ...optionParam) engine.AdaptiveParams {
	p := engine.DefaultAdaptiveParams()
	var seen []optionParam
	for _, o := range opts {
		if !slices.Contains(takes, o.param) {
			fail(op, &engine.FieldError{Field: "option", Value: o, Allowed: "an option " + policy + " takes: " + callList(takes)})
		}
		if slices.Contains(seen, o.param) {
			fail(op, &engine.FieldError{Field: "option", Value: o, Allowed: "each option at most once"})
		}
		seen = append(seen, o.param)
		o.set(&p)
	}
	return p
}

// callList is "lab.C, lab.Alpha or lab.Ceiling".
func callList(ps []optionParam) string {
	calls := make([]string, len(ps))
	for i, p := range ps {
		calls[i] = p.call()
	}
	if len(calls) == 1 {
		return calls[0]
	}
	return strings.Join(calls[:len(calls)-1], ", ") + " or " + calls[len(calls)-1]
}

// RoundRobin cycles a cursor over the eligible replicas.
func RoundRobin() PolicySpec { return engine.RoundRobin() }

// LeastQueue picks the fewest outstanding requests (waiting + in flight).
func LeastQueue() PolicySpec { return engine.LeastQueue() }

// LatencyAware minimises (outstanding + 1) × EWMA service time; it takes
// lab.Alpha.
func LatencyAware(opts ...Option) PolicySpec {
	return engine.LatencyAware(params("lab.LatencyAware", "latency-aware", opts, optAlpha).Alpha)
}

// Adaptive is the specification's UCB-inspired policy; it takes lab.C,
// lab.Alpha and lab.Ceiling.
func Adaptive(opts ...Option) PolicySpec {
	return engine.Adaptive(params("lab.Adaptive", "adaptive", opts, optC, optAlpha, optCeiling))
}

// WeightedRR is smooth weighted round robin with weights 1/(EWMA service
// time): each replica gets its estimated service rate's share, interleaved;
// it takes lab.Alpha.
func WeightedRR(opts ...Option) PolicySpec {
	return engine.WeightedRoundRobin(params("lab.WeightedRR", "weighted-rr", opts, optAlpha).Alpha)
}

// Random picks uniformly among eligible replicas.
func Random() PolicySpec { return engine.Random() }

// P2C samples two eligible replicas and takes the less loaded.
func P2C() PolicySpec { return engine.PowerOfTwo() }

// Builtin returns a built-in policy by name.
func Builtin(name string) PolicySpec {
	p, err := engine.PolicyByName(name)
	if err != nil {
		fail("lab.Builtin", err)
	}
	return p
}

// Policy makes a policy from a cost function: every eligible replica is
// scored and the lowest cost wins, ties going to the lowest id. A cost that
// is NaN stops the run with an error naming the policy and the replica.
// Outside a session; see Env.Policy.
func Policy(name string, cost func(r Replica) float64) PolicySpec {
	return Background().Policy(name, cost)
}

// Policy makes a cost-function policy whose calls run through e (see
// Env.Callback): in a session, math/rand's top-level functions called by
// cost draw from the run's own generator.
func (e *Env) Policy(name string, cost func(r Replica) float64) PolicySpec {
	checkScripted("lab.Policy", name, "cost", cost == nil)
	var mu sync.Mutex
	return PolicySpec{Name: name, Kind: engine.CostPolicy, New: func(env engine.PolicyEnv) (engine.Policy, error) {
		return &costPolicy{name: name, cost: cost, call: e.caller(&mu, env.Rand)}, nil
	}}
}

// checkScripted refuses an empty name or a missing function when the policy
// is made, not when a comparison first runs it.
func checkScripted(op, name, fn string, missing bool) {
	check(op, name != "", "name", name, "a non-empty policy name")
	check(op, !missing, fn, word("nil"), "a function")
}

type costPolicy struct {
	name string
	cost func(Replica) float64
	call func(func())
}

func (p *costPolicy) Pick(v *View) (id int, err error) {
	p.call(func() { id, err = p.pick(v) })
	return id, err
}

func (p *costPolicy) pick(v *View) (int, error) {
	best, bestCost := 0, math.Inf(1)
	for _, r := range v.Eligible {
		c := p.cost(r)
		if math.IsNaN(c) {
			return 0, fmt.Errorf("cost function returned NaN for replica %d (outstanding %d, service EWMA %.3g ms)", r.ID, r.Outstanding, r.ServiceEWMA)
		}
		if best == 0 || c < bestCost {
			best, bestCost = r.ID, c
		}
	}
	return best, nil
}

func (p *costPolicy) Observe(int, float64) {}

// Picker makes a policy from a function that sees the whole view once per
// decision and returns the id of an eligible replica. One call per decision
// is the fastest way to script a policy. Outside a session; see Env.Picker.
func Picker(name string, pick func(v *View) int) PolicySpec { return Background().Picker(name, pick) }

// Picker makes a picker policy whose calls run through e (see Env.Policy).
func (e *Env) Picker(name string, pick func(v *View) int) PolicySpec {
	checkScripted("lab.Picker", name, "pick", pick == nil)
	return e.scripted(name, engine.PickerPolicy, func() Hooks { return Hooks{Pick: pick} })
}

// Hooks are a stateful policy's two functions: Pick chooses an eligible
// replica's id; Observe, optional, hears every completion (replica id and
// observed service time in ms).
type Hooks struct {
	Pick    func(v *View) int
	Observe func(replica int, serviceMs float64)
}

// Stateful makes a policy whose state lives in the closures newHooks
// returns; newHooks is called once per run, so runs never share state:
//
//	lab.Stateful("counting", func() lab.Hooks {
//		seen := map[int]int{}
//		return lab.Hooks{
//			Pick:    func(v *lab.View) int { return v.Eligible[0].ID },
//			Observe: func(id int, ms float64) { seen[id]++ },
//		}
//	})
func Stateful(name string, newHooks func() Hooks) PolicySpec {
	return Background().Stateful(name, newHooks)
}

// Stateful makes a stateful policy whose calls run through e (see
// Env.Policy).
func (e *Env) Stateful(name string, newHooks func() Hooks) PolicySpec {
	checkScripted("lab.Stateful", name, "newHooks", newHooks == nil)
	return e.scripted(name, engine.StatefulPolicy, newHooks)
}

// scripted wraps user hooks, made afresh for every run.
func (e *Env) scripted(name string, kind engine.PolicyKind, newHooks func() Hooks) PolicySpec {
	var mu sync.Mutex
	return PolicySpec{Name: name, Kind: kind, New: func(env engine.PolicyEnv) (engine.Policy, error) {
		call := e.caller(&mu, env.Rand)
		var h Hooks
		call(func() { h = newHooks() })
		if h.Pick == nil {
			return nil, fmt.Errorf("its Hooks have no Pick function")
		}
		return &hooked{name: name, h: h, call: call}, nil
	}}
}

// caller runs the calls of one run of a scripted policy. Scripted code may
// not be safe to run from several goroutines at once, so its calls are
// serialised: by the session's Callback, which also gives them the run's
// generator rng, or else by the policy's own mutex. Runs of a comparison
// still proceed in parallel; results do not depend on it.
func (e *Env) caller(mu *sync.Mutex, rng *engine.Rand) func(func()) {
	if e.Callback != nil {
		return func(f func()) { e.Callback(rng, f) }
	}
	return func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		f()
	}
}

type hooked struct {
	name string
	h    Hooks
	call func(func())
}

func (p *hooked) Pick(v *View) (id int, err error) {
	p.call(func() { id = p.h.Pick(v) })
	return id, nil
}

func (p *hooked) Observe(id int, s float64) {
	if p.h.Observe != nil {
		p.call(func() { p.h.Observe(id, s) })
	}
}
