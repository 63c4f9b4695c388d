package dsl

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
)

// The rewriter walks a chunk's statements (function bodies included) and
// applies the statement rewrites of the passes listed in passes.go that are
// enabled. It edits the tree in place; synthesized nodes carry the position
// of the code they replace, so errors still point into the cell.

type rewriter struct {
	// disabled names passes not to apply (gaps_test.go turns passes off to
	// show the gap each one closes).
	disabled map[string]bool
	types    typeOracle
	n        int   // counter for fresh names
	err      error // first rejection
	// unknownRange is a range expression whose type could not be told; if
	// yaegi then fails, it is the likely cause.
	unknownRange ast.Expr
	imports      map[string]string
	// ranges are what range loops range over, as Go's type checker says.
	ranges map[*ast.RangeStmt]class
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

func (rw *rewriter) on(pass string) bool { return !rw.disabled[pass] }

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
	case *ast.SwitchStmt:
		inner := newScope(sc)
		rw.simple(inner, s.Init)
		rw.expr(inner, s.Tag)
		rw.clauses(inner, s.Body)
	case *ast.TypeSwitchStmt:
		inner := newScope(sc)
		rw.simple(inner, s.Init)
		rw.simple(inner, s.Assign)
		rw.clauses(inner, s.Body)
	case *ast.SelectStmt:
		rw.clauses(sc, s.Body)
	case *ast.ForStmt:
		return rw.forStmt(sc, s)
	case *ast.RangeStmt:
		return rw.rangeStmt(sc, s)
	case *ast.GoStmt:
		rw.expr(sc, s.Call)
		if rw.on(passGoroutineRecover) {
			return rw.goStmt(s)
		}
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
// function literals (whose bodies are rewritten) and rand.N.
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
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && n.Sel.Name == "N" && x.Name == "rand" && !sc.has(x.Name) && rw.on(passCompiledGenerics) {
				if p, imported := rw.imports[x.Name]; !imported || p == "math/rand/v2" {
					rw.fail(n.Pos(), "rand.N is generic, and generic functions of compiled packages are not available in cells: use rand.IntN, rand.Int64N or rand.Float64 (math/rand/v2) instead")
				}
			}
		}
		return true
	})
}

// constant reports whether e is a constant: a literal or a session constant
// (possibly negated or parenthesized).
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
