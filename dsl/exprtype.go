package dsl

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// Completion after a dot needs the type of the operand before it, in a cell
// that is only half typed. The cell up to the dot, its open brackets closed,
// is parsed (go/parser recovers from the rest), so that the parser resolves
// the cell's own names: a local shadows a session name, and parameters and
// range variables are known. Names it cannot resolve come from the session:
// its variables' current values, the declarations in its symbol table and
// the compiled packages' reflect types. Nothing runs.

// maxDepth bounds how deep one answer may go through names and types, so
// that declarations referring to each other (x := x.Rate(1) in a later
// cell, type A B; type B A) end; maxSteps bounds how many it may visit, so
// that types embedding others several times (type A struct{ A; A; A }) do
// not take exponential time. Real answers take a few dozen steps.
const (
	maxDepth = 24
	maxSteps = 4000
)

// yaegiPkg is the package of the interpreter's own types: a value of a type
// declared in a cell has a reflect type built by yaegi (named after it, or
// unnamed), without the cell's methods or names.
const yaegiPkg = "github.com/traefik/yaegi/interp"

// typer works out types for one request.
type typer struct {
	s       *Session
	fset    *token.FileSet
	cell    *ast.File         // the cell up to the cursor, as parsed
	imports map[string]string // package name -> import path, as the cell sees them
	globals map[string]reflect.Value
	depth   int // steps in progress
	steps   int // steps taken
}

// operand is what precedes a dot: a package (pkg is its path) or a value of
// type t. Both are zero when it is unknown.
type operand struct {
	pkg string
	t   vtype
}

// operandAt resolves the operand of the selector whose dot is at code[dot].
func (s *Session) operandAt(code string, dot int) operand {
	inLiteral, open, balanced := scanPrefix(code[:dot])
	if inLiteral || !balanced {
		return operand{}
	}
	return s.operandBefore(code[:dot], open)
}

// operandBefore resolves the operand that ends prefix, given the brackets
// open there.
func (s *Session) operandBefore(prefix string, open []token.Token) operand {
	ty := &typer{s: s, fset: token.NewFileSet(), imports: s.syms.importsCopy()}
	x := ty.parseCell(prefix+closers(open), len(prefix))
	if x == nil {
		return operand{}
	}
	if p, ok := ty.pkgOf(x); ok {
		return operand{pkg: p}
	}
	return operand{t: ty.typeOf(x)}
}

// scanPrefix scans the code before a position and tells whether the
// position is inside a comment or a string or rune literal, and which
// brackets are open there (balanced is false when they do not match).
func scanPrefix(prefix string) (inLiteral bool, open []token.Token, balanced bool) {
	file := token.NewFileSet().AddFile("", -1, len(prefix))
	var sc scanner.Scanner
	sc.Init(file, []byte(prefix), nil, scanner.ScanComments)
	var last token.Token
	var lastOff int
	var lastLit string
	balanced = true
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			open = append(open, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(open) == 0 || !matches(open[len(open)-1], tok) {
				balanced = false
			} else {
				open = open[:len(open)-1]
			}
		case token.SEMICOLON:
			if lit == "\n" {
				continue // inserted, not written
			}
		}
		last, lastOff, lastLit = tok, file.Offset(pos), lit
	}
	inLiteral = lastOff+len(lastLit) == len(prefix) && unfinished(last, lastLit)
	return inLiteral, open, balanced
}

// unfinished tells whether a comment or literal that ends where the
// scanned text ends is still open there.
func unfinished(tok token.Token, lit string) bool {
	switch tok {
	case token.COMMENT:
		return strings.HasPrefix(lit, "//") || len(lit) < 4 || !strings.HasSuffix(lit, "*/")
	case token.STRING, token.CHAR:
		_, err := strconv.Unquote(lit)
		return err != nil
	}
	return false
}

// closers closes open brackets, innermost first. A brace gets a line of its
// own so that the statement before it ends.
func closers(open []token.Token) string {
	var b strings.Builder
	for i := len(open) - 1; i >= 0; i-- {
		switch open[i] {
		case token.LBRACE:
			b.WriteString("\n}")
		case token.LPAREN:
			b.WriteString(")")
		default:
			b.WriteString("]")
		}
	}
	return b.String()
}

