// A scripted policy's cost must be a float64: Outstanding is an int.
package main

import "github.com/routelab/routelab/lab"

func main() {
	p := lab.Policy("p", func(r lab.Replica) float64 { return r.Outstanding + 1 })
	_ = p
}
