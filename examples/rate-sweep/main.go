// The queueing hockey stick: sweep the arrival rate of the steady scenario
// up to the cluster's capacity and watch the tail latency bend upward.
//
//	routelab exec examples/rate-sweep/main.go
//	go run ./examples/rate-sweep
//
// Files are written to $ROUTELAB_OUT, or ./routelab-out.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/routelab/routelab/lab"
)

// meanDemandMs is the token model's mean demand at the reference speed
// (docs/model.md); a replica with mean s ms for the reference request
// serves about 1000/(meanDemandMs·s/11) requests per second.
const meanDemandMs = 11.005

func main() {
	speeds := []float64{8, 11, 16}
	capacity := 0.0
	for _, s := range speeds {
		capacity += 1000 / (meanDemandMs * s / 11)
	}
	// Round Robin gives every replica an equal share of the traffic, so the
	// slowest one saturates first.
	slowest := 1000 / (meanDemandMs * speeds[len(speeds)-1] / 11)
	fmt.Printf("replicas at %v ms: capacity about %.0f req/s; Round Robin saturates near %.0f req/s\n\n",
		speeds, capacity, float64(len(speeds))*slowest)

	scn := lab.Steady().Speeds(speeds...).Seeds(5)
	rates := []float64{50, 100, 150, 200, 225, 250, 265, 275}
	sweep := lab.Sweep(scn, rates, lab.RoundRobin(), lab.LeastQueue(), lab.LatencyAware(), lab.Adaptive())

	// One row per rate: each policy's median p99 (ms) across seeds.
	fmt.Printf("%-8s %-6s", "req/s", "load")
	for _, p := range sweep.Comparisons[0].Policies {
		fmt.Printf(" %14s", p.Name)
	}
	fmt.Println()
	for i, c := range sweep.Comparisons {
		rate := sweep.Points[i].X
		fmt.Printf("%-8g %-6.2f", rate, rate/capacity)
		for _, p := range c.Policies {
			fmt.Printf(" %14.1f", p.Summary.MedianP99)
		}
		fmt.Println()
	}
	fmt.Println("(median p99 latency across seeds, ms)")

	dir := outDir()
	html := filepath.Join(dir, "rate-sweep.html")
	svg := filepath.Join(dir, "rate-sweep.svg")
	chart := sweep.Chart()
	chart.Save(html)
	chart.Save(svg)
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