// parseCell parses a cell whose operand ends at text[end] (the closers
// follow) and returns that operand. The cell becomes one file: its imports,
// then its declarations, then its statements, in order, in one function,
// so that a variable declared in an earlier statement is in scope in later
// ones.
func (ty *typer) parseCell(text string, end int) ast.Expr {
	chunks, _, err := splitCell(text)
	if err != nil {
		return nil
	}
	var parts [3]strings.Builder // imports, declarations, statements
	part, at := -1, -1
	for _, c := range chunks {
		b := &parts[c.Kind]
		if c.Offset <= end && end <= c.Offset+len(c.Text) {
			part, at = int(c.Kind), b.Len()+end-c.Offset
		}
		b.WriteString(c.Text)
	}
	heads := [3]string{"package main;", "\n", "\nfunc _() {\n"}
	var src strings.Builder
	for i := range parts {
		if i == part {
			at += src.Len() + len(heads[i])
		}
		src.WriteString(heads[i])
		src.WriteString(parts[i].String())
	}
	src.WriteString("\n}")
	f, _ := parser.ParseFile(ty.fset, "", src.String(), parser.ParseComments|parser.AllErrors)
	if f == nil || at < 0 {
		return nil
	}
	ty.cell = f
	ty.addImports(f)
	return operandEndingAt(f, ty.fset.File(f.Pos()), at)
}

// addImports makes the packages the cell imports visible.
func (ty *typer) addImports(f *ast.File) {
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil || !ty.s.available(p) {
			continue
		}
		name := ty.s.packageName(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		ty.imports[name] = p
	}
}

// operandEndingAt finds the outermost operand (not an operator's result:
// in -x.M or *p.M the selector binds to x and p) that ends at offset end.
func operandEndingAt(f *ast.File, tf *token.File, end int) ast.Expr {
	var found ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil || n == nil || !n.Pos().IsValid() || !n.End().IsValid() {
			return false
		}
		if tf.Offset(n.Pos()) > end || tf.Offset(n.End()) < end {
			return false
		}
		if e, ok := n.(ast.Expr); ok && tf.Offset(n.End()) == end && isOperand(e) {
			found = e
			return false
		}
		return true
	})
	return found
}

func isOperand(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.CompositeLit, *ast.ParenExpr, *ast.SelectorExpr,
		*ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr, *ast.TypeAssertExpr, *ast.CallExpr:
		return true
	}
	return false
}

// pkgOf tells whether x names a package: a name the cell does not declare,
// that is no session variable, function or type, and that a package is
// imported as (or a standard package is named, as Complete offers those
// before their import runs).
func (ty *typer) pkgOf(x ast.Expr) (string, bool) {
	id, ok := x.(*ast.Ident)
	if !ok || id.Obj != nil || ty.s.syms.get(id.Name) != nil {
		return "", false
	}
	return ty.s.pathIn(id.Name, ty.imports)
}

// typeOf is the type of the value of e; nil when unknown.
func (ty *typer) typeOf(e ast.Expr) vtype {
	if !ty.enter() {
		return nil
	}
	defer ty.leave()
	switch e := e.(type) {
	case *ast.ParenExpr:
		return ty.typeOf(e.X)
	case *ast.Ident:
		return ty.identType(e)
	case *ast.SelectorExpr:
		if p, ok := ty.pkgOf(e.X); ok {
			return ty.exportType(p, e.Sel.Name)
		}
		return member(ty.typeOf(e.X), e.Sel.Name)
	case *ast.CallExpr:
		if r := ty.results(e); len(r) == 1 {
			return r[0]
		}
	case *ast.IndexExpr:
		return indexed(ty.typeOf(e.X))
	case *ast.SliceExpr:
		return ty.typeOf(e.X)
	case *ast.StarExpr:
		return elem(ty.typeOf(e.X))
	case *ast.UnaryExpr:
		return ty.unaryType(e)
	case *ast.BinaryExpr:
		return ty.binaryType(e)
	case *ast.CompositeLit:
		return ty.typeExpr(e.Type)
	case *ast.TypeAssertExpr:
		return ty.typeExpr(e.Type)
	case *ast.FuncLit:
		return ty.typeExpr(e.Type)
	}
	return nil
}

func (ty *typer) unaryType(e *ast.UnaryExpr) vtype {
	switch e.Op {
	case token.AND:
		return ty.pointerTo(ty.typeOf(e.X))
	case token.ARROW:
		return elem(ty.typeOf(e.X))
	case token.NOT:
		return nil
	}
	return ty.typeOf(e.X)
}

// binaryType: comparisons give bool; arithmetic keeps the type of its typed
// operand (time.Duration * 2).
func (ty *typer) binaryType(e *ast.BinaryExpr) vtype {
	switch e.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
		return nil
	}
	if t := ty.typeOf(e.X); t != nil {
		return t
	}
	return ty.typeOf(e.Y)
}

