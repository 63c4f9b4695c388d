package dsl

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
)

// The rewriter brings a chunk's syntax tree to what yaegi v0.16.1 runs with
// Go 1.22+ meaning, or rejects it with a precise message. It edits the tree
// in place; synthesized nodes carry the position of the code they replace,
// so errors still point into the cell. What it does (docs/dsl.md has the
// table):
//   - range over an integer becomes a counting loop;
//   - a loop variable captured by a closure (or whose address is taken) gets
//     a fresh copy per iteration, as in Go 1.22;
//   - `for k := range maps.Keys(m)` ranges over the returned slice's values;
//   - range over a function, and rand.N, are rejected;
//   - min/max get their non-constant arguments first (so the generic
//     prelude functions infer the right type) or are folded when constant;
//   - `go f(x)` runs f under a recover so that its panic is reported
//     instead of killing the process.

type rewriter struct {
	types typeOracle
	n     int   // counter for fresh names
	err   error // first rejection
	// unknownRange is a range expression whose type could not be told; if
	// yaegi then fails, it is the likely cause.
	unknownRange ast.Expr
	imports      map[string]string
}

// typeOracle tells what little the session knows about an expression's type.
type typeOracle interface {
	// classOf classifies a package-level identifier of the session.
	classOf(name string) class
	// libClass classifies pkg.Name for an imported compiled package.
	libClass(pkgPath, name string) class
	// isConst reports whether name is a session constant.
	isConst(name string) bool
}

type class int

const (
	unknownClass class = iota
	intClass
	funcClass
	otherClass
)

func (rw *rewriter) fail(pos token.Pos, format string, args ...any) {
	if rw.err == nil {
		rw.err = &posError{pos: pos, msg: fmt.Sprintf(format, args...)}
	}
}

// posError is a rejection at a token position of the chunk's file set; the
// pipeline turns it into cell coordinates.
type posError struct {
	pos token.Pos
	msg string
}

func (e *posError) Error() string { return e.msg }

func (rw *rewriter) fresh(base string) string {
	rw.n++
	return "_rl_" + base + strconv.Itoa(rw.n)
}

// block rewrites a statement list in place.
func (rw *rewriter) block(b *ast.BlockStmt) {
	if b == nil {
		return
	}
	b.List = rw.list(newScope(nil), b.List)
}

func (rw *rewriter) list(sc *scope, list []ast.Stmt) []ast.Stmt {
	out := make([]ast.Stmt, 0, len(list))
	for _, s := range list {
		out = append(out, rw.stmt(sc, s)...)
		sc.declare(s, rw)
	}
	return out
}

func (rw *rewriter) body(sc *scope, b *ast.BlockStmt) {
	if b != nil {
		b.List = rw.list(newScope(sc), b.List)
	}
}

func (rw *rewriter) stmt(sc *scope, s ast.Stmt) []ast.Stmt {
	switch s := s.(type) {
	case *ast.BlockStmt:
		rw.body(sc, s)
	case *ast.LabeledStmt:
		out := rw.stmt(sc, s.Stmt)
		if len(out) == 1 {
			s.Stmt = out[0]
			return []ast.Stmt{s}
		}
		// A range over an int became {init; for}: keep the label on the loop.
		blk := out[0].(*ast.BlockStmt)
		last := len(blk.List) - 1
		s.Stmt = blk.List[last]
		blk.List[last] = s
		return out
	case *ast.IfStmt:
		inner := newScope(sc)
		rw.simple(inner, s.Init)
		rw.expr(inner, s.Cond)
		rw.body(inner, s.Body)
		if s.Else != nil {
			s.Else = rw.stmt(inner, s.Else)[0]
		}
		return rw.hoistInit(&s.Init, s)
	case *ast.SwitchStmt:
		inner := newScope(sc)
		rw.simple(inner, s.Init)
		rw.expr(inner, s.Tag)
		rw.clauses(inner, s.Body)
		return rw.hoistInit(&s.Init, s)
	case *ast.TypeSwitchStmt:
		inner := newScope(sc)
		rw.simple(inner, s.Init)
		rw.simple(inner, s.Assign)
		rw.clauses(inner, s.Body)
		return rw.hoistInit(&s.Init, s)
	case *ast.AssignStmt:
		rw.expr(sc, s)
		return rw.commaOK(s)
	case *ast.SelectStmt:
		rw.clauses(sc, s.Body)
	case *ast.ForStmt:
		return rw.forStmt(sc, s)
	case *ast.RangeStmt:
		return rw.rangeStmt(sc, s)
	case *ast.GoStmt:
		rw.expr(sc, s.Call)
		return rw.goStmt(s)
	default:
		rw.expr(sc, s)
	}
	return []ast.Stmt{s}
}

