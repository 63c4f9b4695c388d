package dsl

import (
	"errors"
	"fmt"
	"go/scanner"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/routelab/routelab/display"
	"github.com/traefik/yaegi/interp"
)

// Error names used in *display.Error values.
const (
	CompileError  = "CompileError"  // syntax, type and unsupported-feature errors: nothing of the chunk ran
	RuntimeError  = "RuntimeError"  // a Go runtime error (index out of range, nil map, ...)
	PanicError    = "Panic"         // a panic with any other value
	Interrupted   = "Interrupted"   // the cell was interrupted
	StackOverflow = "StackOverflow" // calls nested deeper than the session allows (unbounded recursion)
	MemoryError   = "MemoryError"   // an allocation larger than the session allows
	UsageError    = "UsageError"    // a magic (%time, %who, ...) used wrongly, as IPython names it
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
// error stream ("cell3.go:2:5: panic: main.f(...)").
type frame struct {
	File            string
	Cell, Line, Col int // Cell is the cell's slot (see cellLine)
	Func            string
}

// The package's regular expressions are compiled on first use: package
// initialisation is paid by every routelab process, sessions or not.
var (
	// yaegi prefixes compile errors with "file:L:C: ".
	posPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:([^:\s]+\.go):)?(\d+):(\d+): `) })
	// yaegi prints one such line per interpreted frame a panic unwinds.
	panicLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:([^:\s]+\.go):)?(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)
	})
)

// compileFailure turns a parser or yaegi compile error into a cellError
// positioned in the running cell. A position in other code (a function of
// an earlier cell, the prelude) stays in the message.
func (s *Session) compileFailure(err error) *cellError {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		_, line := splitLine(list[0].Pos.Line)
		return &cellError{Line: line, Col: list[0].Pos.Column, Msg: s.decodePositions(list[0].Msg)}
	}
	var ce *cellError
	if errors.As(err, &ce) {
		return ce
	}
	msg := strings.ReplaceAll(err.Error(), typeParamPrefix, "")
	m := posPrefix().FindStringSubmatch(msg)
	if m == nil {
		return &cellError{Msg: s.decodePositions(msg)}
	}
	raw, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	slot, line := splitLine(raw)
	if cell := s.cellOf(slot); cell != s.cells {
		return &cellError{Msg: fmt.Sprintf("%s (%s, line %d:%d)", s.decodePositions(msg[len(m[0]):]), s.where(cell, m[1]), line, col)}
	}
	return &cellError{Line: line, Col: col, Msg: s.decodePositions(msg[len(m[0]):])}
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

// encodedPos finds positions of cell code left in a message (the cell's
// number folded into the line, see cellLine).
var encodedPos = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:_\.go:)?(\d{7,}):(\d+)`) })

// decodePositions rewrites the positions of cell code in a message as the
// cell and line they stand for.
func (s *Session) decodePositions(msg string) string {
	return encodedPos().ReplaceAllStringFunc(msg, func(m string) string {
		sub := encodedPos().FindStringSubmatch(m)
		raw, _ := strconv.Atoi(sub[1])
		slot, line := splitLine(raw)
		cell := s.cellOf(slot)
		if cell == s.cells {
			return fmt.Sprintf("%d:%s", line, sub[2])
		}
		return fmt.Sprintf("%s, line %d:%s", s.where(cell, ""), line, sub[2])
	})
}

// reflectPanics are the interpreter's run-time failures that reflect
// reports in its own words, with what Go says of the same mistake.
var reflectPanics = []struct{ prefix, goSays string }{
	{"reflect: slice index out of range", "index out of range"},
	{"reflect: array index out of range", "index out of range"},
	{"reflect: string index out of range", "index out of range"},
	{"reflect: call of reflect.Value.Field on zero Value", "invalid memory address or nil pointer dereference"},
	{"reflect: call of reflect.Value.Call on zero Value", "invalid memory address or nil pointer dereference (a nil function was called)"},
	{"reflect: call of reflect.Value.Elem on zero Value", "invalid memory address or nil pointer dereference"},
	{"reflect: call of reflect.Value.Set on zero Value", "invalid memory address or nil pointer dereference"},
	{"reflect: slice bounds out of range", "slice bounds out of range"},
	{"reflect.Value.Call: call of nil function", "invalid memory address or nil pointer dereference (a nil function was called)"},
}

// goRuntimeError is the Go runtime error a reflect panic stands for.
func goRuntimeError(v any) (string, bool) {
	msg, ok := v.(string)
	if !ok {
		if err, isErr := v.(error); isErr {
			msg = err.Error()
		}
	}
	for _, r := range reflectPanics {
		if strings.HasPrefix(msg, r.prefix) {
			return "runtime error: " + r.goSays, true
		}
	}
	return "", false
}