// identType is the type of a named value: declared in the cell (the parser
// resolved it) or else in the session.
func (ty *typer) identType(id *ast.Ident) vtype {
	if id.Obj == nil {
		return ty.sessionType(id.Name)
	}
	switch id.Obj.Kind {
	case ast.Var, ast.Con:
		return ty.declaredType(id.Name, id.Obj.Decl)
	case ast.Fun:
		if fd, ok := id.Obj.Decl.(*ast.FuncDecl); ok {
			return ty.typeExpr(fd.Type)
		}
	}
	return nil
}

// declaredType is the type of name as declared by decl (a parameter, a var
// or const spec, or a short variable declaration, range clauses included).
func (ty *typer) declaredType(name string, decl any) vtype {
	switch d := decl.(type) {
	case *ast.Field:
		return ty.typeExpr(d.Type)
	case *ast.ValueSpec:
		k := identIndex(d.Names, name)
		switch {
		case k < 0:
			return nil
		case d.Type != nil:
			return ty.typeExpr(d.Type)
		case len(d.Values) == len(d.Names):
			return ty.typeOf(d.Values[k])
		case len(d.Values) == 1:
			return ty.tupleType(d.Values[0], k)
		}
	case *ast.AssignStmt:
		k := identIndex(d.Lhs, name)
		if k < 0 || len(d.Rhs) == 0 {
			return nil
		}
		if u, ok := d.Rhs[0].(*ast.UnaryExpr); ok && u.Op == token.RANGE {
			return ty.rangeType(u.X, k)
		}
		if len(d.Rhs) == len(d.Lhs) {
			return ty.typeOf(d.Rhs[k])
		}
		if len(d.Rhs) == 1 {
			return ty.tupleType(d.Rhs[0], k)
		}
	}
	return nil
}

func identIndex[E ast.Expr](list []E, name string) int {
	for i, e := range list {
		if id, ok := any(e).(*ast.Ident); ok && id.Name == name {
			return i
		}
	}
	return -1
}

// tupleType is the type of the k-th value of a multi-value expression: a
// call, or a comma-ok map index, type assertion or receive.
func (ty *typer) tupleType(e ast.Expr, k int) vtype {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if r := ty.results(call); k < len(r) {
			return r[k]
		}
		return nil
	}
	if k == 0 {
		return ty.typeOf(e)
	}
	return nil
}

// rangeType is the type of the k-th variable of a range over x.
func (ty *typer) rangeType(x ast.Expr, k int) vtype {
	t := ty.typeOf(x)
	if t != nil && t.kind() == reflect.Pointer {
		t = t.elem() // a pointer to an array
	}
	switch {
	case t == nil:
		return nil
	case t.kind() == reflect.Map && k == 0:
		return t.key()
	case t.kind() == reflect.Chan && k == 0, k == 1:
		return elem(t)
	}
	return nil
}

// results are the types of what a call returns: a function's results, a
// conversion's type, or those of the builtins that make values.
func (ty *typer) results(call *ast.CallExpr) []vtype {
	if t := ty.typeExpr(call.Fun); t != nil {
		return []vtype{t}
	}
	if id, ok := call.Fun.(*ast.Ident); ok && id.Obj == nil && ty.s.syms.get(id.Name) == nil {
		switch {
		case id.Name == "new" && len(call.Args) == 1:
			return []vtype{ty.pointerTo(ty.typeExpr(call.Args[0]))}
		case id.Name == "make" && len(call.Args) > 0:
			return []vtype{ty.typeExpr(call.Args[0])}
		case id.Name == "append" && len(call.Args) > 0:
			return []vtype{ty.typeOf(call.Args[0])}
		}
	}
	if f := ty.typeOf(call.Fun); f != nil {
		return f.results()
	}
	return nil
}

// typeExpr is the type that e denotes; nil when e is no type, or one
// completion knows nothing of.
func (ty *typer) typeExpr(e ast.Expr) vtype {
	if !ty.enter() {
		return nil
	}
	defer ty.leave()
	switch e := e.(type) {
	case *ast.ParenExpr:
		return ty.typeExpr(e.X)
	case *ast.Ident:
		return ty.namedType(e)
	case *ast.SelectorExpr:
		if p, ok := ty.pkgOf(e.X); ok {
			if v, _ := ty.s.exported(p, e.Sel.Name); isTypeSymbol(v) {
				return ty.reflectType(v.Type().Elem())
			}
		}
	case *ast.StarExpr:
		return ty.pointerTo(ty.typeExpr(e.X))
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.StructType, *ast.InterfaceType, *ast.Ellipsis:
		return &astType{ty: ty, expr: e}
	}
	return nil
}

