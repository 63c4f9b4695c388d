package dsl

import (
	"fmt"
	"go/ast"
	"reflect"
	"strings"
)

// vtype is what completion knows of a type: a compiled type (rtype), a type
// declared in a cell (declType), a type written as a literal in a cell
// (astType), or a pointer to one of the last two (ptrType).
type vtype interface {
	// kind is the kind of the underlying type (Invalid when unknown).
	kind() reflect.Kind
	// members are the fields and methods a selector may name.
	members() []string
	// member is the type of a field, or the func type of a method; nil
	// when there is no such member.
	member(name string) vtype
	// results are the results of a func type.
	results() []vtype
	// elem is the element of a pointer, slice, array, map or channel.
	elem() vtype
	// key is the key of a map.
	key() vtype
	// describe is Inspect's text for a member: its signature and doc.
	describe(name string) string
}

func member(t vtype, name string) vtype {
	if t == nil {
		return nil
	}
	return t.member(name)
}

func elem(t vtype) vtype {
	if t == nil {
		return nil
	}
	return t.elem()
}

// indexed is the type of x[i] for x of type t.
func indexed(t vtype) vtype {
	if t != nil && t.kind() == reflect.Pointer {
		if t = t.elem(); t == nil || t.kind() != reflect.Array {
			return nil
		}
	}
	if t == nil {
		return nil
	}
	switch t.kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return t.elem()
	}
	return nil
}

// enter starts one more step through names and types; false when the
// answer has gone too deep or taken too many steps (see maxDepth). leave
// ends the step.
func (ty *typer) enter() bool {
	if ty.depth >= maxDepth || ty.steps >= maxSteps {
		return false
	}
	ty.depth++
	ty.steps++
	return true
}

func (ty *typer) leave() { ty.depth-- }

func (ty *typer) reflectType(t reflect.Type) vtype {
	if t == nil {
		return nil
	}
	return rtype{ty: ty, t: t}
}

func (ty *typer) pointerTo(t vtype) vtype {
	switch t := t.(type) {
	case nil:
		return nil
	case rtype:
		if !t.fieldsOnly {
			return ty.reflectType(reflect.PointerTo(t.t))
		}
	}
	return &ptrType{ty: ty, to: t}
}

// rtype is a type reflect knows whole.
type rtype struct {
	ty *typer
	t  reflect.Type
	// fieldsOnly marks the underlying type of a cell's type defined from
	// a compiled one: it has the fields and none of the methods.
	fieldsOnly bool
}

func (r rtype) kind() reflect.Kind { return r.t.Kind() }

// methodSet is the type whose methods a value of r may call, nil if none:
// a variable of type T may call the methods of *T.
func (r rtype) methodSet() reflect.Type {
	switch {
	case r.t.Kind() == reflect.Interface:
		return r.t
	case r.fieldsOnly:
		return nil
	case r.t.Kind() != reflect.Pointer:
		return reflect.PointerTo(r.t)
	case r.t.Elem().Kind() != reflect.Pointer && r.t.Elem().Kind() != reflect.Interface:
		return r.t
	}
	return nil
}

// structOf is the struct whose fields a selector on a value of t reaches.
func structOf(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		return t
	}
	return nil
}

func (r rtype) members() []string {
	var out []string
	if st := structOf(r.t); st != nil {
		for _, f := range reflect.VisibleFields(st) {
			if f.IsExported() {
				out = append(out, f.Name)
			}
		}
	}
	if ms := r.methodSet(); ms != nil {
		for i := 0; i < ms.NumMethod(); i++ {
			if m := ms.Method(i); m.IsExported() {
				out = append(out, m.Name)
			}
		}
	}
	return out
}

func (r rtype) member(name string) vtype {
	if m, ok := r.method(name); ok {
		return r.ty.reflectType(m.Type)
	}
	if f, ok := r.field(name); ok {
		return r.ty.reflectType(f.Type)
	}
	return nil
}

func (r rtype) method(name string) (reflect.Method, bool) {
	if ms := r.methodSet(); ms != nil {
		if m, ok := ms.MethodByName(name); ok && m.IsExported() {
			return m, true
		}
	}
	return reflect.Method{}, false
}

