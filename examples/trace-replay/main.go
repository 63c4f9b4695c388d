// Replay a recorded trace (arrival times and token counts) instead of the
// synthetic Poisson workload, and compare the policies on it.
//
//	routelab exec examples/trace-replay/main.go    # from the repository root
//	go run ./examples/trace-replay
//
// The trace is $ROUTELAB_TRACE, else trace.csv in the current directory,
// else examples/trace-replay/trace.csv. Files are written to $ROUTELAB_OUT,
// or the current directory.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/routelab/routelab/lab"
)

func main() {
	path := tracePath()
	// A trace fixes arrivals and token counts; each seed then varies only the
	// service-time jitter. The trace covers 10 s: warm up for 1 s and
	// measure the next 9.
	scn := lab.NewScenario("trace").Trace(path).Warmup(1).Measure(9).Seeds(5)
	fmt.Println(scn)
	fmt.Println()

	res := lab.Compare(scn, lab.RoundRobin(), lab.LeastQueue(), lab.LatencyAware(), lab.Adaptive())
	fmt.Println(res)

	out := filepath.Join(outDir(), "trace-replay.html")
	res.Save(out)
	fmt.Println("wrote", out)
}

// tracePath finds the trace: $ROUTELAB_TRACE, else trace.csv here, else the
// copy shipped with the example (when run from the repository root). A
// missing file is reported by lab with its path.
func tracePath() string {
	if p := os.Getenv("ROUTELAB_TRACE"); p != "" {
		return p
	}
	if _, err := os.Stat("trace.csv"); err == nil {
		return "trace.csv"
	}
	return filepath.Join("examples", "trace-replay", "trace.csv")
}

// outDir is where the example writes its files.
func outDir() string {
	if dir := os.Getenv("ROUTELAB_OUT"); dir != "" {
		return dir
	}
	return "."
}
