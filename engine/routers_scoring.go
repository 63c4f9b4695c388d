package engine

import (
	"fmt"
	"math"
	"strings"

	"github.com/routelab/routelab/internal/xmath"
)

// Scorer is one scoring plugin of a ScoringProfile, as llm-d's endpoint
// picker composes them: each scorer gives every candidate replica a score
// from 0 to 1 (higher is better), and the profile picks the candidate with
// the largest weighted sum. Weight must be finite and >= 0.
type Scorer struct {
	Name   string
	Weight float64
	// New makes the scorer's function for one run (state, if any, lives in
	// its closure).
	New func(env PolicyEnv) (ScoreFunc, error)
}

// ScoreFunc writes each candidate's score (cands[i] → out[i]) for the
// request of v; a score outside [0, 1] is clamped, and NaN is an error.
type ScoreFunc func(v *View, cands []Replica, out []float64) error

// stateless makes a Scorer of a function that needs nothing per run.
func stateless(name string, w float64, f ScoreFunc) Scorer {
	return Scorer{Name: name, Weight: w, New: func(PolicyEnv) (ScoreFunc, error) { return f, nil }}
}

// QueueScorer is llm-d's queue-scorer: the waiting queue, min–max
// normalised over the candidates, (max − q)/(max − min), and 1 for every
// candidate when all queues are equal (llm-d-router
// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go).
func QueueScorer(w float64) Scorer { return stateless("queue", w, queueScore) }

func queueScore(_ *View, cands []Replica, out []float64) error {
	lo, hi := math.MaxInt, math.MinInt
	for _, r := range cands {
		lo, hi = min(lo, r.Waiting), max(hi, r.Waiting)
	}
	for i, r := range cands {
		out[i] = 1
		if hi > lo {
			out[i] = float64(hi-r.Waiting) / float64(hi-lo)
		}
	}
	return nil
}

// KVScorer is llm-d's kv-cache-utilization-scorer: 1 − the fraction of KV
// blocks in use (llm-d-router scorer/kvcacheutilization/README.md).
func KVScorer(w float64) Scorer {
	return stateless("kv", w, func(_ *View, cands []Replica, out []float64) error {
		for i, r := range cands {
			out[i] = 1 - r.KVUtil
		}
		return nil
	})
}

// PrefixScorer is llm-d's prefix-cache-scorer with its default
// prefixLengthWeight 0: the fraction of the request's prompt the replica
// holds (llm-d-router scorer/prefix/README.md counts it in blocks; routelab
// in tokens).
func PrefixScorer(w float64) Scorer {
	return stateless("prefix", w, func(v *View, cands []Replica, out []float64) error {
		for i := range cands {
			out[i] = prefixShare(v, &cands[i])
		}
		return nil
	})
}

// LoadScorer is llm-d's load-aware scorer: 0.5 for an empty queue, else
// 0.5·(1 − min(q, 128)/128) for q waiting requests.
func LoadScorer(w float64) Scorer {
	return stateless("load", w, func(_ *View, cands []Replica, out []float64) error {
		for i, r := range cands {
			out[i] = 0.5
			if r.Waiting > 0 {
				out[i] = xmath.Mul(0.5, 1-float64(min(r.Waiting, 128))/128)
			}
		}
		return nil
	})
}

// prefixShare is the fraction of the request's prompt the replica holds in
// its prefix cache, by the router's index (0 without a prompt).
func prefixShare(v *View, r *Replica) float64 {
	if v.Request.PromptTokens <= 0 {
		return 0
	}
	return min(1, float64(r.PrefixHitTokens)/float64(v.Request.PromptTokens))
}

// ScoringProfile is a router composed of scorers, as an llm-d scheduling
// profile: an optional prefix-affinity filter narrows the candidates, the
// scorers score them, and the largest weighted sum wins, ties drawn at random
// (llm-d's max-score picker). Shed adds llm-d's probabilistic admitter.
type ScoringProfile struct {
	Name    string
	Kind    PolicyKind // BuiltinPolicy for the registry's; empty means ScorerPolicy
	Scorers []Scorer
	// Affinity, when > 0, keeps only the candidates whose prefix score
	// (PrefixScorer's) is at least Affinity, unless none is; the filter is
	// skipped with probability Explore (llm-d's prefix-cache-affinity-filter,
	// affinityThreshold and explorationProbability).
	Affinity, Explore float64
	// Shed refuses sheddable requests with probability min(sat⁵·300, 1),
	// sat the pool's saturation (see SaturationOf): llm-d's
	// probabilistic-admitter with its defaults.
	Shed bool
}

