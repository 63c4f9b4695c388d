// The documented ways into a comparison's results.
package main

import (
	"fmt"

	"github.com/routelab/routelab/lab"
)

func main() {
	res := lab.Compare(lab.Steady().Seeds(2), lab.RoundRobin(), lab.Adaptive())
	p0 := res.Policies[0]
	fmt.Println(p0.Name)
	w := res.Policies[0].Name
	fmt.Println(w)
	r := res.Runs("adaptive")[0]
	fmt.Println(r.Seed, len(res.Policies))
}
