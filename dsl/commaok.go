package dsl

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16.1 does not zero the value of a failed comma-ok map index or
// type assertion: in `v, ok := m[k]` with k missing (or `n, ok := x.(T)`
// failing), v keeps whatever its slot held before, typically the previous
// iteration's value. The rewriter follows each such assignment with
//
//	if !ok { v = *new(T) }          // type assertion: T is in the source
//	if !ok { v = _rl_zero(v) }      // map index: the type is inferred
//
// (a blank ok becomes a fresh variable), and moves an if or switch
// statement's comma-ok init into a block in front of it so the fix can
// follow it.

// commaOK returns as (rewritten) plus its fix, or just as when it needs none.
func (rw *rewriter) commaOK(as *ast.AssignStmt) []ast.Stmt {
	if len(as.Lhs) != 2 || len(as.Rhs) != 1 || isBlank(as.Lhs[0]) || !fixable(as.Lhs[0]) {
		return []ast.Stmt{as}
	}
	var zero ast.Expr
	switch rhs := as.Rhs[0].(type) {
	case *ast.IndexExpr:
		zero = &ast.CallExpr{Fun: ast.NewIdent("_rl_zero"), Args: []ast.Expr{as.Lhs[0]}}
	case *ast.TypeAssertExpr:
		if rhs.Type == nil {
			return []ast.Stmt{as}
		}
		zero = &ast.StarExpr{X: &ast.CallExpr{Fun: ast.NewIdent("new"), Args: []ast.Expr{rhs.Type}}}
	default:
		return []ast.Stmt{as}
	}
	var out []ast.Stmt
	ok := as.Lhs[1]
	if isBlank(ok) {
		ok = ast.NewIdent(rw.fresh("ok"))
		as.Lhs[1] = ok
		if as.Tok == token.ASSIGN {
			out = append(out, synthStmt("var "+ok.(*ast.Ident).Name+" bool", as.Pos()))
		}
	}
	fix := &ast.IfStmt{
		Cond: &ast.UnaryExpr{Op: token.NOT, X: ok},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{as.Lhs[0]}, Tok: token.ASSIGN, Rhs: []ast.Expr{zero}}}},
	}
	movePositions(fix, as.Pos())
	return append(out, as, fix)
}

// fixable reports whether e can be assigned again without side effects.
func fixable(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return fixable(e.X)
	}
	return false
}

// hoistInit turns `if init; cond {...}` (or a switch) whose init needs a
// comma-ok fix into `{ init; fix; if cond {...} }`, which scopes the same;
// any other statement is returned as it is.
func (rw *rewriter) hoistInit(init *ast.Stmt, s ast.Stmt) []ast.Stmt {
	as, isAssign := (*init).(*ast.AssignStmt)
	if !isAssign {
		return []ast.Stmt{s}
	}
	fixed := rw.commaOK(as)
	if len(fixed) == 1 {
		return []ast.Stmt{s}
	}
	*init = nil
	return []ast.Stmt{&ast.BlockStmt{Lbrace: s.Pos(), List: append(fixed, s), Rbrace: s.End()}}
}
