package dsl

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"
)

// Types declared in cells are known from their syntax: yaegi gives their
// values reflect types without names or methods.

// declType is a type declared in a cell: the cell being typed or an earlier
// one. Its methods may come from either.
type declType struct {
	ty   *typer
	spec *ast.TypeSpec
}

func (d *declType) name() string { return d.spec.Name.Name }

// underlying is the type d is defined as; a type defined from a compiled
// or another declared type keeps its fields (or an interface's methods)
// and none of its methods, an alias all of them.
func (d *declType) underlying() vtype {
	if !d.ty.enter() {
		return nil
	}
	defer d.ty.leave()
	u := d.ty.typeExpr(d.spec.Type)
	if d.spec.Assign.IsValid() {
		return u
	}
	switch t := u.(type) {
	case rtype:
		t.fieldsOnly = true
		return t
	case *declType:
		return t.underlying()
	}
	return u
}

func (d *declType) kind() reflect.Kind {
	if u := d.underlying(); u != nil {
		return u.kind()
	}
	return reflect.Invalid
}

func (d *declType) members() []string {
	out := d.methodNames()
	if u := d.underlying(); u != nil && d.ty.enter() {
		defer d.ty.leave()
		out = append(out, u.members()...)
	}
	return out
}

func (d *declType) member(name string) vtype {
	if fd, _ := d.method(name); fd != nil {
		return d.ty.typeExpr(fd.Type)
	}
	if u := d.underlying(); u != nil && d.ty.enter() {
		defer d.ty.leave()
		return u.member(name)
	}
	return nil
}

func (d *declType) results() []vtype {
	if u := d.underlying(); u != nil {
		return u.results()
	}
	return nil
}

func (d *declType) elem() vtype { return elem(d.underlying()) }

func (d *declType) key() vtype {
	if u := d.underlying(); u != nil {
		return u.key()
	}
	return nil
}

// describe gives a method's declaration with its doc comment (and the cell
// that declared it), or the member's description from the underlying type.
func (d *declType) describe(name string) string {
	fd, sym := d.method(name)
	switch {
	case sym != nil:
		return strings.TrimSpace(sym.Src) + "\n\n(declared in " + d.ty.s.cellName(sym.Cell) + ")"
	case fd != nil:
		return strings.TrimSpace(signature(d.ty.fset, fd) + "\n\n" + fd.Doc.Text())
	}
	if u := d.underlying(); u != nil && d.ty.enter() {
		defer d.ty.leave()
		return u.describe(name)
	}
	return ""
}

// methodNames lists the methods declared on d in the cell being typed and
// in earlier cells.
func (d *declType) methodNames() []string {
	var out []string
	for _, fd := range d.cellMethods() {
		out = append(out, fd.Name.Name)
	}
	return append(out, d.ty.s.syms.methodNames(d.name()+".")...)
}

func (d *declType) cellMethods() []*ast.FuncDecl {
	if d.ty.cell == nil {
		return nil
	}
	var out []*ast.FuncDecl
	for _, decl := range d.ty.cell.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 && recvName(fd.Recv.List[0].Type) == d.name() {
			out = append(out, fd)
		}
	}
	return out
}

// method finds a method of d: declared in the cell being typed (sym is
// nil), or in an earlier cell.
func (d *declType) method(name string) (*ast.FuncDecl, *symbol) {
	for _, fd := range d.cellMethods() {
		if fd.Name.Name == name {
			return fd, nil
		}
	}
	sym := d.ty.s.syms.get(d.name() + "." + name)
	if sym == nil || sym.Kind != symMethod {
		return nil, nil
	}
	if fd, ok := d.ty.parseDecl(sym.Sig).(*ast.FuncDecl); ok {
		return fd, sym
	}
	return nil, nil
}

// astType is a type literal written in a cell: a slice, array, map,
// channel, func, struct or interface type.
type astType struct {
	ty   *typer
	expr ast.Expr
}