// panicName is the error name of a panic value.
func panicName(v any) string {
	if _, ok := goRuntimeError(v); ok {
		return RuntimeError
	}
	switch v.(type) {
	case interp.StackOverflow:
		return StackOverflow
	case interp.MemoryLimitError:
		return MemoryError
	case runtime.Error:
		return RuntimeError
	}
	// A library's own failures (lab's *Error) name themselves, e.g.
	// ValueError for a bad argument or Interrupted.
	if n, ok := v.(interface{ ErrorName() string }); ok {
		return n.ErrorName()
	}
	return PanicError
}

// panicError converts a recovered interpreted panic. frames are the lines
// yaegi reported while unwinding (innermost first); line and col locate the
// top-level statement of the cell that was running.
func (s *Session) panicError(p interp.Panic, frames []frame, line, col int, cell string) *display.Error {
	msg := fmt.Sprint(p.Value)
	if err, ok := p.Value.(error); ok {
		msg = err.Error()
	}
	if goMsg, ok := goRuntimeError(p.Value); ok {
		msg = goMsg
	}
	at := &cellError{Line: line, Col: col, Msg: s.decodePositions(msg)}
	tb := s.traceback(frames)
	if line > 0 {
		tb = append(tb, fmt.Sprintf("  in the statement at line %d:%d of this cell", line, col))
	}
	return newError(panicName(p.Value), at, tb, cell)
}

// traceback describes the interpreted frames of a panic, innermost first.
// Recursion is shown once: a frame that repeats, or a cycle of up to
// maxCycle frames (mutual recursion), with the count of repetitions.
func (s *Session) traceback(frames []frame) []string {
	var tb []string
	for i := 0; i < len(frames); {
		period, reps := cycleAt(frames, i)
		for _, f := range frames[i : i+period] {
			if f.Func != "main" { // the cell's top level: located by its statement
				tb = append(tb, s.frameLine(f))
			}
		}
		if reps > 1 {
			if period == 1 {
				tb[len(tb)-1] += fmt.Sprintf(" (%d nested calls)", reps)
			} else {
				tb = append(tb, fmt.Sprintf("  (the %d calls above repeat: %d nested calls in all)", period, period*reps))
			}
		}
		i += period * reps
	}
	return tb
}

// maxCycle is the longest cycle of mutual recursion a traceback folds.
const maxCycle = 4

// cycleAt finds the shortest block of frames starting at i that repeats
// right after itself, and how many times it occurs in a row (1 when none
// does).
func cycleAt(frames []frame, i int) (period, reps int) {
	for p := 1; p <= maxCycle && i+2*p <= len(frames); p++ {
		n := 1
		for i+(n+1)*p <= len(frames) && sameFrames(frames[i:i+p], frames[i+n*p:i+(n+1)*p]) {
			n++
		}
		if n > 1 {
			return p, n
		}
	}
	return 1, 1
}

func sameFrames(a, b []frame) bool {
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// frameLine locates one interpreted frame.
func (s *Session) frameLine(f frame) string {
	file := f.File
	if pkg, _, ok := strings.Cut(f.Func, "."); ok && f.Cell == 0 && genericSources[pkg] {
		file = pkg + ".go"
	}
	return fmt.Sprintf("  in %s, %s, line %d:%d", funcName(f.Func), s.where(s.cellOf(f.Cell), file), f.Line, f.Col)
}

// funcName turns yaegi's name of a frame's function into Go's way of
// writing it: "cost", "T.M", "a function literal in cost".
func funcName(fn string) string {
	if base, ok := strings.CutSuffix(fn, ".func"); ok {
		if base == "" || base == "main" {
			return "a function literal"
		}
		return "a function literal in " + funcName(base)
	}
	if fn == "func" {
		return "a function literal"
	}
	return fn
}

// parsePanicLine recognises yaegi's per-frame panic report.
func parsePanicLine(s string) (frame, bool) {
	m := panicLine().FindStringSubmatch(s)
	if m == nil {
		return frame{}, false
	}
	raw, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	cell, line := splitLine(raw)
	fn := strings.TrimPrefix(m[4], "main.")
	if rest, ok := strings.CutPrefix(fn, "_rl_main"); ok && (rest == "" || rest[0] == '.') {
		fn = "main" + rest // a script's func main, renamed to run once, and its literals
	}
	return frame{File: m[1], Cell: cell, Line: line, Col: col, Func: fn}, true
}
