package lab

import (
	"fmt"
	"math"
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

// Option tunes a built-in policy.
type Option func(*engine.AdaptiveParams)

// C sets Adaptive's exploration weight (default 0.35).
func C(c float64) Option { return func(p *engine.AdaptiveParams) { p.C = c } }

// Alpha sets the EWMA weight of the newest observation (default 0.15).
func Alpha(a float64) Option { return func(p *engine.AdaptiveParams) { p.Alpha = a } }

// Ceiling sets Adaptive's reward ceiling L in ms (default 100).
func Ceiling(ms float64) Option { return func(p *engine.AdaptiveParams) { p.Ceiling = ms } }

func params(opts []Option) engine.AdaptiveParams {
	p := engine.DefaultAdaptiveParams()
	for _, o := range opts {
		o(&p)
	}
	return p
}

// RoundRobin cycles a cursor over the eligible replicas.
func RoundRobin() PolicySpec { return engine.RoundRobin() }

// LeastQueue picks the fewest outstanding requests (waiting + in flight).
func LeastQueue() PolicySpec { return engine.LeastQueue() }

// LatencyAware minimises (outstanding + 1) × EWMA service time; Alpha tunes it.
func LatencyAware(opts ...Option) PolicySpec { return engine.LatencyAware(params(opts).Alpha) }

// Adaptive is the specification's UCB-inspired policy; C, Alpha and Ceiling
// tune it.
func Adaptive(opts ...Option) PolicySpec { return engine.Adaptive(params(opts)) }

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
func Policy(name string, cost func(r Replica) float64) PolicySpec {
	var mu sync.Mutex
	return PolicySpec{Name: name, New: func(engine.PolicyEnv) (engine.Policy, error) {
		if cost == nil {
			return nil, fmt.Errorf("no cost function given")
		}
		return &costPolicy{cost: cost, mu: &mu}, nil
	}}
}

type costPolicy struct {
	cost func(Replica) float64
	mu   *sync.Mutex
}

func (p *costPolicy) Pick(v *View) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
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
// is the fastest way to script a policy.
func Picker(name string, pick func(v *View) int) PolicySpec {
	return scripted(name, func() Hooks { return Hooks{Pick: pick} })
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
func Stateful(name string, newHooks func() Hooks) PolicySpec { return scripted(name, newHooks) }

// scripted wraps user hooks. Scripted code may not be safe to run from
// several goroutines at once, so calls into it are serialised (runs of a
// comparison still proceed in parallel; results do not depend on it).
func scripted(name string, newHooks func() Hooks) PolicySpec {
	var mu sync.Mutex
	return PolicySpec{Name: name, New: func(env engine.PolicyEnv) (engine.Policy, error) {
		if newHooks == nil {
			return nil, fmt.Errorf("no policy function given")
		}
		mu.Lock()
		h := newHooks()
		mu.Unlock()
		if h.Pick == nil {
			return nil, fmt.Errorf("its Hooks have no Pick function")
		}
		return &hooked{h: h, mu: &mu}, nil
	}}
}

type hooked struct {
	h  Hooks
	mu *sync.Mutex
}

func (p *hooked) Pick(v *View) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.h.Pick(v), nil
}

func (p *hooked) Observe(id int, s float64) {
	if p.h.Observe == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.h.Observe(id, s)
}
