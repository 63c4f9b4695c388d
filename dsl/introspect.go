package dsl

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// introspection are the functions of the runtime through which a Go program
// looks at itself, with why an interpreted cell cannot get Go's answer from
// them. A cell's frames are the interpreter's frames (reflect.Value.Call and
// yaegi's own functions, not the cell's functions, files and lines), and the
// memory statistics count the interpreter's allocations with the cell's.
// Go would give these programs one answer and the interpreter another, so a
// cell that names one is refused rather than run to a wrong answer.
var introspection = map[string]map[string]string{
	"runtime": {
		"Caller":        "the interpreter cannot report a cell's own frames",
		"Callers":       "the interpreter cannot report a cell's own frames",
		"CallersFrames": "the interpreter cannot report a cell's own frames",
		"FuncForPC":     "a cell's functions have no program counter of their own in the interpreter",
		"Stack":         "the interpreter cannot report a cell's own frames",
		"ReadMemStats":  "the interpreter's own allocations are counted with a cell's",
	},
	"runtime/debug": {
		"Stack":      "the interpreter cannot report a cell's own frames",
		"PrintStack": "the interpreter cannot report a cell's own frames",
	},
}

// introspectionErrors refuse every use of an introspection function in f,
// as a compile error at the name ("runtime.Caller: the interpreter cannot
// report a cell's own frames; routelab refuses it"); a function value taken
// of one is a use too.
func introspectionErrors(fset *token.FileSet, f *ast.File, info *types.Info) []types.Error {
	var errs []types.Error
	ast.Inspect(f, func(n ast.Node) bool {
		// Another package's function is named by a qualified identifier.
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		fn, ok := info.Uses[sel.Sel].(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Signature().Recv() != nil {
			return true
		}
		if why := introspection[fn.Pkg().Path()][fn.Name()]; why != "" {
			errs = append(errs, types.Error{Fset: fset, Pos: sel.Pos(), Msg: fn.Pkg().Name() + "." + fn.Name() + ": " + why + "; routelab refuses it"})
		}
		return true
	})
	return errs
}

// introspectionSymbols replace the introspection functions in the
// interpreter's tables with ones that panic with the refusal: a cell that
// the type checker skips (it uses a library without type information)
// fails loudly there instead of getting the interpreter's frames.
func introspectionSymbols() interp.Exports {
	ex := interp.Exports{}
	for p, fns := range introspection {
		key := p + "/" + path.Base(p)
		ex[key] = map[string]reflect.Value{}
		for name, why := range fns {
			msg := path.Base(p) + "." + name + ": " + why + "; routelab refuses it"
			ex[key][name] = reflect.MakeFunc(stdlib.Symbols()[key][name].Type(), func([]reflect.Value) []reflect.Value { panic(msg) })
		}
	}
	return ex
}

// cellTypeErrors refuse what would show the name of a type declared in the
// session: the interpreter builds its types with reflect, which names none
// of them (fmt's %T of a main.foo prints its structure, struct { … }, and
// reflect's Name, PkgPath and the fields' PkgPath are empty), and exports
// their unexported fields under other names. Refused where the type is
// known before the cell runs: an operand of %T or %#v in a constant fmt
// format, of %+v when it holds such a field, and the names reflect.Type
// gives (Name, PkgPath, String, Field…) of reflect.TypeOf(x) or
// reflect.ValueOf(x).Type() with x of a type that mentions one.
func cellTypeErrors(fset *token.FileSet, f *ast.File, info *types.Info) []types.Error {
	var errs []types.Error
	refuse := func(at ast.Node, what string, t types.Type) {
		errs = append(errs, types.Error{Fset: fset, Pos: at.Pos(), Msg: what + " of a value of type " + t.String() + ": the interpreter's types have no name or package in reflect; routelab refuses it"})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fn := calledFunc(info, call.Fun); {
		case fn == nil:
		case fn.Pkg().Path() == "fmt":
			format, ok := formatArg[fn.Name()]
			if !ok || len(call.Args) <= format || call.Ellipsis.IsValid() {
				break
			}
			tv := info.Types[call.Args[format]]
			if tv.Value == nil || tv.Value.Kind() != constant.String {
				break
			}
			for i, verb := range formatVerbs(constant.StringVal(tv.Value)) {
				k := format + 1 + i
				if k >= len(call.Args) {
					break
				}
				t := info.TypeOf(call.Args[k])
				switch {
				case t == nil:
				case (verb == 'T' || verb == '#') && mentionsCellType(t):
					refuse(call.Args[k], "fmt's %"+map[rune]string{'T': "T", '#': "#v"}[verb], t)
				case verb == '+' && unexportedCellField(t, map[types.Type]bool{}):
					// The interpreter exports such fields under another name.
					refuse(call.Args[k], "fmt's %+v", t)
				}
			}
		case fn.Pkg().Path() == "reflect" && fn.Signature().Recv() != nil && typeNaming[fn.Name()]:
			// reflect.TypeOf(x).Name(), reflect.ValueOf(x).Type().Field(0), …
			if x := reflectedValue(info, ast.Unparen(call.Fun).(*ast.SelectorExpr).X); x != nil {
				t := info.TypeOf(x)
				switch {
				case t == nil:
				case mentionsCellType(t):
					refuse(call, "reflect's Type."+fn.Name(), t)
				case ownName[fn.Name()] && types.IsInterface(t) && mayHoldCellType(info, t):
					// The interface may hold a value of a session's type,
					// whose name would be "" or its underlying type's.
					refuse(call, "reflect's Type."+fn.Name(), t)
				}
			}
		}
		return true
	})
	return errs
}

