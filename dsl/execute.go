package dsl

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/traefik/yaegi/interp"
)

// execute runs a compiled chunk under the cell's evaluation context.
func (s *Session) execute(r *cellRun, prog *interp.Program) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = interp.Panic{Value: p}
		}
	}()
	_, ended, err := s.in.ExecuteWithContextEnd(r.evalCtx, prog)
	if errors.Is(err, interp.ErrGoexit) && s.script {
		err = s.afterMainGoexit(r, err)
	}
	if r.evalCtx.Err() != nil {
		// The interpreter was stopped: its goroutine ends at its next
		// check, and must not run on into the next cell (top-level code
		// shares the global frame, whose run id the next cell resets).
		select {
		case <-ended:
		case <-time.After(time.Second):
			r.stuck = true
		}
	}
	return err
}

// afterMainGoexit is what a script's main goroutine ending in
// runtime.Goexit (err) leads to, as in Go: the script's other goroutines
// run on until one of them ends it (os.Exit, a panic: both interrupt the
// cell) or none is left, which Go reports as a deadlock. Goroutines blocked
// for ever keep it waiting, where Go would report the deadlock too; an
// interrupt ends the wait.
func (s *Session) afterMainGoexit(r *cellRun, err error) error {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for s.goLive.Load() > 0 {
		select {
		case <-r.ctx.Done():
			return err
		case <-tick.C:
		}
	}
	if r.ctx.Err() != nil {
		return err
	}
	return &cellError{Msg: "fatal error: no goroutines (main called runtime.Goexit) - deadlock!"}
}

// instrument records, before each top-level statement of a chunk, where it
// starts: a panic's report does not say where in the cell's own code it
// happened, and a session that dies tells its supervisor what was running.
func (s *Session) instrument(body *ast.BlockStmt) {
	list := make([]ast.Stmt, 0, 2*len(body.List))
	for _, st := range body.List {
		_, line, col := s.cellPosition(st.Pos())
		at := &ast.ExprStmt{X: &ast.CallExpr{
			Fun:    &ast.SelectorExpr{X: &ast.Ident{NamePos: st.Pos(), Name: runtimeLocal}, Sel: &ast.Ident{NamePos: st.Pos(), Name: "At"}},
			Lparen: st.Pos(),
			Args:   []ast.Expr{&ast.BasicLit{ValuePos: st.Pos(), Kind: token.INT, Value: strconv.Itoa(line*atScale + col)}},
			Rparen: st.Pos(),
		}}
		list = append(list, at, st)
	}
	body.List = list
}

const atScale = 10000

// Position is where the running cell is: its number and the line and column
// of the top-level statement it runs (0, 0 before the first one). A
// supervisor may call it at any time.
func (s *Session) Position() (cell, line, col int) {
	at := int(s.at.Load())
	return int(s.atCell.Load()), at / atScale, at % atScale
}

func (s *Session) runError(r *cellRun, err error) error {
	frames := s.out.stderr.take()
	if r.interrupted.Load() {
		tb := []string{"Interrupted: the cell was interrupted", "what ran before the interrupt (variables, declarations) is kept"}
		if r.stuck {
			tb = append(tb, "warning: the cell is blocked in a compiled call that ignores interrupts; it goes on in the background until that call returns")
		}
		return &display.Error{Name: Interrupted, Value: "the cell was interrupted", Traceback: tb}
	}
	var p interp.Panic
	if errors.As(err, &p) {
		_, line, col := s.Position()
		return s.panicError(p, frames, line, col, r.code)
	}
	return newError(RuntimeError, s.compileFailure(err), nil, r.code)
}

func (s *Session) compileError(err error, code string) error {
	var pe *posError
	if errors.As(err, &pe) {
		_, line, col := s.cellPosition(pe.pos)
		err = &cellError{Line: line, Col: col, Msg: pe.msg}
	}
	ce := s.compileFailure(err)
	if lines := strings.Split(code, "\n"); ce.Line > len(lines) {
		// The parser ran into the wrapper the chunk was compiled in.
		ce.Line, ce.Col = len(lines), len(lines[len(lines)-1])+1
		ce.Msg = strings.Replace(ce.Msg, "found '}'", "found the end of the cell", 1)
	}
	ce.Msg = s.hint(ce.Msg)
	return newError(CompileError, ce, nil, code)
}

func (s *Session) posErr(pos token.Pos, format string, args ...any) error {
	return &posError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

func (s *Session) symErr(sym *symbol, format string, args ...any) error {
	return &cellError{Line: sym.Line, Col: sym.Col, Msg: fmt.Sprintf(format, args...)}
}

// cellPosition is the cell and the line and column in it of pos.
func (s *Session) cellPosition(pos token.Pos) (cell, line, col int) {
	p := s.in.FileSet().Position(pos)
	slot, line := splitLine(p.Line)
	return s.cellOf(slot), line, p.Column
}

// where names the code of a cell, for tracebacks: "this cell", "cell 3",
// "the prelude" (cell 0), or a standard package's source (file).
func (s *Session) where(cell int, file string) string {
	if cell == 0 {
		if pkg := strings.TrimSuffix(file, ".go"); genericSources[pkg] {
			return "package " + pkg
		}
		return "the prelude"
	}
	if cell == s.cells {
		return "this cell"
	}
	return s.cellName(cell)
}

func (s *Session) cellName(n int) string {
	switch {
	case n == 0:
		return "the prelude"
	case s.script:
		return "the script"
	}
	return fmt.Sprintf("cell %d", n)
}
