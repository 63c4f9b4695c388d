// Package kernel runs routelab cells wherever notebooks are opened: it is a
// Jupyter kernel (messaging protocol 5.3 over ZeroMQ, pure Go), a kernelspec
// installer, and a headless notebook runner with HTML export. Cells run
// through the Interpreter interface (interpreter.go); the kernel never sees
// the language session behind it, so Jupyter and `routelab run` execute
// cells through exactly the same path.
//
// Read first:
//
//   - kernel.go — Serve, the goroutines of a running kernel and its shutdown.
//   - handlers.go and execute.go — what each request does (input.go: a
//     cell's input requests on stdin); execute.go also
//     holds the iopub Sink a running cell writes to.
//   - runner.go — Run and Execute, the headless runner (notebook.go reads and
//     writes nbformat 4, html.go renders the page).
//
// Then, as needed: wire.go (message framing, HMAC signing and constant-time
// verification), zmtp.go (the listening sockets, built on zmq4's ZMTP
// handshake and frame decoding), connection.go, history.go, install.go and
// logo.go (kernelspecs), info.go (kernel_info and notebook metadata),
// background.go (output a session makes between cells, such as a live view
// updating, published under the request that showed its display),
// comms.go (Jupyter comms both ways, the channels widgets talk through,
// and the registry comm_info lists) and widgetstate.go (the widget state a
// headless run writes into the notebook's metadata).
//
// Concurrency: shell requests are handled one at a time by a single worker
// goroutine, which alone calls Execute, Complete, Inspect and IsComplete.
// Control requests (interrupt, shutdown, kernel_info) are served on their
// own goroutine, the heartbeat on each connection's goroutine, so both
// answer while a cell runs. Interrupt is the only Interpreter method called
// concurrently with Execute (a Commer's methods are the shell worker's too). Every socket serialises its own writes.
//
// The sub-package worker runs an Interpreter in a child process and
// replaces it when it dies; routelab's kernel and `routelab run` serve
// cells through it, so a cell that kills its session never kills them.
//
// docs/kernel.md is the user-facing guide: installation, running notebooks,
// interrupts, protocol coverage and troubleshooting.
package kernel
