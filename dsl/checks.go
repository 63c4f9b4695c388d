package dsl

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// Checks made when a cell is prepared, before any of its chunks runs.

// renameMain turns a user's func main into _rl_main, which runs once after
// the cell: yaegi would otherwise run main again after every later cell.
// Its statements are instrumented like a cell's top level, so an error in a
// script's main points at the statement that failed.
func (s *Session) renameMain(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			fd.Name.Name = "_rl_main"
			if fd.Body != nil {
				s.instrument(fd.Body)
			}
			return true
		}
	}
	return false
}

// checkImports drops imports already in effect and rejects conflicting or
// unavailable ones. imports is updated as if the chunk had run.
func (s *Session) checkImports(u *unit, imports map[string]string) error {
	for _, d := range u.file.Decls {
		gd := d.(*ast.GenDecl)
		var keep []ast.Spec
		for _, sp := range gd.Specs {
			is := sp.(*ast.ImportSpec)
			p, _ := strconv.Unquote(is.Path.Value)
			name := s.packageName(p)
			if is.Name != nil {
				name = is.Name.Name
			}
			switch {
			case name == ".":
				return s.posErr(is.Pos(), "dot imports are not supported in cells: import %q and write %s.Name", p, s.packageName(p))
			case !s.available(p):
				return s.posErr(is.Path.Pos(), "%s", unavailable(p))
			case name == "_":
				continue
			case imports[name] == p:
				continue
			case imports[name] != "":
				return s.posErr(is.Pos(), "import %q: the name %s already refers to %q; import it under another name, e.g. import %s2 %q", p, name, imports[name], name, p)
			}
			imports[name] = p
			u.imports = append(u.imports, [2]string{name, p})
			keep = append(keep, sp)
		}
		gd.Specs = keep
	}
	var decls []ast.Decl
	for _, d := range u.file.Decls {
		if len(d.(*ast.GenDecl).Specs) > 0 {
			decls = append(decls, d)
		}
	}
	u.file.Decls = decls
	return nil
}

func unavailable(p string) string {
	return fmt.Sprintf("package %q is not available in cells: the standard library and the session's libraries are; other packages must be compiled in as libraries", p)
}

// checkRedefinitions drops declarations identical to the session's (a cell
// run again) and refuses what cannot change in a running session: a type
// (values of the old type would keep it), the signature of a method, or the
// kind of a name. Funcs, consts and method bodies may change
// (afterRedefinitions follows up).
func (s *Session) checkRedefinitions(u *unit, imports map[string]string) error {
	drop := map[string]bool{}
	var kept []*symbol
	for _, sym := range u.syms {
		old := s.syms.get(sym.Name)
		switch {
		case imports[sym.Name] != "" && sym.Kind != symMethod:
			return s.symErr(sym, "%s is the name of the imported package %q; choose another name", sym.Name, imports[sym.Name])
		case old == nil:
		case old.Norm == sym.Norm:
			drop[sym.Name] = true
			continue
		case old.Kind != sym.Kind:
			return s.symErr(sym, "%s is already declared as a %s in %s; choose another name", sym.Name, old.Kind, s.cellName(old.Cell))
		case sym.Kind == symType:
			return s.symErr(sym, "type %s is already defined in %s and cannot change in a running session (values and methods of the old type would keep it): give the new type another name, or restart the session", sym.Name, s.cellName(old.Cell))
		case sym.Kind == symMethod && old.SigTypes != sym.SigTypes:
			return s.symErr(sym, "method %s is already defined in %s as %s; its signature cannot change in a running session (only its body can): give the new method another name, or restart the session", sym.Name, s.cellName(old.Cell), strings.TrimSpace(old.Sig))
		default:
			if u.changed == nil {
				u.changed = map[string]*symbol{}
			}
			u.changed[sym.Name] = old
		}
		kept = append(kept, sym)
	}
	u.syms = kept
	if len(drop) > 0 {
		dropDecls(u.file, drop)
	}
	return nil
}

func dropDecls(f *ast.File, drop map[string]bool) {
	var decls []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name = recvName(d.Recv.List[0].Type) + "." + name
			}
			if drop[name] {
				continue
			}
		case *ast.GenDecl:
			var specs []ast.Spec
			for _, sp := range d.Specs {
				if !drop[specName(sp)] {
					specs = append(specs, sp)
				}
			}
			if len(specs) == 0 {
				continue
			}
			d.Specs = specs
		}
		decls = append(decls, d)
	}
	f.Decls = decls
}

// specName names a type spec or the first name of a value spec; a value
// spec is dropped only when all of its names are unchanged, which the
// comparison of the whole spec guarantees.
func specName(sp ast.Spec) string {
	switch sp := sp.(type) {
	case *ast.TypeSpec:
		return sp.Name.Name
	case *ast.ValueSpec:
		return sp.Names[0].Name
	}
	return ""
}

// rejectTopLevelDefer refuses defer outside functions: the statements of a
// cell run on yaegi's global frame, whose deferred calls run again at the
// end of every later cell.
func rejectTopLevelDefer(rw *rewriter, body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			rw.fail(n.Pos(), "defer outside a function is not supported in cells: it would run again at the end of every later cell; put the code in a function")
		}
		return true
	})
}

// checkVariables refuses a variable declared at the top level of a cell
// under a name the session gives to something else (a type, func or
// constant, or an imported package): at package level Go calls that a
// redeclaration, and the interpreter would shadow the declaration.
func (s *Session) checkVariables(u *unit, imports map[string]string) error {
	for _, st := range u.body.List {
		for _, id := range definedNames(st) {
			if sym := s.syms.get(id.Name); sym != nil && sym.Kind != symVar {
				return s.posErr(id.Pos(), "%s is already declared as a %s in %s; choose another name", id.Name, sym.Kind, s.cellName(sym.Cell))
			}
			if p, ok := imports[id.Name]; ok && !strings.HasPrefix(id.Name, "_rl") {
				return s.posErr(id.Pos(), "%s is the name of the imported package %q; choose another name", id.Name, p)
			}
		}
	}
	return nil
}

// definedNames are the variables a top-level statement declares.
func definedNames(st ast.Stmt) []*ast.Ident {
	var out []*ast.Ident
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					out = append(out, id)
				}
			}
		}
	case *ast.DeclStmt:
		if gd, ok := st.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					if id.Name != "_" {
						out = append(out, id)
					}
				}
			}
		}
	}
	return out
}
