package interp

import (
	"go/ast"
	"go/token"
)

// rangeAssign rewrites a range statement that assigns its iteration values
// to existing variables (`for i, c = range s`) into one that declares two
// hidden variables and assigns them at the start of each iteration, as Go's
// specification describes it: `for k', v' := range s { i, c = k', v'; ... }`.
// routelab patch: yaegi declared new variables for the iteration values also
// with `=`, so the assigned ones were never set (after `for i = range s`, i
// kept its old value: Go's stringrange.go, fixedbugs/issue13162.go,
// mapclear.go, for.go), and an operand such as `a[f()]` or `*p` was never
// evaluated.
func rangeAssign(r *ast.RangeStmt) {
	if r.Tok != token.ASSIGN {
		return
	}
	var lhs, rhs []ast.Expr
	hidden := func(e ast.Expr, name string) ast.Expr {
		if e == nil {
			return nil
		}
		if id, ok := e.(*ast.Ident); ok && id.Name == "_" {
			return e
		}
		h := &ast.Ident{NamePos: e.Pos(), Name: name}
		lhs = append(lhs, e)
		rhs = append(rhs, &ast.Ident{NamePos: e.Pos(), Name: name})
		return h
	}
	key := hidden(r.Key, "range·key")
	value := hidden(r.Value, "range·value")
	if len(lhs) == 0 {
		return
	}
	r.Key, r.Value, r.Tok = key, value, token.DEFINE
	assign := &ast.AssignStmt{Lhs: lhs, TokPos: r.TokPos, Tok: token.ASSIGN, Rhs: rhs}
	r.Body.List = append([]ast.Stmt{assign}, r.Body.List...)
}

// unparenRecv removes the parentheses around the receive of a select's comm
// clause (case x, ok := (<-c):), which Go allows. routelab patch: the
// parenthesized receive was not seen as one, so a comma-ok clause was
// refused with "assignment mismatch: 2 variables but 1 value" (Go's
// chan/select3.go).
func unparenRecv(s ast.Stmt) {
	unparen := func(e ast.Expr) ast.Expr {
		for {
			p, ok := e.(*ast.ParenExpr)
			if !ok {
				return e
			}
			inner := p.X
			for q, ok := inner.(*ast.ParenExpr); ok; q, ok = inner.(*ast.ParenExpr) {
				inner = q.X
			}
			if u, ok := inner.(*ast.UnaryExpr); !ok || u.Op != token.ARROW {
				return e
			}
			e = p.X
		}
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			s.Rhs[0] = unparen(s.Rhs[0])
		}
	case *ast.ExprStmt:
		s.X = unparen(s.X)
	}
}
