package kernel

import (
	"context"

	"github.com/routelab/routelab/display"
)

// Interpreter is everything the kernel and the headless notebook runner need
// from a language session. The kernel never sees the interpreter behind it
// (the dsl session implements this), so Jupyter and `routelab run` execute
// cells through exactly the same path.
type Interpreter interface {
	// Execute runs one cell. Output (streams, displays) goes to sink while the
	// cell runs; the returned bundle is the cell's value (nil when it has none).
	// A failed cell returns a *display.Error; the session stays usable.
	Execute(ctx context.Context, code string, sink display.Sink) (display.Bundle, error)
	// Interrupt stops the running cell, if any, keeping the session's state.
	Interrupt()
	// Complete proposes completions for the code at the cursor (a byte offset).
	Complete(code string, cursor int) display.Completion
	// Inspect describes the symbol at the cursor; ok is false when nothing is known.
	Inspect(code string, cursor int) (doc display.Bundle, ok bool)
	// IsComplete tells whether code is ready to run: "complete", "incomplete"
	// (with the indent to continue with) or "invalid".
	IsComplete(code string) (status, indent string)
}

// Backgrounder is an Interpreter that shows output outside a running cell
// (a live view updating between cells). Serve gives it a sink that
// publishes that output on iopub, each display under the execute request
// that first showed it.
type Backgrounder interface {
	SetBackgroundSink(display.Sink)
}

// Commer is an Interpreter that answers the front end's side of Jupyter
// comms (widgets). The kernel calls it for comm_open, comm_msg and
// comm_close from the client, in the order they arrive, and never while
// holding up the shell: each call returns at once (work a message starts
// runs later, between cells). The session's own side goes out through its
// sinks (display.Comms).
type Commer interface {
	// CommOpen: the front end opened comm id on target. False refuses it
	// (no such target): the kernel then closes the comm.
	CommOpen(id, target string, data map[string]any) bool
	// CommMsg delivers a message the front end sent on comm id.
	CommMsg(id string, data map[string]any)
	// CommClose: the front end closed comm id.
	CommClose(id string, data map[string]any)
}
