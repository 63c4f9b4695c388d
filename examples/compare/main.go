// Compare the built-in routing policies on the straggler scenario and save
// a standalone report (summary table and every figure, works offline).
//
//	routelab exec examples/compare/main.go   # through the notebook session
//	go run ./examples/compare                # as a compiled program
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
	// Replica 1 serves five times slower from 5 s to 10 s. The protocol is the
	// specification's: 10 seeds, 3 s warm-up, 12 s measured, 50 ms SLO.
	scn := lab.Straggler()
	fmt.Println(scn)
	fmt.Println()

	// Every policy sees the same workload for a given seed (common random
	// numbers), so the differences below come from routing alone.
	res := lab.Compare(scn, lab.RoundRobin(), lab.LeastQueue(), lab.LatencyAware(), lab.Adaptive(), lab.P2C())
	fmt.Println(res)

	// The summary's numbers are plain fields, ready for your own analysis.
	fmt.Println("median SLO attainment across seeds:")
	for _, p := range res.Policies {
		fmt.Printf("  %-14s %6.2f%%  (p99 %6.1f ms, seeds %.1f–%.1f ms)\n",
			p.Name, 100*p.Summary.MedianAttainment, p.Summary.MedianP99, p.Summary.P99Min, p.Summary.P99Max)
	}

	dir := outDir()
	report := filepath.Join(dir, "straggler.html")
	runs := filepath.Join(dir, "straggler.csv")
	res.Save(report) // the table and every figure of the comparison
	res.Save(runs)   // one row per policy and seed
	fmt.Println("wrote", report, "and", runs)
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
