package lab

import (
	"sync"

	"github.com/routelab/routelab/engine"
)

// Scorer is one scoring plugin of a composed router (see Scorers): a name,
// a weight and a score from 0 to 1 for each candidate replica, higher
// better.
type Scorer = engine.Scorer

// Scorers composes scorers into a router, as llm-d composes its plugins:
// each candidate's weighted sum of scores, the largest winning, ties drawn
// at random from the run's policy stream. The built-ins are QueueScore,
// KVScore, PrefixScore and LoadScore; lab.Score makes one from a function
// in a cell:
//
//	func myScore(w float64) lab.Scorer {
//		return lab.Score("short-prompt", w, func(v *lab.View, r lab.Replica) float64 {
//			return 1 / (1 + float64(r.TokensInFlight)/4096)
//		})
//	}
//	lab.Scorers(lab.QueueScore(2), lab.KVScore(2), lab.PrefixScore(3), myScore(1))
//
// With the weights 2, 2 and 3 and no other scorer it routes exactly as the
// built-in "llm-d"; its name lists the scorers and weights.
func Scorers(scorers ...Scorer) PolicySpec {
	prof := engine.ScoringProfile{Name: engine.ComposedName(scorers), Scorers: scorers}
	if err := prof.Validate(); err != nil {
		fail("lab.Scorers", err)
	}
	return prof.Spec()
}

// checkWeight refuses a weight that is NaN, infinite or negative.
func checkWeight(op string, w float64) {
	check(op, finite(w) && w >= 0, "weight", w, "a finite number >= 0")
}

// QueueScore is llm-d's queue scorer with weight w: the waiting queue,
// min–max normalised over the candidates (the shortest 1, the longest 0;
// all 1 when equal).
func QueueScore(w float64) Scorer {
	checkWeight("lab.QueueScore", w)
	return engine.QueueScorer(w)
}

// KVScore is llm-d's KV-cache utilisation scorer with weight w: 1 − the
// fraction of KV blocks in use (1 on the specification's model).
func KVScore(w float64) Scorer {
	checkWeight("lab.KVScore", w)
	return engine.KVScorer(w)
}

// PrefixScore is llm-d's prefix-cache scorer with weight w: the fraction of
// the prompt the replica holds, by the router's index (0 without a prompt).
func PrefixScore(w float64) Scorer {
	checkWeight("lab.PrefixScore", w)
	return engine.PrefixScorer(w)
}

// LoadScore is llm-d's load-aware scorer with weight w: 0.5 for an empty
// waiting queue, else 0.5·(1 − min(q, 128)/128).
func LoadScore(w float64) Scorer {
	checkWeight("lab.LoadScore", w)
	return engine.LoadScorer(w)
}

// Score makes a scorer of a function written in a cell: score(v, r) is
// replica r's score for the request of v, from 0 to 1 (clamped; NaN stops
// the run with an error naming the scorer and the replica). Outside a
// session; see Env.Score.
func Score(name string, w float64, score func(v *View, r Replica) float64) Scorer {
	return Background().Score(name, w, score)
}

// Score makes a scorer whose calls run through e (see Env.Policy).
func (e *Env) Score(name string, w float64, score func(v *View, r Replica) float64) Scorer {
	check("lab.Score", name != "", "name", name, "a non-empty scorer name")
	check("lab.Score", score != nil, "score", word("nil"), "a function")
	checkWeight("lab.Score", w)
	var mu sync.Mutex
	return Scorer{Name: name, Weight: w, New: func(env engine.PolicyEnv) (engine.ScoreFunc, error) {
		call := e.caller(&mu, env.Rand)
		return func(v *View, cands []Replica, out []float64) error {
			call(func() {
				for i, r := range cands {
					out[i] = score(v, r)
				}
			})
			return nil
		}, nil
	}}
}