func (r rtype) field(name string) (reflect.StructField, bool) {
	if st := structOf(r.t); st != nil {
		if f, ok := st.FieldByName(name); ok && f.IsExported() {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func (r rtype) results() []vtype {
	if r.t.Kind() != reflect.Func {
		return nil
	}
	out := make([]vtype, r.t.NumOut())
	for i := range out {
		out[i] = r.ty.reflectType(r.t.Out(i))
	}
	return out
}

func (r rtype) elem() vtype {
	switch r.t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map, reflect.Chan:
		return r.ty.reflectType(r.t.Elem())
	}
	return nil
}

func (r rtype) key() vtype {
	if r.t.Kind() != reflect.Map {
		return nil
	}
	return r.ty.reflectType(r.t.Key())
}

// describe gives a method's entry in its package's documentation index
// (found through embedded fields for promoted methods), or else its
// signature; a field's name and type.
func (r rtype) describe(name string) string {
	if m, ok := r.method(name); ok {
		if d := r.ty.methodDoc(r.t, name); d != "" {
			return d
		}
		return methodSignature(r.methodSet(), m)
	}
	if f, ok := r.field(name); ok {
		return fmt.Sprintf("%s %s\n\nfield of %s", f.Name, f.Type, structOf(r.t))
	}
	return ""
}

// methodDoc looks a method up in the documentation index of the package of
// the type that declares it.
func (ty *typer) methodDoc(t reflect.Type, name string) string {
	if !ty.enter() {
		return ""
	}
	defer ty.leave()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() != "" {
		if d, ok := ty.s.docs[t.PkgPath()][t.Name()+"."+name]; ok {
			return d
		}
	}
	if t.Kind() != reflect.Struct {
		return ""
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if ms := (rtype{t: f.Type}).methodSet(); f.Anonymous && ms != nil {
			if _, ok := ms.MethodByName(name); ok {
				return ty.methodDoc(f.Type, name)
			}
		}
	}
	return ""
}

// methodSignature spells a method from reflect: func (T) Name(params) results.
func methodSignature(recv reflect.Type, m reflect.Method) string {
	skip := 1 // a concrete type's method has its receiver first
	if recv.Kind() == reflect.Interface {
		skip = 0
	}
	var in, out []string
	for i := skip; i < m.Type.NumIn(); i++ {
		in = append(in, m.Type.In(i).String())
	}
	if m.Type.IsVariadic() && len(in) > 0 {
		in[len(in)-1] = "..." + m.Type.In(m.Type.NumIn()-1).Elem().String()
	}
	for i := 0; i < m.Type.NumOut(); i++ {
		out = append(out, m.Type.Out(i).String())
	}
	res := strings.Join(out, ", ")
	if len(out) > 1 {
		res = "(" + res + ")"
	}
	return strings.TrimSpace(fmt.Sprintf("func (%s) %s(%s) %s", recv, m.Name, strings.Join(in, ", "), res))
}

// ptrType is a pointer to a type reflect does not know whole. A selector
// goes through it, unless it points to a pointer or an interface.
type ptrType struct {
	ty *typer
	to vtype
}

func (p *ptrType) kind() reflect.Kind { return reflect.Pointer }

func (p *ptrType) through() vtype {
	if k := p.to.kind(); k == reflect.Pointer || k == reflect.Interface {
		return nil
	}
	return p.to
}

func (p *ptrType) members() []string {
	if t := p.through(); t != nil {
		return t.members()
	}
	return nil
}

func (p *ptrType) member(name string) vtype { return member(p.through(), name) }
func (p *ptrType) results() []vtype         { return nil }
func (p *ptrType) elem() vtype              { return p.to }
func (p *ptrType) key() vtype               { return nil }

func (p *ptrType) describe(name string) string {
	if t := p.through(); t != nil {
		return t.describe(name)
	}
	return ""
}

// embeddedName is the field name of an embedded type.
func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return embeddedName(e.X)
	case *ast.IndexListExpr:
		return embeddedName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}
