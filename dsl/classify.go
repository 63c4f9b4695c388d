package dsl

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
)

// yaegi v0.16.1 cannot range over an integer or a function, and the rewrite
// needs to know which one a range expression is without a type checker. The
// classification below uses what is visible: literals, len/cap and
// conversions, arithmetic, local declarations, the session's own
// declarations and runtime values, and compiled packages' symbol types.
// What it cannot decide is left alone; docs/dsl.md says so.

// scope records local names and what is known of their types.
type scope struct {
	parent *scope
	vars   map[string]class
}

func newScope(parent *scope) *scope { return &scope{parent: parent} }

func (s *scope) define(e ast.Expr, c class) {
	id, ok := e.(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	if s.vars == nil {
		s.vars = map[string]class{}
	}
	s.vars[id.Name] = c
}

func (s *scope) lookup(name string) (class, bool) {
	for ; s != nil; s = s.parent {
		if c, ok := s.vars[name]; ok {
			return c, true
		}
	}
	return unknownClass, false
}

func (s *scope) has(name string) bool {
	_, ok := s.lookup(name)
	return ok
}

// declare records the names a statement declares.
func (s *scope) declare(st ast.Stmt, rw *rewriter) {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE {
			return
		}
		for k, l := range st.Lhs {
			c := unknownClass
			if len(st.Lhs) == len(st.Rhs) {
				c = rw.classOf(s, st.Rhs[k])
			}
			s.define(l, c)
		}
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok {
			return
		}
		for _, sp := range gd.Specs {
			vs, ok := sp.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for k, n := range vs.Names {
				c := classOfType(vs.Type)
				if vs.Type == nil && len(vs.Values) == len(vs.Names) {
					c = rw.classOf(s, vs.Values[k])
				}
				s.define(n, c)
			}
		}
	}
}

func (s *scope) params(ft *ast.FuncType, rw *rewriter) {
	for _, fl := range []*ast.FieldList{ft.Params, ft.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				s.define(n, classOfType(f.Type))
			}
		}
	}
}

var integerTypes = map[string]bool{
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "byte": true, "rune": true,
}

// classOfType classifies a type expression.
func classOfType(t ast.Expr) class {
	switch t := t.(type) {
	case nil:
		return unknownClass
	case *ast.Ident:
		if integerTypes[t.Name] {
			return intClass
		}
		if t.Name == "string" || t.Name == "float64" || t.Name == "float32" || t.Name == "bool" {
			return otherClass
		}
	case *ast.FuncType:
		return funcClass
	case *ast.IndexExpr:
		if sel, ok := t.X.(*ast.SelectorExpr); ok && isPkg(sel.X, "iter") {
			return funcClass
		}
	case *ast.IndexListExpr:
		if sel, ok := t.X.(*ast.SelectorExpr); ok && isPkg(sel.X, "iter") {
			return funcClass
		}
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.StarExpr:
		return otherClass
	case *ast.ParenExpr:
		return classOfType(t.X)
	}
	return unknownClass
}

func isPkg(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// classOf classifies an expression.
func (rw *rewriter) classOf(sc *scope, e ast.Expr) class {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT || e.Kind == token.CHAR {
			return intClass
		}
		return otherClass
	case *ast.ParenExpr:
		return rw.classOf(sc, e.X)
	case *ast.UnaryExpr:
		if e.Op == token.SUB || e.Op == token.ADD || e.Op == token.XOR {
			return rw.classOf(sc, e.X)
		}
		return otherClass
	case *ast.BinaryExpr:
		return rw.classOfBinary(sc, e)
	case *ast.CallExpr:
		return rw.classOfCall(sc, e)
	case *ast.Ident:
		if c, ok := sc.lookup(e.Name); ok {
			return c
		}
		return rw.types.classOf(e.Name)
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && !sc.has(pkg.Name) {
			if path, ok := rw.imports[pkg.Name]; ok {
				return rw.types.libClass(path, e.Sel.Name)
			}
		}
	case *ast.FuncLit:
		return funcClass
	case *ast.CompositeLit:
		return otherClass
	}
	return unknownClass
}

func (rw *rewriter) classOfBinary(sc *scope, e *ast.BinaryExpr) class {
	switch e.Op {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.SHL, token.SHR, token.AND_NOT:
		x, y := rw.classOf(sc, e.X), rw.classOf(sc, e.Y)
		if x == intClass || y == intClass {
			return intClass
		}
		if x == otherClass || y == otherClass {
			return otherClass
		}
		return unknownClass
	}
	return otherClass
}

// classOfCall classifies a call by what it returns.
func (rw *rewriter) classOfCall(sc *scope, e *ast.CallExpr) class {
	switch fn := e.Fun.(type) {
	case *ast.Ident:
		if sc.has(fn.Name) {
			return unknownClass
		}
		if fn.Name == "len" || fn.Name == "cap" || integerTypes[fn.Name] {
			return intClass
		}
		if (fn.Name == "min" || fn.Name == "max") && len(e.Args) > 0 {
			return rw.classOf(sc, e.Args[0])
		}
		return rw.types.classOf(fn.Name + "()")
	case *ast.SelectorExpr:
		if pkg, ok := fn.X.(*ast.Ident); ok && !sc.has(pkg.Name) {
			if path, ok := rw.imports[pkg.Name]; ok {
				return rw.types.libClass(path, fn.Sel.Name+"()")
			}
		}
	case *ast.FuncLit:
		if fn.Type.Results != nil && len(fn.Type.Results.List) == 1 {
			return classOfType(fn.Type.Results.List[0].Type)
		}
	case *ast.ParenExpr:
		return classOfType(fn.X)
	}
	return unknownClass
}

// exprString prints e compactly for messages.
func exprString(e ast.Node) string {
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), e)
	s := b.String()
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
