package engine

import (
	"math"
	"testing"
)

// A scoring profile is refused exactly when a weight is not a finite number
// >= 0 or the filter's threshold or probability is outside [0, 1]; an
// accepted one always picks an eligible replica, whatever the signals.
func FuzzScoringProfile(f *testing.F) {
	f.Add(2.0, 2.0, 3.0, 0.8, 0.01, 4, 0, 1000, 600, 0.5)
	f.Add(math.NaN(), 1.0, 1.0, 0.0, 0.0, 0, 0, 0, 0, 0.0)
	f.Add(1.0, -1.0, 0.0, 1.5, 0.0, 1, 2, 10, 20, 1.0)
	f.Fuzz(func(t *testing.T, wq, wk, wp, affinity, explore float64, waiting, running, prompt, hit int, kv float64) {
		prof := ScoringProfile{Name: "fuzz", Scorers: []Scorer{QueueScorer(wq), KVScorer(wk), PrefixScorer(wp)}, Affinity: affinity, Explore: explore, Shed: true}
		ok := func(w float64) bool { return finite(w) && w >= 0 }
		in01 := func(x float64) bool { return finite(x) && x >= 0 && x <= 1 }
		valid := ok(wq) && ok(wk) && ok(wp) && in01(affinity) && in01(explore)
		p, err := prof.Spec().New(PolicyEnv{Replicas: 3, Rand: NewRand(1, streamPolicy)})
		if (err == nil) != valid {
			t.Fatalf("weights %g %g %g, affinity %g, explore %g: error %v, want valid = %v", wq, wk, wp, affinity, explore, err, valid)
		}
		if err != nil {
			return
		}
		clampInt := func(x, hi int) int { return min(max(x, 0), hi) }
		a := served(clampInt(waiting, 1000), clampInt(running, 64), kv, 0, clampInt(hit, 1<<20))
		b := served(0, 1, 0.5, 0, 0)
		v := withPrompt(view(a, b, Replica{}), clampInt(prompt, 1<<20))
		v.Request.Priority = Sheddable
		p.(Admitter).Admit(v)
		id, err := p.Pick(v)
		if math.IsNaN(kv) {
			return // a NaN signal is the engine's bug, not the profile's
		}
		if err != nil || (id != 1 && id != 2) {
			t.Fatalf("picked %d (%v), want an eligible replica", id, err)
		}
	})
}
