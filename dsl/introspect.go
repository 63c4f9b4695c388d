package dsl

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"reflect"

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
