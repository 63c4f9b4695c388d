package dsl

import (
	"go/ast"
	"go/token"
)

// rejectMissingReturn refuses a function with results whose body can end
// without a return, as Go does ("missing return"); the interpreter would
// return zero values. It follows the specification's terminating
// statements.
func rejectMissingReturn(rw *rewriter, n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		var ft *ast.FuncType
		var body *ast.BlockStmt
		what := "function literal"
		switch f := n.(type) {
		case *ast.FuncDecl:
			ft, body, what = f.Type, f.Body, "func "+f.Name.Name
		case *ast.FuncLit:
			ft, body = f.Type, f.Body
		default:
			return true
		}
		if body != nil && ft.Results != nil && len(ft.Results.List) > 0 && !terminating(body) {
			rw.fail(body.Rbrace, "missing return at the end of %s", what)
		}
		return true
	})
}

// terminating reports whether s is a terminating statement.
func terminating(s ast.Stmt) bool { return terminatingAs(s, nil) }

// terminatingAs is terminating for s labeled label (or nil).
func terminatingAs(s ast.Stmt, label *ast.Ident) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.GOTO || s.Tok == token.FALLTHROUGH
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := call.Fun.(*ast.Ident)
		return ok && id.Name == "panic" && id.Obj == nil
	case *ast.BlockStmt:
		return len(s.List) > 0 && terminating(s.List[len(s.List)-1])
	case *ast.IfStmt:
		return s.Else != nil && terminating(s.Body) && terminating(s.Else)
	case *ast.LabeledStmt:
		return terminatingAs(s.Stmt, s.Label)
	case *ast.ForStmt:
		return s.Cond == nil && !breaks(s.Body, label)
	case *ast.SwitchStmt:
		return clausesTerminate(s.Body, label, true)
	case *ast.TypeSwitchStmt:
		return clausesTerminate(s.Body, label, true)
	case *ast.SelectStmt:
		return clausesTerminate(s.Body, label, false)
	}
	return false
}

// clausesTerminate reports whether a switch (with a default clause, when
// needsDefault) or select has no break out of it and every clause ends in
// a terminating statement.
func clausesTerminate(body *ast.BlockStmt, label *ast.Ident, needsDefault bool) bool {
	hasDefault := !needsDefault
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			list = c.Body
			hasDefault = hasDefault || c.List == nil
		case *ast.CommClause:
			list = c.Body
		}
		if len(list) == 0 || !terminating(list[len(list)-1]) || breaks(&ast.BlockStmt{List: list}, label) {
			return false
		}
	}
	return hasDefault
}

// breaks reports whether n holds a break out of the statement n is the body
// of: an unlabeled break outside nested for, switch and select statements
// (and function literals), or a break to label.
func breaks(n ast.Node, label *ast.Ident) bool {
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, true)
					return false
				}
			case *ast.BranchStmt:
				if m.Tok == token.BREAK && ((m.Label == nil && !nested) || (m.Label != nil && label != nil && m.Label.Name == label.Name)) {
					found = true
				}
			}
			return true
		})
	}
	walk(n, false)
	return found
}
