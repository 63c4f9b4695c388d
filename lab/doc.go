// Package lab is the notebook face of routelab: a small, readable API over
// the engine for Go cells and scripts. Every dsl session has it without an
// import.
//
//	scn := lab.Straggler().Rate(150)
//	p2 := lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
//		return float64(r.Outstanding+1) * r.ServiceEWMA // lowest cost wins
//	})
//	res := lab.Compare(scn, lab.RoundRobin(), lab.LeastQueue(), lab.Adaptive(), p2)
//	res.Chart()
//
// Scenarios are immutable builders: each method returns a changed copy. The
// functions that run the engine report bad input by panicking with an
// *Error, which a cell shows as an error naming the bad value; in a session
// they also stop promptly when the cell is interrupted.
//
// Read first: scenario.go (the builder), policy.go (built-in and scripted
// policies), env.go (Compare, Run, Sweep, Study), results.go (what they
// return and how it displays).
package lab
