package dsl

import (
	"go/ast"
	"sort"
)

// checkQualifiers rejects a package name used in a type (a parameter, a
// field, a variable's or a composite literal's type) that is not imported.
// yaegi v0.16.1 crashes on those with a nil pointer dereference instead of
// reporting them.
// known gives the package names cells can import; it is only called when
// something is wrong.
func (rw *rewriter) checkQualifiers(n ast.Node, known func() map[string]string) {
	check := func(t ast.Expr) {
		if t == nil {
			return
		}
		ast.Inspect(t, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			if _, imported := rw.imports[pkg.Name]; imported {
				return false
			}
			if p, ok := known()[pkg.Name]; ok {
				rw.fail(pkg.Pos(), "undefined: %s (import %q first)", pkg.Name, p)
			} else {
				rw.fail(pkg.Pos(), "undefined: %s (used as a package in a type, but no package of that name is imported)", pkg.Name)
			}
			return false
		})
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			check(n.Type)
		case *ast.TypeSpec:
			check(n.Type)
		case *ast.ValueSpec:
			check(n.Type)
		case *ast.CompositeLit:
			check(n.Type)
		case *ast.TypeAssertExpr:
			check(n.Type)
		}
		return true
	})
}

// packageNames maps the package name of every package cells can import to
// its path (the standard library's own names where unambiguous).
func (s *Session) packageNames() map[string]string {
	paths := make([]string, 0, len(s.names))
	for p := range s.names {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := map[string]string{}
	for _, p := range paths {
		if name := s.names[p]; name != "" {
			if _, dup := out[name]; !dup {
				out[name] = p
			}
		}
	}
	return out
}
