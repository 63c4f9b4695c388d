package dsl

import (
	"go/ast"
	"strings"
)

// The value of a cell: its final expression statement, shown through the
// prelude's _rl_show.

// final is a cell's final expression statement. It is shown through the
// prelude's variadic _rl_show, which takes the values of a multi-value call
// as well as a single value; when the compiler says the call has no value,
// the statement is put back as it was.
type final struct {
	stmt *ast.ExprStmt
	orig ast.Expr
}

// finalExpr prepares the final expression statement of body for display,
// unless it is a call known to return nothing or print-like.
func (s *Session) finalExpr(body *ast.BlockStmt) *final {
	if len(body.List) == 0 {
		return nil
	}
	es, ok := body.List[len(body.List)-1].(*ast.ExprStmt)
	if !ok || s.quiet(es.X) {
		return nil
	}
	f := &final{stmt: es, orig: es.X}
	pos := es.X.Pos()
	es.X = &ast.CallExpr{Fun: &ast.Ident{NamePos: pos, Name: "_rl_show"}, Lparen: pos, Args: []ast.Expr{es.X}, Rparen: es.X.End()}
	return f
}

// plain puts the statement back as the cell wrote it.
func (f *final) plain() { f.stmt.X = f.orig }

var quietBuiltins = map[string]bool{
	"print": true, "println": true, "panic": true, "close": true, "delete": true, "clear": true, "copy": true,
	"display": true, "displayWithID": true, "updateDisplay": true, "_rl_main": true,
	"displayHTML": true, "displayMarkdown": true, "displaySVG": true,
}

func (s *Session) quiet(x ast.Expr) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		if sym := s.syms.get(fn.Name); sym != nil {
			return sym.Kind == symFunc && sym.NoResults
		}
		return quietBuiltins[fn.Name]
	case *ast.SelectorExpr:
		pkg, ok := fn.X.(*ast.Ident)
		if !ok {
			return false
		}
		p, ok := s.syms.importPath(pkg.Name)
		if !ok && s.syms.get(pkg.Name) == nil && len(s.std[pkg.Name]) > 0 {
			// A standard package the chunk will import for itself.
			p, ok = s.std[pkg.Name][0], true
		}
		if !ok {
			return false
		}
		name := fn.Sel.Name
		if p == "log" || (p == "fmt" && (strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint"))) {
			return true
		}
		v := s.exports[p][name]
		return v.IsValid() && v.Kind() == reflectFunc && v.Type().NumOut() == 0
	}
	return false
}
