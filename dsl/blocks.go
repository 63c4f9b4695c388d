package dsl

import (
	"go/ast"
	"go/token"
)

// wrapBlockDefines runs a top-level compound statement inside a function
// literal when it holds a multi-value := (v, err := f(); v, ok := m[k]):
// yaegi v0.16.1 leaves such variables undefined in blocks on the global
// frame, and defines them correctly inside a function. Variables declared
// in a block are local to it anyway, and the synthesized nodes keep the
// statement's positions, so nothing else changes.
func wrapBlockDefines(body *ast.BlockStmt) {
	for i, st := range body.List {
		switch st.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
			*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
		default:
			continue
		}
		if !hasMultiDefine(st) {
			continue
		}
		lit := &ast.FuncLit{
			Type: &ast.FuncType{Func: st.Pos(), Params: &ast.FieldList{Opening: st.Pos(), Closing: st.Pos()}},
			Body: &ast.BlockStmt{Lbrace: st.Pos(), List: []ast.Stmt{st}, Rbrace: st.End()},
		}
		body.List[i] = &ast.ExprStmt{X: &ast.CallExpr{Fun: lit, Lparen: st.End(), Rparen: st.End()}}
	}
}

// hasMultiDefine reports a := of several variables from one value inside
// st, outside function literals.
func hasMultiDefine(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) > 1 && len(n.Rhs) == 1 {
				found = true
			}
		}
		return !found
	})
	return found
}
