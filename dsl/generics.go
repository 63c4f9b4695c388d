package dsl

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/stdlib/generic"
)

// yaegi v0.16.1 resolves a generic function's type parameter through the
// package scope when it instantiates it, so a type parameter named like a
// type declared in the session (T, E, S, K...) breaks with an internal
// "CFG post-order panic". Type parameters are therefore renamed with a
// prefix nobody uses, in cells and in the interpreted standard sources.

const typeParamPrefix = "_rl_tp_"

// renameTypeParams renames the type parameters of f's generic funcs,
// methods and types.
func renameTypeParams(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			names := declare(d.Type.TypeParams)
			if d.Recv != nil {
				for _, fl := range d.Recv.List {
					for _, id := range recvTypeParams(fl.Type) {
						if id.Name == "_" {
							continue
						}
						names[id.Name] = true
					}
				}
			}
			if len(names) > 0 {
				renameIn(d.Recv, names)
				renameIn(d.Type, names)
				renameIn(d.Body, names)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok && ts.TypeParams != nil {
					names := declare(ts.TypeParams)
					renameIn(ts.TypeParams, names)
					renameIn(ts.Type, names)
				}
			}
		}
	}
}

// declare renames the names of a type parameter list and returns the old
// names.
func declare(fl *ast.FieldList) map[string]bool {
	names := map[string]bool{}
	if fl == nil {
		return names
	}
	for _, f := range fl.List {
		for _, id := range f.Names {
			if id.Name == "_" {
				// A blank type parameter names nothing: renaming it
				// renamed every blank identifier of the body too.
				continue
			}
			names[id.Name] = true
			id.Name = typeParamPrefix + id.Name
		}
	}
	return names
}

func recvTypeParams(t ast.Expr) []*ast.Ident {
	var idx []ast.Expr
	switch t := t.(type) {
	case *ast.StarExpr:
		return recvTypeParams(t.X)
	case *ast.IndexExpr:
		idx = []ast.Expr{t.Index}
	case *ast.IndexListExpr:
		idx = t.Indices
	}
	var out []*ast.Ident
	for _, e := range idx {
		if id, ok := e.(*ast.Ident); ok {
			out = append(out, id)
		}
	}
	return out
}

// renameIn renames uses of names in n, leaving alone what only looks like
// them: selectors, field and parameter names, composite literal keys.
func renameIn(n ast.Node, names map[string]bool) {
	if n == nil || isNilNode(n) {
		return
	}
	var walk func(ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, walk)
			return false
		case *ast.KeyValueExpr:
			if _, ok := n.Key.(*ast.Ident); !ok {
				ast.Inspect(n.Key, walk)
			}
			ast.Inspect(n.Value, walk)
			return false
		case *ast.Field:
			ast.Inspect(n.Type, walk)
			return false
		case *ast.Ident:
			if names[n.Name] {
				n.Name = typeParamPrefix + n.Name
			}
		}
		return true
	}
	ast.Inspect(n, walk)
}

// loadGenericSources compiles again yaegi's interpreted slices, maps and cmp
// packages with renamed type parameters, replacing the versions Use loaded.
func (s *Session) loadGenericSources() error {
	for _, src := range generic.Sources {
		// Their imports are in effect from the first load.
		if err := s.evalRenamed(src, true); err != nil {
			return err
		}
	}
	return nil
}

// evalRenamed compiles and runs trusted package source after renaming its
// type parameters, optionally without its imports.
func (s *Session) evalRenamed(src string, dropImports bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	f, err := parser.ParseFile(s.in.FileSet(), "_.go", src, parser.ParseComments)
	if err != nil {
		return err
	}
	if dropImports {
		var decls []ast.Decl
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); !ok || gd.Tok != token.IMPORT {
				decls = append(decls, d)
			}
		}
		f.Decls = decls
	}
	renameTypeParams(f)
	prog, err := s.in.CompileAST(f)
	if err != nil {
		return err
	}
	_, err = s.in.Execute(prog)
	return err
}

func isNilNode(n ast.Node) bool {
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// sourceDocs indexes the exported funcs of the interpreted standard
// packages (slices, maps, cmp) for completion and inspection.
func (s *Session) sourceDocs() map[string]map[string]string {
	s.srcDocsOnce.Do(func() {
		s.srcDocs = map[string]map[string]string{}
		srcs := append(generic.Sources[:], preludeSlices, preludeMaps)
		for _, src := range srcs {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
			if err != nil {
				continue
			}
			m := s.srcDocs[f.Name.Name]
			if m == nil {
				m = map[string]string{}
				s.srcDocs[f.Name.Name] = m
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && ast.IsExported(fd.Name.Name) {
					m[fd.Name.Name] = strings.TrimSpace(signature(fset, fd) + "\n\n" + fd.Doc.Text())
				}
			}
		}
	})
	return s.srcDocs
}

func (s *Session) sourceFuncs(p string) []string {
	var out []string
	for name := range s.sourceDocs()[p] {
		out = append(out, name)
	}
	return out
}

func (s *Session) sourceDoc(p, name string) (string, bool) {
	d, ok := s.sourceDocs()[p][name]
	return d, ok
}