func (a *astType) kind() reflect.Kind {
	switch e := a.expr.(type) {
	case *ast.ArrayType:
		if e.Len == nil {
			return reflect.Slice
		}
		return reflect.Array
	case *ast.Ellipsis:
		return reflect.Slice
	case *ast.MapType:
		return reflect.Map
	case *ast.ChanType:
		return reflect.Chan
	case *ast.FuncType:
		return reflect.Func
	case *ast.StructType:
		return reflect.Struct
	case *ast.InterfaceType:
		return reflect.Interface
	}
	return reflect.Invalid
}

// fields are a struct's fields or an interface's methods.
func (a *astType) fields() []*ast.Field {
	switch e := a.expr.(type) {
	case *ast.StructType:
		return e.Fields.List
	case *ast.InterfaceType:
		return e.Methods.List
	}
	return nil
}

func (a *astType) members() []string {
	if !a.ty.enter() {
		return nil
	}
	defer a.ty.leave()
	var out []string
	for _, f := range a.fields() {
		for _, n := range f.Names {
			out = append(out, n.Name)
		}
		if len(f.Names) > 0 {
			continue
		}
		if _, ok := a.expr.(*ast.StructType); ok {
			out = append(out, embeddedName(f.Type))
		}
		if t := a.ty.typeExpr(f.Type); t != nil {
			out = append(out, t.members()...)
		}
	}
	return out
}

// find is the field (or interface method) that a selector name reaches,
// directly or through an embedded type (then embedded is that type).
func (a *astType) find(name string) (f *ast.Field, embedded vtype) {
	for _, f := range a.fields() {
		for _, n := range f.Names {
			if n.Name == name {
				return f, nil
			}
		}
		if len(f.Names) == 0 && embeddedName(f.Type) == name {
			return f, nil
		}
	}
	for _, f := range a.fields() {
		if len(f.Names) > 0 {
			continue
		}
		if t := a.ty.typeExpr(f.Type); t != nil && t.member(name) != nil {
			return nil, t
		}
	}
	return nil, nil
}

func (a *astType) member(name string) vtype {
	if !a.ty.enter() {
		return nil
	}
	defer a.ty.leave()
	f, embedded := a.find(name)
	if f != nil {
		return a.ty.typeExpr(f.Type)
	}
	return member(embedded, name)
}

func (a *astType) describe(name string) string {
	if !a.ty.enter() {
		return ""
	}
	defer a.ty.leave()
	f, embedded := a.find(name)
	if f != nil {
		return strings.TrimSpace(fieldString(a.ty.fset, f, a.kind() == reflect.Interface) + "\n\n" + f.Doc.Text() + f.Comment.Text())
	}
	if embedded != nil {
		return embedded.describe(name)
	}
	return ""
}

func (a *astType) results() []vtype {
	ft, ok := a.expr.(*ast.FuncType)
	if !ok || ft.Results == nil {
		return nil
	}
	var out []vtype
	for _, f := range ft.Results.List {
		t := a.ty.typeExpr(f.Type)
		for range max(1, len(f.Names)) {
			out = append(out, t)
		}
	}
	return out
}

func (a *astType) elem() vtype {
	switch e := a.expr.(type) {
	case *ast.ArrayType:
		return a.ty.typeExpr(e.Elt)
	case *ast.Ellipsis:
		return a.ty.typeExpr(e.Elt)
	case *ast.MapType:
		return a.ty.typeExpr(e.Value)
	case *ast.ChanType:
		return a.ty.typeExpr(e.Value)
	}
	return nil
}

func (a *astType) key() vtype {
	if m, ok := a.expr.(*ast.MapType); ok {
		return a.ty.typeExpr(m.Key)
	}
	return nil
}

// fieldString spells a struct field, or an interface method, as declared
// (go/printer prints no lone fields).
func fieldString(fset *token.FileSet, f *ast.Field, method bool) string {
	var names []string
	for _, n := range f.Names {
		names = append(names, n.Name)
	}
	t := nodeString(fset, f.Type)
	if method && len(names) > 0 {
		return names[0] + strings.TrimPrefix(t, "func")
	}
	return strings.TrimSpace(strings.Join(names, ", ") + " " + t)
}