func (rw *rewriter) simple(sc *scope, s ast.Stmt) {
	if s != nil {
		rw.expr(sc, s)
		sc.declare(s, rw)
	}
}

func (rw *rewriter) clauses(sc *scope, b *ast.BlockStmt) {
	for _, c := range b.List {
		inner := newScope(sc)
		switch c := c.(type) {
		case *ast.CaseClause:
			for _, e := range c.List {
				rw.expr(inner, e)
			}
			c.Body = rw.list(inner, c.Body)
		case *ast.CommClause:
			rw.simple(inner, c.Comm)
			c.Body = rw.list(inner, c.Body)
		}
	}
}

// expr handles everything inside a node that is not a statement list:
// function literals (whose bodies are rewritten), min/max and rand.N.
func (rw *rewriter) expr(sc *scope, n ast.Node) {
	if n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			inner := newScope(sc)
			inner.params(n.Type, rw)
			rw.body(inner, n.Body)
			return false
		case *ast.CallExpr:
			rw.minMax(sc, n)
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && n.Sel.Name == "N" && rw.imports[x.Name] == "math/rand/v2" && !sc.has(x.Name) {
				rw.fail(n.Pos(), "rand.N is generic and yaegi v0.16.1 cannot use generic functions of compiled packages: use rand.IntN, rand.Int64N or rand.Float64 instead")
			}
		}
		return true
	})
}

// minMax orders the arguments of min and max for the prelude's generic
// versions, which infer their type parameter from the first argument:
// non-constant arguments go first, and among constants a float literal goes
// first, so min(x, 1) and min(3, 2.5) type as the builtins do.
func (rw *rewriter) minMax(sc *scope, call *ast.CallExpr) {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || (id.Name != "min" && id.Name != "max") || sc.has(id.Name) || call.Ellipsis.IsValid() {
		return
	}
	var vars, floats, consts []ast.Expr
	for _, a := range call.Args {
		switch v := rw.constant(sc, a); {
		case !v:
			vars = append(vars, a)
		case isFloatLit(a):
			floats = append(floats, a)
		default:
			consts = append(consts, a)
		}
	}
	call.Args = append(append(vars, floats...), consts...)
	if len(vars) == 0 && len(floats) > 0 {
		// The prelude's type parameter cannot be an untyped float constant.
		f := call.Args[0]
		call.Args[0] = &ast.CallExpr{Fun: &ast.Ident{NamePos: f.Pos(), Name: "float64"}, Lparen: f.Pos(), Args: []ast.Expr{f}, Rparen: f.End()}
	}
}

func (rw *rewriter) constant(sc *scope, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return rw.constant(sc, e.X)
	case *ast.UnaryExpr:
		return rw.constant(sc, e.X)
	case *ast.Ident:
		return !sc.has(e.Name) && rw.types.isConst(e.Name)
	}
	return false
}

func isFloatLit(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.FLOAT
	case *ast.ParenExpr:
		return isFloatLit(e.X)
	case *ast.UnaryExpr:
		return isFloatLit(e.X)
	}
	return false
}
