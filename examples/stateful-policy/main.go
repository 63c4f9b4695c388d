// A stateful scripted policy: Latency Aware plus probes. Greedy routing
// stops sending to a replica once it looks slow, so it may never notice the
// replica recover; this policy remembers when it last sent each replica a
// request and sends an idle replica one request whenever that was longer
// than probeMs ago.
//
//	routelab exec examples/stateful-policy/main.go
//	go run ./examples/stateful-policy
//
// Files are written to $ROUTELAB_OUT, or ./routelab-out.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/routelab/routelab/lab"
)

// probeMs is how long a replica may go without traffic before it is probed.
const probeMs = 250

// probing builds fresh state for every run: lab.Stateful calls the function
// once per run, so seeds and policies never share it.
func probing() lab.Hooks {
	lastSent := map[int]float64{} // replica id -> simulated time of its last request (ms)
	pick := func(v *lab.View) int {
		for _, r := range v.Eligible {
			if r.Outstanding == 0 && v.Now-lastSent[r.ID] >= probeMs {
				lastSent[r.ID] = v.Now
				return r.ID
			}
		}
		best, bestCost := 0, 0.0
		for _, r := range v.Eligible {
			cost := float64(r.Outstanding+1) * r.ServiceEWMA
			if best == 0 || cost < bestCost {
				best, bestCost = r.ID, cost
			}
		}
		lastSent[best] = v.Now
		return best
	}
	return lab.Hooks{Pick: pick} // Observe (each completion's replica and service time) is optional
}

func main() {
	probe := lab.Stateful("latency-aware+probes", probing)

	// The fastest replica is slowed ×5 for five seconds and then restored;
	// the cohort is the 10 s after the recovery, at a light 30 req/s.
	recovery := lab.NewScenario("recovery").Rate(30).
		At(1, lab.Slow(1, 5)).
		At(6, lab.Restore(1)).
		Warmup(6).Measure(10)
	res := lab.Compare(recovery, lab.LatencyAware(), lab.Adaptive(), probe)
	fmt.Println(res)

	fmt.Println("share of requests sent to replica 1 (the fastest) after its recovery, per seed:")
	for _, p := range res.Policies {
		fmt.Printf("  %-22s", p.Name)
		for _, r := range p.Runs {
			fmt.Printf(" %.2f", float64(r.PerReplica[0].Assigned)/float64(r.Cohort))
		}
		fmt.Println()
	}
	fmt.Println()

	// The probes cost little where the built-ins already do well.
	fmt.Println(lab.Compare(lab.Straggler(), lab.LatencyAware(), lab.Adaptive(), probe))

	// Seed 5 is one where Latency Aware never returns to replica 1.
	path := filepath.Join(outDir(), "recovery-seed5.html")
	lab.Run(recovery, probe, 5).Timeline().Save(path)
	fmt.Println("wrote", path)
}

// outDir is where the example writes its files: $ROUTELAB_OUT, else
// routelab-out in the current directory (never the repository itself),
// created if missing.
func outDir() string {
	dir := os.Getenv("ROUTELAB_OUT")
	if dir == "" {
		dir = "routelab-out"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "cannot create the output directory:", err)
		os.Exit(1)
	}
	return dir
}
