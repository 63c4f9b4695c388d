// Policies for the sharding tests: one of each scripted kind, one of them
// randomised (math/rand draws from the run's own generator, so a seed gives
// the same decisions in whichever shard it runs).
package main

import (
	"math/rand"

	"github.com/routelab/routelab/lab"
)

var residualWait = lab.Policy("residual-wait", func(r lab.Replica) float64 {
	return (float64(r.Waiting) + 0.5*float64(r.InFlight) + 1) * r.ServiceEWMA
})

var randomTwo = lab.Picker("random-two", func(v *lab.View) int {
	a := v.Eligible[rand.Intn(len(v.Eligible))]
	b := v.Eligible[rand.Intn(len(v.Eligible))]
	if b.Outstanding < a.Outstanding {
		return b.ID
	}
	return a.ID
})

var counting = lab.Stateful("least-served", func() lab.Hooks {
	served := map[int]int{}
	return lab.Hooks{
		Pick: func(v *lab.View) int {
			best := v.Eligible[0]
			for _, r := range v.Eligible {
				if served[r.ID]+r.Outstanding < served[best.ID]+best.Outstanding {
					best = r
				}
			}
			return best.ID
		},
		Observe: func(id int, ms float64) { served[id]++ },
	}
})