// namedType resolves a type name: declared in the cell, in the session, or
// predeclared (error is the one with a method).
func (ty *typer) namedType(id *ast.Ident) vtype {
	if id.Obj != nil {
		if ts, ok := id.Obj.Decl.(*ast.TypeSpec); ok && id.Obj.Kind == ast.Typ {
			return &declType{ty: ty, spec: ts}
		}
		return nil // a type parameter, or no type
	}
	if sym := ty.s.syms.get(id.Name); sym != nil {
		if sym.Kind == symType {
			return ty.sessionNamed(sym)
		}
		return nil
	}
	if id.Name == "error" {
		return ty.reflectType(reflect.TypeFor[error]())
	}
	return nil
}

// exportType is the type of a compiled package's function, variable or
// typed constant.
func (ty *typer) exportType(p, name string) vtype {
	v, ok := ty.s.exported(p, name)
	if !ok || !v.IsValid() || !v.CanInterface() || isTypeSymbol(v) {
		return nil
	}
	if _, untyped := v.Interface().(constant.Value); untyped {
		return nil
	}
	return ty.reflectType(v.Type())
}

// isTypeSymbol tells a type in yaegi's symbol maps, (*T)(nil), from a
// variable of pointer type, which is addressable.
func isTypeSymbol(v reflect.Value) bool {
	return v.IsValid() && v.Kind() == reflect.Pointer && v.IsNil() && !v.CanAddr()
}

// sessionType is the type of a value the session declared: a variable's
// current value when its reflect type is whole, else its declaration (a
// value of a type declared in a cell has a reflect type without the type's
// name and methods); a function's declared signature.
func (ty *typer) sessionType(name string) vtype {
	sym := ty.s.syms.get(name)
	if sym == nil {
		return nil
	}
	switch sym.Kind {
	case symVar, symConst:
		if v := ty.global(name); v.IsValid() && compiled(v.Type()) {
			return ty.reflectType(v.Type())
		}
		return ty.staticVar(sym)
	case symFunc:
		if fd, ok := ty.parseDecl(sym.Sig).(*ast.FuncDecl); ok {
			return ty.typeExpr(fd.Type)
		}
	}
	return nil
}

func (ty *typer) global(name string) reflect.Value {
	if ty.globals == nil {
		ty.globals = ty.s.in.Globals()
	}
	return ty.globals[name]
}

// compiled tells whether t is made of compiled types only, so that reflect
// knows all of its members.
func compiled(t reflect.Type) bool {
	if t.PkgPath() == yaegiPkg {
		return false
	}
	if t.Name() != "" && t.PkgPath() != "" {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return compiled(t.Elem())
	case reflect.Map:
		return compiled(t.Key()) && compiled(t.Elem())
	case reflect.Interface:
		return t.NumMethod() == 0
	case reflect.Func:
		for i := 0; i < t.NumOut(); i++ {
			if !compiled(t.Out(i)) {
				return false
			}
		}
		return true
	}
	return false // a basic type may be a cell's named type that lost its methods
}

// staticVar is the type of a session variable or constant from its
// declaration's text, parsed again; the names it uses are the session's.
func (ty *typer) staticVar(sym *symbol) vtype {
	f, _ := parser.ParseFile(ty.fset, "", "package main;func _() {\n"+sym.Src+"\n}", 0)
	if f == nil {
		return nil
	}
	var decl any
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && decl == nil && id.Name == sym.Name && id.Obj != nil {
			decl = id.Obj.Decl
		}
		return decl == nil
	})
	return ty.declaredType(sym.Name, decl)
}

// sessionNamed is a type declared in an earlier cell.
func (ty *typer) sessionNamed(sym *symbol) vtype {
	gd, ok := ty.parseDecl(sym.Src).(*ast.GenDecl)
	if !ok {
		return nil
	}
	for _, sp := range gd.Specs {
		if ts, ok := sp.(*ast.TypeSpec); ok && ts.Name.Name == sym.Name {
			return &declType{ty: ty, spec: ts}
		}
	}
	return nil
}

// parseDecl parses the text of one top-level declaration of the session.
func (ty *typer) parseDecl(src string) ast.Decl {
	f, err := parser.ParseFile(ty.fset, "", "package main;"+src, parser.ParseComments)
	if err != nil || len(f.Decls) == 0 {
		return nil
	}
	return f.Decls[0]
}
