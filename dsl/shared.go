package dsl

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"
)

// noteSharedState warns about a func literal given to a library function
// listed in Library.Stateless that assigns a variable declared outside the
// literal. Such state is shared by every call: by the parallel runs of a
// comparison, in an order that depends on scheduling, and by later
// comparisons, so the same seed no longer gives the same result. The check
// sees only the literal itself (not the functions it calls).
func (s *Session) noteSharedState(n ast.Node, imports map[string]string) {
	if len(s.stateless) == 0 || n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		advice, ok := s.stateless[imports[pkg.Name]][sel.Sel.Name]
		if !ok {
			return true
		}
		for _, arg := range call.Args {
			lit, ok := arg.(*ast.FuncLit)
			if !ok {
				continue
			}
			if names := outerWrites(lit); len(names) > 0 {
				_, line, col := s.cellPosition(lit.Pos())
				them := "it"
				if len(names) > 1 {
					them = "them"
				}
				fmt.Fprintf(s.out.errW, "note: the function given to %s.%s (line %d:%d) changes %s, declared outside it: every call shares %s (the parallel runs of a comparison, in an order that varies, and later comparisons), so the same seed can give another result; %s\n",
					pkg.Name, sel.Sel.Name, line, col, strings.Join(names, ", "), them, advice)
			}
		}
		return true
	})
}

// outerWrites are the variables a func literal assigns (or increments, or
// writes an element or field of) that it does not declare itself.
func outerWrites(lit *ast.FuncLit) []string {
	local := map[string]bool{}
	declare := func(ids ...*ast.Ident) {
		for _, id := range ids {
			local[id.Name] = true
		}
	}
	fields := func(fl *ast.FieldList) {
		if fl != nil {
			for _, f := range fl.List {
				declare(f.Names...)
			}
		}
	}
	ast.Inspect(lit, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncType:
			fields(n.Params)
			fields(n.Results)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						declare(id)
					}
				}
			}
		case *ast.ValueSpec:
			declare(n.Names...)
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						declare(id)
					}
				}
			}
		}
		return true
	})
	written := map[string]bool{}
	write := func(e ast.Expr) {
		if id := rootIdent(e); id != nil && id.Name != "_" && !local[id.Name] {
			written[id.Name] = true
		}
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, e := range n.Lhs {
					write(e)
				}
			}
		case *ast.IncDecStmt:
			write(n.X)
		}
		return true
	})
	names := make([]string, 0, len(written))
	for name := range written {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// rootIdent is the variable an assignment's target belongs to: x in x,
// x[i], x.f, *x, (x).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}
