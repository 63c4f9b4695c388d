// Script two routing policies — a cost function and a whole-view picker —
// and check them against the built-ins with paired per-seed differences.
//
//	routelab exec examples/custom-policy/main.go
//	go run ./examples/custom-policy
//
// Files are written to $ROUTELAB_OUT, or ./routelab-out.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/routelab/routelab/lab"
)

// residualWait counts the request in service as half done: a cost function
// is called for every eligible replica and the lowest cost wins (ties go to
// the lowest id).
var residualWait = lab.Policy("residual-wait", func(r lab.Replica) float64 {
	return (float64(r.Waiting) + 0.5*float64(r.InFlight) + 1) * r.ServiceEWMA
})

// idleFirst sees the whole view once per decision (the cheapest way to
// script a policy): any idle replica beats every busy one, the fastest idle
// one by its service-time estimate; with none idle it routes like Latency
// Aware.
var idleFirst = lab.Picker("idle-first", func(v *lab.View) int {
	best, bestCost, bestIdle := 0, 0.0, false
	for _, r := range v.Eligible {
		idle := r.Outstanding == 0
		cost := float64(r.Outstanding+1) * r.ServiceEWMA
		better := best == 0 || (idle && !bestIdle) || (idle == bestIdle && cost < bestCost)
		if better {
			best, bestCost, bestIdle = r.ID, cost, idle
		}
	}
	return best
})

func main() {
	scn := lab.Straggler().Rate(150)
	res := lab.Compare(scn, lab.LeastQueue(), lab.LatencyAware(), residualWait, idleFirst)
	fmt.Println(res)

	// Seed by seed, both policies served the very same requests (common
	// random numbers), so each difference is the policy's effect alone.
	paired("latency-aware", "idle-first", res)
	paired("latency-aware", "residual-wait", res)

	// The same differences summed up: per metric the mean over seeds, its
	// 95 % interval and the seeds each side won.
	idle := res.Paired("latency-aware", "idle-first")
	fmt.Println(idle)

	path := filepath.Join(outDir(), "paired-idle-first.svg")
	idle.Chart().Save(path)
	fmt.Println("wrote", path)
}

// paired prints b − a per seed in p99 and attainment, and how often b won.
func paired(a, b string, res *lab.Comparison) {
	ra, rb := res.Runs(a), res.Runs(b)
	fmt.Printf("%s − %s, per seed:\n", b, a)
	fmt.Println("  seed   Δp99 ms   Δattainment")
	lower, higher := 0, 0
	for i := range ra {
		dp99 := rb[i].Latency.P99 - ra[i].Latency.P99
		datt := 100 * (rb[i].Attainment - ra[i].Attainment)
		if dp99 < 0 {
			lower++
		}
		if datt > 0 {
			higher++
		}
		fmt.Printf("  %4d  %+8.1f  %+8.2f pp\n", ra[i].Seed, dp99, datt)
	}
	fmt.Printf("  %s had the lower p99 in %d of %d seeds and the higher attainment in %d\n\n", b, lower, len(ra), higher)
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
