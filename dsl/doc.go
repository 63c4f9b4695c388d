// Package dsl is routelab's scripting layer: a Session runs Go notebook
// cells and scripts in a yaegi interpreter (v0.16.1, vendored with fixes
// under third_party/yaegi), with the standard library and compiled
// libraries (the lab package) available, and keeps declarations and
// variables from one cell to the next.
//
// Read first:
//   - session.go: Session, Options, Execute and the two-phase Interrupt;
//   - pipeline.go: how a cell is split (split.go), checked (checks.go),
//     type-checked by Go's own checker (typecheck.go, over the export data
//     typeinfo.go reads; frame.go adds gc's stack-frame limit, which
//     go/types leaves to the compiler), rewritten — first with what the
//     checker found (typed.go: constants as literals of their computed
//     value, declared variables with their types written out), then by the
//     named passes (passes.go, over rewrite.go, loops.go, classify.go,
//     generics.go, terminating.go) — compiled, importing the standard
//     packages a cell uses without importing them (imports.go), and run
//     (execute.go), and how its final value is shown (final.go);
//   - library.go: how compiled packages are exposed (Library, Host), and
//     callback.go: how they call back into cells (serialised, with
//     math/rand seeded by the run).
//
// Then: output.go (per-session pipes carrying all cell output to the
// running cell's sink), errors.go (errors as display.Error with cell
// positions and tracebacks), state.go (what the session records of each
// cell, redefinitions), symtab.go (the session's own table of declarations),
// prelude.go and runtime.go (display, min/max/clear, the slices and maps
// helpers yaegi lacks, as interpreted Go over a small compiled package),
// memory.go (the default allocation bound), complete.go with exprtype.go,
// vtype.go and celltype.go (Complete and Inspect, which work out types
// without running code), iscomplete.go, script.go (RunScript), variables.go
// (Variables: what a script declared, read back by its host), help.go
// (lab.Compare? and ?lab.Compare, as notebook users ask for help),
// input.go (standard input: lines from the front end, Inputter), comms.go
// (Jupyter comms both ways, and Aside: work a widget starts, run as a
// cell), magics.go
// with magics_unix.go and magics_other.go (%time, %%time, %who,
// %whos, %env: IPython's magics, one list),
// introspect.go (the runtime and reflect functions through which a program
// looks at itself, refused where an interpreted cell cannot get Go's
// answer) with typewalk.go (walkTypes, the types a type is built from),
// shared.go
// (the warning for a func literal, given to a library function that runs it
// in parallel, that writes a variable outside it) and docindex.go (the
// generator behind cmd/dsldoc). docs/dsl.md lists what Go
// works in cells, what is rewritten and what is refused, with the exact
// messages; gaps_test.go shows that every rewrite pass still closes a gap.
//
// The session structurally implements the kernel's Interpreter interface;
// this package does not import the kernel.
package dsl
