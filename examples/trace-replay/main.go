// Replay a recorded trace (arrival times and token counts) instead of the
// synthetic Poisson workload, and compare the policies on it.
//
//	routelab exec examples/trace-replay/main.go
//	go run ./examples/trace-replay
//
// The trace is $ROUTELAB_TRACE, else the trace.csv beside this file, found
// from any working directory. Files are written to $ROUTELAB_OUT, or
// ./routelab-out.
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

// tracePath finds the trace: $ROUTELAB_TRACE, else trace.csv beside this
// file. A missing file is reported by lab with its path.
func tracePath() string {
	if p := os.Getenv("ROUTELAB_TRACE"); p != "" {
		return p
	}
	return filepath.Join(exampleDir(), "trace.csv")
}

// exampleDir is the directory of this file, whatever the working directory:
// routelab exec passes the script's path as os.Args[0]; a compiled program
// has its binary there instead, and finds its source through sourceDir
// (source.go, which routelab exec does not read: a cell cannot use
// runtime.Caller). The first of the two that holds the trace wins.
func exampleDir() string {
	dirs := []string{filepath.Dir(os.Args[0])}
	if sourceDir != "" {
		dirs = append(dirs, sourceDir)
	}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "trace.csv")); err == nil {
			return dir
		}
	}
	return dirs[len(dirs)-1]
}

// sourceDir is the directory of the compiled program's source.
var sourceDir string

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
