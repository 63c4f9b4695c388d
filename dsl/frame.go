package dsl

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// gc's limits (cmd/compile): a function's stack frame (ssagen's
// maxStackSize), and the largest variable declared with var that stays on
// the stack (ir.MaxStackVarSize; a larger one moves to the heap).
const (
	maxFrame       = 1 << 30
	maxStackVarLen = 128 << 10
)

// frameErrors are the "stack frame too large" errors Go's compiler gives
// and go/types leaves to it. Counted are the frame gc builds: variables
// declared with var that fit its stack limit and whose address is not
// taken, and the copy of an array ranged over by value. Without the rule
// the interpreter allocates gigabytes Go would never run.
func frameErrors(fset *token.FileSet, f *ast.File, info *types.Info) []types.Error {
	sizes := types.SizesFor("gc", "amd64")
	var errs []types.Error
	var visit func(at token.Pos, body *ast.BlockStmt)
	visit = func(at token.Pos, body *ast.BlockStmt) {
		var locals int64
		first := token.NoPos
		add := func(n ast.Node, size int64) {
			locals += size
			if first == token.NoPos {
				first = n.Pos()
			}
		}
		addressed := map[types.Object]bool{}
		var vars []*ast.Ident
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				visit(n.Pos(), n.Body)
				return false
			case *ast.UnaryExpr:
				if id, ok := n.X.(*ast.Ident); ok && n.Op == token.AND {
					addressed[info.Uses[id]] = true
				}
			case *ast.DeclStmt:
				if g, ok := n.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
					for _, s := range g.Specs {
						vars = append(vars, s.(*ast.ValueSpec).Names...)
					}
				}
			case *ast.RangeStmt:
				if id, ok := n.Value.(*ast.Ident); n.Value == nil || ok && id.Name == "_" {
					return true
				}
				if t := info.TypeOf(n.X); t != nil {
					if a, ok := t.Underlying().(*types.Array); ok && sized(a) {
						add(n, sizes.Sizeof(a))
					}
				}
			}
			return true
		})
		for _, id := range vars {
			if obj := info.Defs[id]; obj != nil && !addressed[obj] && sized(obj.Type()) {
				if size := sizes.Sizeof(obj.Type()); size <= maxStackVarLen {
					add(id, size)
				}
			}
		}
		if at == token.NoPos {
			at = first // a cell's statements: their function is not the user's
		}
		if locals >= maxFrame {
			errs = append(errs, types.Error{Fset: fset, Pos: at,
				Msg: fmt.Sprintf("stack frame too large (>1GB): %d MB locals + 0 MB args", locals>>20)})
		}
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			at := fd.Name.Pos()
			if fd.Name.Name == "_rl_cell" {
				at = token.NoPos
			}
			visit(at, fd.Body)
		}
	}
	return errs
}

// sized reports whether t's size is known before instantiation: a type
// that holds a type parameter by value is sized per instance.
func sized(t types.Type) bool {
	switch t := t.(type) {
	case *types.TypeParam:
		return false
	case *types.Named:
		for i := range t.TypeArgs().Len() {
			if !sized(t.TypeArgs().At(i)) {
				return false
			}
		}
		if t.TypeArgs().Len() > 0 {
			return true
		}
		return sized(t.Underlying())
	case *types.Alias:
		return sized(types.Unalias(t))
	case *types.Array:
		return sized(t.Elem())
	case *types.Struct:
		for i := range t.NumFields() {
			if !sized(t.Field(i).Type()) {
				return false
			}
		}
	}
	return true
}

// maxChanElem is gc's bound on a channel's element size (types.CheckSize:
// the runtime's hchan keeps it in a uint16).
const maxChanElem = 1 << 16

// chanElemErrors are gc's "channel element type too large" errors, which
// go/types leaves to it: the interpreter's reflect.ChanOf would panic on
// such a type instead. Each is reported where gc puts it: at the name a
// declaration declares, or at the statement, once a place.
func chanElemErrors(fset *token.FileSet, f *ast.File, info *types.Info) []types.Error {
	sizes := types.SizesFor("gc", "amd64")
	var errs []types.Error
	reported := map[token.Pos]bool{}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		ct, ok := n.(*ast.ChanType)
		if !ok {
			return true
		}
		ch, ok := types.Unalias(info.TypeOf(ct)).(*types.Chan)
		if !ok || !sizable(ch.Elem()) || sizes.Sizeof(ch.Elem()) < maxChanElem {
			return true
		}
		if at := gcErrorPos(stack); !reported[at] {
			reported[at] = true
			errs = append(errs, types.Error{Fset: fset, Pos: at, Msg: "channel element type too large (>64kB)"})
		}
		return true
	})
	return errs
}

// gcErrorPos is where gc reports an error about a type written at the top
// of stack: the innermost declaration's name, or statement.
func gcErrorPos(stack []ast.Node) token.Pos {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.ValueSpec:
			return n.Names[0].Pos()
		case *ast.TypeSpec:
			return n.Name.Pos()
		case *ast.FuncDecl:
			return n.Name.Pos()
		case ast.Stmt:
			return n.Pos()
		}
	}
	return stack[len(stack)-1].Pos()
}

// sizable reports whether typ has a size before instantiation: it
// mentions no type parameter.
func sizable(typ types.Type) bool {
	return walkTypes(typ, func(t types.Type) bool {
		_, param := t.(*types.TypeParam)
		return !param
	})
}
