// Package worker runs a kernel.Interpreter in a child process and keeps a
// fresh one ready when that process dies, so a cell that kills its session
// (a fatal runtime error Go cannot recover, running out of memory, a stack
// overflow) costs the session's variables but never the kernel or the
// headless runner.
//
// Two sides speak one small protocol over the child's standard input and
// output: one JSON object per line, requests one way and events the other,
// matched by request id so requests overlap (completion and interrupts while
// a cell runs). Events without an id belong to no request: readiness, and
// output a session sends outside a running cell.
//
// Jupyter comms (widgets) go both ways: the session's comm messages travel
// as output of the cell that sent them, in order with its streams and
// displays, and reach the sink that speaks comms (display.Comms): the
// cell's, else the background sink. The front end's go to the session's
// kernel.Commer without waiting, but for an open, whose yes or no the
// kernel waits for a short while. Comms a worker leaves open when it ends
// are closed on the front end, since their session is gone. A stream may
// name a comm: it is output of the cell that opened it (a widget's
// callback), for a sink that can place it there (display.CommStreamer). A
// cell's status line (display.Statuser: routelab run's progress on a
// terminal) travels as its own event, for sinks that show one.
//
// Read first:
//
//   - supervisor.go — Supervisor, the kernel side: an Interpreter that
//     proxies every call to the current worker and replaces a dead one.
//   - serve.go — Serve, the worker side: the loop a child process runs
//     around the real interpreter.
//   - protocol.go — the messages.
//
// Then: child.go (one worker process, its pipes and its end), death.go (why
// a worker died, from its standard error) and limit_linux.go (LimitMemory:
// the worker's memory limit, RLIMIT_DATA; limit_other.go has none).
package worker