// ScorerPolicy is the kind of a policy composed of scorers in a cell.
const ScorerPolicy PolicyKind = "scorers"

// Validate checks the weights and the filter: a clear error names the bad
// value and what is allowed.
func (p ScoringProfile) Validate() error {
	if len(p.Scorers) == 0 {
		return fieldErr("scorers", 0, "at least one scorer")
	}
	for i, s := range p.Scorers {
		if s.Name == "" || s.New == nil {
			return fieldErr(fmt.Sprintf("scorers[%d]", i), s.Name, "a scorer with a name and a function")
		}
		if !finite(s.Weight) || s.Weight < 0 {
			return fieldErr(fmt.Sprintf("scorers[%d].weight", i), s.Weight, fmt.Sprintf("a finite number >= 0 (the weight of scorer %q)", s.Name))
		}
	}
	if !finite(p.Affinity) || p.Affinity < 0 || p.Affinity > 1 {
		return fieldErr("affinity", p.Affinity, "a number from 0 (no filter) to 1")
	}
	if !finite(p.Explore) || p.Explore < 0 || p.Explore > 1 {
		return fieldErr("explore", p.Explore, "a probability from 0 to 1")
	}
	return nil
}

// Spec makes the profile a policy.
func (p ScoringProfile) Spec() PolicySpec {
	kind := p.Kind
	if kind == "" {
		kind = ScorerPolicy
	}
	var params []PolicyParam
	for _, s := range p.Scorers {
		params = append(params, PolicyParam{Name: s.Name, Value: s.Weight, About: "weight of the " + s.Name + " scorer"})
	}
	if p.Affinity > 0 {
		params = append(params, PolicyParam{Name: "affinity", Value: p.Affinity, About: "prefix score a candidate needs to pass the filter"},
			PolicyParam{Name: "explore", Value: p.Explore, About: "probability of skipping the filter"})
	}
	prof := p
	prof.Scorers = append([]Scorer(nil), p.Scorers...)
	return PolicySpec{Name: p.Name, Kind: kind, Params: params, New: func(env PolicyEnv) (Policy, error) {
		if err := prof.Validate(); err != nil {
			return nil, err
		}
		s := &scoring{prof: prof, rng: env.Rand, fns: make([]ScoreFunc, len(prof.Scorers)),
			cands: make([]Replica, 0, env.Replicas), score: make([]float64, env.Replicas), total: make([]float64, env.Replicas)}
		for i, sc := range prof.Scorers {
			f, err := sc.New(env)
			if err != nil {
				return nil, err
			}
			if f == nil {
				return nil, fieldErr(fmt.Sprintf("scorers[%d]", i), sc.Name, "a scorer whose New makes a function")
			}
			s.fns[i] = f
		}
		if prof.Shed {
			return &shedding{scoring: s}, nil
		}
		return s, nil
	}}
}

// ComposedName is the name of a composition: scorers(queue=2,kv=2,prefix=3).
func ComposedName(scorers []Scorer) string {
	parts := make([]string, len(scorers))
	for i, s := range scorers {
		parts[i] = fmt.Sprintf("%s=%g", s.Name, s.Weight)
	}
	return "scorers(" + strings.Join(parts, ",") + ")"
}

type scoring struct {
	prof         ScoringProfile
	rng          *Rand
	fns          []ScoreFunc
	cands        []Replica
	score, total []float64
}

func (s *scoring) Pick(v *View) (int, error) {
	cands := v.Eligible
	if s.prof.Affinity > 0 && s.rng.Float64() >= s.prof.Explore {
		s.cands = s.cands[:0]
		for i := range v.Eligible {
			if prefixShare(v, &v.Eligible[i]) >= s.prof.Affinity {
				s.cands = append(s.cands, v.Eligible[i])
			}
		}
		if len(s.cands) > 0 {
			cands = s.cands
		}
	}
	total := s.total[:len(cands)]
	clear(total)
	for k, f := range s.fns {
		out := s.score[:len(cands)]
		if err := f(v, cands, out); err != nil {
			return 0, err
		}
		for i, x := range out {
			if math.IsNaN(x) {
				return 0, fmt.Errorf("scorer %q gave NaN for replica %d (a score is a number from 0 to 1)", s.prof.Scorers[k].Name, cands[i].ID)
			}
			total[i] += xmath.Mul(s.prof.Scorers[k].Weight, min(1, max(0, x)))
		}
	}
	best, ties := math.Inf(-1), 0
	for _, t := range total {
		switch {
		case t > best:
			best, ties = t, 1
		case t == best:
			ties++
		}
	}
	pick := 0
	if ties > 1 {
		pick = s.rng.Intn(ties)
	}
	for i, t := range total {
		if t == best {
			if pick == 0 {
				return cands[i].ID, nil
			}
			pick--
		}
	}
	return cands[0].ID, nil
}

