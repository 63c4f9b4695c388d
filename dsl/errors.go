package dsl

import (
	"errors"
	"fmt"
	"go/scanner"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/routelab/routelab/display"
	"github.com/traefik/yaegi/interp"
)

// Error names used in *display.Error values.
const (
	CompileError = "CompileError" // syntax, type and unsupported-feature errors: nothing of the chunk ran
	RuntimeError = "RuntimeError" // a Go runtime error (index out of range, nil map, ...)
	PanicError   = "Panic"        // a panic with any other value
	Interrupted  = "Interrupted"  // the cell was interrupted
)

// cellError is an error at a position of the running cell (0 when unknown).
type cellError struct {
	Line, Col int
	Msg       string
}

func (e *cellError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// frame is one interpreted call frame of a panic, as yaegi reports it on its
// error stream ("L:C: panic: main.f(...)").
type frame struct {
	Line, Col int
	Func      string
}

var (
	// yaegi prefixes compile errors with "L:C: " (the file name is trimmed
	// because every chunk is compiled as _.go).
	posPrefix = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): `)
	// yaegi prints one such line per interpreted frame a panic unwinds.
	panicLine = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)
)

// compileFailure turns a parser or yaegi compile error into a cellError
// positioned in the cell.
func compileFailure(err error) *cellError {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return &cellError{Line: list[0].Pos.Line, Col: list[0].Pos.Column, Msg: list[0].Msg}
	}
	var ce *cellError
	if errors.As(err, &ce) {
		return ce
	}
	msg := strings.ReplaceAll(err.Error(), typeParamPrefix, "")
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		return &cellError{Line: line, Col: col, Msg: msg[len(m[0]):]}
	}
	return &cellError{Msg: msg}
}

// newError builds the notebook form of an error: the name, the message and a
// traceback made of the message, the interpreted frames (outermost last) and
// the offending line of the cell with a caret under the column.
func newError(name string, at *cellError, frames []string, cell string) *display.Error {
	value := at.Error()
	tb := []string{name + ": " + value}
	tb = append(tb, frames...)
	if at.Line > 0 {
		tb = append(tb, excerpt(cell, at.Line, at.Col)...)
	}
	return &display.Error{Name: name, Value: value, Traceback: tb}
}

// excerpt shows line (1-based) of src with a caret under col.
func excerpt(src string, line, col int) []string {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return nil
	}
	text := strings.ReplaceAll(lines[line-1], "\t", "    ")
	prefix := fmt.Sprintf("%4d | ", line)
	out := []string{prefix + text}
	if col >= 1 {
		width := len(strings.ReplaceAll(firstBytes(lines[line-1], col-1), "\t", "    "))
		out = append(out, strings.Repeat(" ", len(prefix)-2)+"| "+strings.Repeat(" ", width)+"^")
	}
	return out
}

func firstBytes(s string, n int) string {
	if n > len(s) {
		n = len(s)
	}
	if n < 0 {
		n = 0
	}
	return s[:n]
}

// panicError converts a recovered interpreted panic. frames are the lines
// yaegi reported while unwinding (innermost first), located through the
// session's symbols; its line for the cell itself ("main") is unreliable, so
// line and col come from the statement the cell was running.
func panicError(p interp.Panic, frames []frame, line, col int, where func(fn string) string, cell string) *display.Error {
	name := PanicError
	if _, ok := p.Value.(runtime.Error); ok {
		name = RuntimeError
	}
	// A library's own failures (lab's *Error) name themselves, e.g.
	// ValueError for a bad argument or Interrupted.
	if n, ok := p.Value.(interface{ ErrorName() string }); ok {
		name = n.ErrorName()
	}
	msg := fmt.Sprint(p.Value)
	if err, ok := p.Value.(error); ok {
		msg = err.Error()
	}
	at := &cellError{Line: line, Col: col, Msg: msg}
	var tb []string
	for _, f := range frames {
		if f.Func != "main" {
			tb = append(tb, fmt.Sprintf("  in %s, %s line %d:%d", f.Func, where(f.Func), f.Line, f.Col))
		}
	}
	if line > 0 {
		tb = append(tb, fmt.Sprintf("  in the statement at line %d:%d of this cell", line, col))
	}
	return newError(name, at, tb, cell)
}

// parsePanicLine recognises yaegi's per-frame panic report.
func parsePanicLine(s string) (frame, bool) {
	m := panicLine.FindStringSubmatch(s)
	if m == nil {
		return frame{}, false
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	fn := strings.TrimPrefix(m[3], "main.")
	if fn == "_rl_main" {
		fn = "main" // a script's func main, renamed to run once
	}
	return frame{Line: line, Col: col, Func: fn}, true
}
