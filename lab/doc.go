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
// Scenarios are immutable builders: each method returns a changed copy.
// Bad input is refused by the call that received it — a builder, an event,
// a policy option — by panicking with an *Error, which a cell shows as a
// ValueError naming the argument, its value and what is allowed. The
// functions that run the engine report errors the same way and, in a
// session, stop promptly when the cell is interrupted.
//
// Every value shows itself as text and HTML (show.go; engine values through
// their own String and HTML methods).
//
// Read first: scenario.go (the builder), policy.go (built-in and scripted
// policies, options), env.go (Compare, Run, Sweep, Study; progress.go their
// progress line in a notebook), results.go (what
// they return), paired.go (paired statistics of two policies), show.go (how
// it displays), errors.go (Error, which a cell shows as a ValueError, an
// Interrupted or a LabError); then routers.go (the production routers of LLM serving),
// scorers.go (Scorers: a router composed of weighted scoring plugins, as
// llm-d composes them), live.go (Live: a run shown as it advances and
// steered by later cells, replayable as a scenario) and livecontrols.go
// (its controls and recording), livewidgets.go (its controls as widgets in
// the notebook); widgets.go (Jupyter widgets: the session's hub and the
// models on their comms), controls.go (Slider, IntSlider, Dropdown,
// Toggle, Text, Button) and interact.go (Interact: a function rerun when
// its controls move).
package lab