// typeNaming are the methods of reflect.Type that show a type's or its
// fields' names.
var typeNaming = map[string]bool{"Name": true, "PkgPath": true, "String": true, "Field": true, "FieldByName": true, "FieldByIndex": true}

// ownName are the methods of reflect.Type that give a type's own name,
// which a type made by the interpreter never has; String spells the
// type's structure, which code compares between values.
var ownName = map[string]bool{"Name": true, "PkgPath": true}

// mayHoldCellType reports whether a value of interface type t may hold a
// value of a type the session declares (one of the cell's, or of the
// package main the cell is checked in): a named type, not an interface,
// that implements t, itself or its pointer. A generic type may, for an
// empty interface.
func mayHoldCellType(info *types.Info, t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	var main *types.Package
	declared := func(obj types.Object) bool {
		if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "main" {
			return false
		}
		main = obj.Pkg()
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.IsAlias() {
			return false
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || types.IsInterface(n) {
			return false
		}
		if n.TypeParams().Len() > 0 {
			return iface.Empty()
		}
		return types.Implements(n, iface) || types.Implements(types.NewPointer(n), iface)
	}
	for _, obj := range info.Defs {
		if declared(obj) {
			return true
		}
	}
	if main != nil {
		for _, name := range main.Scope().Names() {
			if declared(main.Scope().Lookup(name)) {
				return true
			}
		}
	}
	return false
}

// reflectedValue is x when e is reflect.TypeOf(x) or
// reflect.ValueOf(x).Type(), else nil.
func reflectedValue(info *types.Info, e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := calledFunc(info, call.Fun)
	switch {
	case fn == nil || fn.Pkg().Path() != "reflect":
	case fn.Name() == "TypeOf" && len(call.Args) == 1:
		return call.Args[0]
	case fn.Name() == "Type" && fn.Signature().Recv() != nil:
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok || len(inner.Args) != 1 {
			return nil
		}
		if vf := calledFunc(info, inner.Fun); vf != nil && vf.Pkg().Path() == "reflect" && vf.Name() == "ValueOf" {
			return inner.Args[0]
		}
	}
	return nil
}

// formatArg is the index of the format argument of fmt's formatting
// functions.
var formatArg = map[string]int{"Printf": 0, "Sprintf": 0, "Errorf": 0, "Fprintf": 1, "Appendf": 1}

// calledFunc is the function a call's Fun names, a package's or a method.
func calledFunc(info *types.Info, fun ast.Expr) *types.Func {
	var id *ast.Ident
	switch e := ast.Unparen(fun).(type) {
	case *ast.SelectorExpr:
		id = e.Sel
	case *ast.Ident:
		id = e
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	return fn
}

// formatVerbs are the verbs of a format, one for each operand it takes in
// order ('#' for %#v, '+' for %+v, '*' for a width or precision operand); nil when the
// format indexes its operands explicitly ([n]), which this does not follow.
func formatVerbs(format string) []rune {
	var verbs []rune
	rs := []rune(format)
	for i := 0; i < len(rs); i++ {
		if rs[i] != '%' {
			continue
		}
		sharp, plus := false, false
	verb:
		for i++; i < len(rs); i++ {
			switch c := rs[i]; {
			case c == '[':
				return nil
			case c == '#':
				sharp = true
			case c == '+':
				plus = true
			case c == '*':
				verbs = append(verbs, '*')
			case strings.ContainsRune("+- 0.", c) || c >= '0' && c <= '9':
			default:
				switch {
				case c == 'v' && sharp:
					c = '#'
				case c == 'v' && plus:
					c = '+'
				}
				if c != '%' {
					verbs = append(verbs, c)
				}
				break verb
			}
		}
	}
	return verbs
}

// unexportedCellField reports whether a value of type t holds a struct of
// the session's with an unexported field, whose name %+v would print.
func unexportedCellField(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == "main" {
			return unexportedCellField(t.Underlying(), seen)
		}
	case *types.Pointer:
		return unexportedCellField(t.Elem(), seen)
	case *types.Slice:
		return unexportedCellField(t.Elem(), seen)
	case *types.Array:
		return unexportedCellField(t.Elem(), seen)
	case *types.Map:
		return unexportedCellField(t.Key(), seen) || unexportedCellField(t.Elem(), seen)
	case *types.Struct:
		for i := range t.NumFields() {
			if f := t.Field(i); !f.Exported() && f.Pkg() != nil && f.Pkg().Path() == "main" || unexportedCellField(f.Type(), seen) {
				return true
			}
		}
	}
	return false
}

// mentionsCellType reports whether t is, or is built from, a type declared
// in the session (package main).
func mentionsCellType(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == "main" {
			return true
		}
		for i := range t.TypeArgs().Len() {
			if mentionsCellType(t.TypeArgs().At(i)) {
				return true
			}
		}
	case *types.Pointer:
		return mentionsCellType(t.Elem())
	case *types.Slice:
		return mentionsCellType(t.Elem())
	case *types.Array:
		return mentionsCellType(t.Elem())
	case *types.Chan:
		return mentionsCellType(t.Elem())
	case *types.Map:
		return mentionsCellType(t.Key()) || mentionsCellType(t.Elem())
	case *types.Struct:
		for i := range t.NumFields() {
			if mentionsCellType(t.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}
