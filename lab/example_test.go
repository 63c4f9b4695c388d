package lab_test

import (
	"fmt"

	"github.com/routelab/routelab/lab"
)

// A notebook's comparison outside a notebook: least-queue and adaptive on
// the straggler scenario, ten seeds each, and adaptive's median p99.
func ExampleCompare() {
	res := lab.Compare(lab.Named("straggler"), lab.LeastQueue(), lab.Adaptive())
	fmt.Printf("adaptive: median p99 %.1f ms over %d runs\n", res.Summary("adaptive").MedianP99, res.Summary("adaptive").Runs)
	// Output:
	// adaptive: median p99 48.7 ms over 10 runs
}
