// Build your own incident timeline — a traffic surge, a degraded replica, a
// crash and the recovery — compare the policies through it and save one
// run's timeline figure.
//
//	routelab exec examples/incident/main.go
//	go run ./examples/incident
//
// Files are written to $ROUTELAB_OUT, or ./routelab-out.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/routelab/routelab/lab"
)

func main() {
	// Times are seconds of simulated time; replicas are numbered from 1 and
	// run at 8/11/16 ms for the reference request.
	incident := lab.NewScenario("incident").Rate(120).
		At(5, lab.ScaleRate(1.5)).              // a surge: 180 req/s
		At(6, lab.Slow(2, 3)).                  // replica 2 degrades to a third of its speed
		At(8, lab.Fail(1)).                     // the fastest replica crashes; its queue is re-routed
		At(10, lab.Recover(1), lab.Restore(2)). // both come back
		At(12, lab.ScaleRate(1)).               // the surge ends
		Seeds(5)
	fmt.Println(incident)
	fmt.Println()

	res := lab.Compare(incident, lab.RoundRobin(), lab.LeastQueue(), lab.LatencyAware(), lab.Adaptive())
	fmt.Println(res)

	// One run in detail: queues, rolling p99, throughput and assignment
	// shares over time, with the incident's events marked.
	run := lab.Run(incident, lab.Adaptive(), 1)
	fmt.Println(run)
	for _, r := range run.PerReplica {
		fmt.Printf("  replica %d: %4d assigned, %4d completed\n", r.ID, r.Assigned, r.Completed)
	}

	dir := outDir()
	html := filepath.Join(dir, "incident-timeline.html")
	svg := filepath.Join(dir, "incident-timeline.svg")
	timeline := run.Timeline()
	timeline.Save(html) // interactive, zoomable, works offline
	timeline.Save(svg)  // static, for a write-up
	fmt.Println("wrote", html, "and", svg)
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
