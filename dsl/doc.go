// Package dsl is routelab's scripting layer: a Session runs Go notebook
// cells and scripts in a yaegi (v0.16.1) interpreter, with the standard
// library and compiled libraries (the lab package) available, and keeps
// declarations and variables from one cell to the next.
//
// Read first:
//   - session.go: Session, Options, Execute and the two-phase Interrupt;
//   - pipeline.go: how a cell is split (split.go), checked, rewritten
//     (rewrite.go, loops.go) and run chunk by chunk, and how its final value
//     is shown;
//   - library.go: how compiled packages are exposed (Library, Host).
//
// Then: output.go (per-session pipes carrying all cell output to the
// running cell's sink), errors.go (errors as display.Error with cell
// positions), prelude.go (display, min/max/clear, the slices and maps
// helpers yaegi lacks, as interpreted Go), generics.go (a yaegi bug
// work-around), complete.go and iscomplete.go (Complete, Inspect,
// IsComplete), script.go (RunScript) and docindex.go (the generator behind
// cmd/dsldoc). docs/dsl.md lists what Go works in cells, what is rewritten
// and what is rejected, with the exact messages.
//
// The session structurally implements the kernel's Interpreter interface;
// this package does not import the kernel.
package dsl