func (s *scoring) Observe(int, float64) {}

// shedding is a scoring profile with llm-d's probabilistic admitter.
type shedding struct{ *scoring }

// Admit always admits critical and standard requests; a sheddable one is
// refused with probability min(sat⁵·300, 1).
func (s *shedding) Admit(v *View) bool {
	if v.Request.Priority != Sheddable {
		return true
	}
	return s.rng.Float64() >= ShedProbability(SaturationOf(v))
}

// Saturation thresholds of llm-d's utilization detector and admitter
// defaults (llm-d-router flowcontrol/saturationdetector/utilization and
// requestcontrol/admitter/probabilisticadmitter READMEs).
const (
	SaturationQueue   = 5     // waiting requests at which a replica counts as full
	SaturationKV      = 0.8   // KV fraction at which a replica counts as full
	SaturationStaleMs = 200.0 // metrics older than this count as saturated
	ShedPower         = 5.0
	ShedK             = 300.0
)

// SaturationOf is llm-d's pool saturation: the mean over healthy replicas of
// max(waiting/5, KV/0.8), a replica whose signals are older than 200 ms
// counting as 1. A pool with no healthy replica is 0 (admit).
func SaturationOf(v *View) float64 {
	sum, n := 0.0, 0
	for _, r := range v.Replicas {
		if !r.Healthy {
			continue
		}
		s := max(float64(r.Waiting)/SaturationQueue, r.KVUtil/SaturationKV)
		if r.SignalAgeMs > SaturationStaleMs {
			s = 1
		}
		sum += s
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// ShedProbability is the admitter's refusal probability at saturation sat:
// min(sat⁵·300, 1).
func ShedProbability(sat float64) float64 {
	return min(1, xmath.Mul(math.Pow(sat, ShedPower), ShedK))
}

// LLMD is the llm-d endpoint picker's default scheduling profile: the queue
// scorer with weight 2, the KV-cache utilisation scorer with weight 2 and
// the prefix-cache scorer with weight 3, the highest sum winning and ties
// drawn at random (llm-d/llm-d-inference-scheduler
// pkg/epp/config/loader/defaults.go). On the specification's model (no
// KV, no prefixes) it routes to the shortest waiting queue, ties at random.
func LLMD() PolicySpec {
	return ScoringProfile{Name: "llm-d", Kind: BuiltinPolicy, Scorers: llmdScorers()}.Spec()
}

func llmdScorers() []Scorer { return []Scorer{QueueScorer(2), KVScorer(2), PrefixScorer(3)} }

// LLMDAffinity puts llm-d's prefix-cache-affinity filter in front of its
// load scorers (queue 2, KV 2): only candidates whose prefix score is at
// least 0.80 stay, unless none does, and the filter is skipped with
// probability 0.01 (the README's example configuration). The README warns
// against a weighted prefix scorer after the filter, so there is none; its
// TTFT load gate is left out (see docs/routers.md).
func LLMDAffinity() PolicySpec {
	return ScoringProfile{Name: "llm-d-affinity", Kind: BuiltinPolicy, Scorers: []Scorer{QueueScorer(2), KVScorer(2)}, Affinity: 0.8, Explore: 0.01}.Spec()
}

// LLMDShed is llm-d's default profile with its probabilistic admitter:
// sheddable requests are refused with probability min(sat⁵·300, 1), sat the
// pool's saturation (SaturationOf); critical and standard requests are
// always admitted.
func LLMDShed() PolicySpec {
	return ScoringProfile{Name: "llm-d-shed", Kind: BuiltinPolicy, Scorers: llmdScorers(), Shed: true}.Spec()
}
