// Package live runs a simulation as a live session: the engine's simulator
// advancing in dilated real time on its own goroutine (by default one real
// second shows 120 simulated ms), steered by controls — rate changes,
// bursts, slowdowns, failures, switches of policy — that take effect at the
// current simulated time exactly as the same events in a scenario's timeline
// would. A session records its controls, so Session.Scenario and
// Session.Policy replay it headless, byte for byte, and lab.Compare can
// compare policies on what a person just did.
//
// Read session.go (Start, the goroutine, pause and speed), control.go (the
// controls) and frame.go (what a view shows: a read-only picture built from
// the simulator's snapshot), then record.go (Recording: the session so far
// as an engine.ScenarioFile that replays it) and view.go (a frame drawn as
// compact SVG for a notebook). The notebook view (lab.Live) and the console (routelab
// console) both render these frames: one engine, one truth.
package live
