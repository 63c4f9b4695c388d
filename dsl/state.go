package dsl

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"path"
	"reflect"
	"sort"
	"strings"
)

const reflectFunc = reflect.Func

// genericSources are the standard packages yaegi provides as interpreted
// (generic) source rather than compiled symbols.
var genericSources = map[string]bool{"slices": true, "maps": true, "cmp": true, "iter": true}

// packageName is the name a package is imported under by default.
func (s *Session) packageName(p string) string {
	if n, ok := s.names[p]; ok {
		return n
	}
	return path.Base(p)
}

func (s *Session) available(p string) bool {
	_, ok := s.exports[p]
	return (ok && p != runtimePath) || genericSources[p]
}

func (s *Session) newRewriter() *rewriter {
	return &rewriter{types: s, imports: s.syms.importsCopy(), disabled: s.disabledPasses}
}

// record adds what a chunk that ran declared to the session's table.
func (s *Session) record(u *unit, rw *rewriter) {
	for _, im := range u.imports {
		s.syms.addImport(im[0], im[1])
	}
	for _, sym := range u.syms {
		delete(s.failedDecls, sym.Name)
		sym.Cell = s.cells
		sym.SrcLine, sym.SrcCol = u.srcPos(s, sym)
		s.syms.put(sym)
	}
	s.recordValueUses(u)
	if u.body == nil {
		return
	}
	sc := newScope(nil)
	for _, st := range u.body.List {
		for _, sym := range s.stmtSymbols(u, st, rw, sc) {
			s.syms.put(sym)
		}
	}
}

// recordValueUses notes the top-level statements of a chunk that take a
// session func as a value (not calling it), so that a redefinition can name
// them.
// noteFailedDecls remembers the names a declaration chunk that did not
// compile would have declared (and that nothing declares yet), so that
// "undefined: name" in a later cell says where it was meant to come from.
func (s *Session) noteFailedDecls(u *unit) {
	for _, sym := range u.syms {
		if sym.Kind == symMethod || s.syms.get(sym.Name) != nil {
			continue
		}
		if s.failedDecls == nil {
			s.failedDecls = map[string]int{}
		}
		s.failedDecls[sym.Name] = s.cells
	}
}

// noteFailedStatements remembers the variables that the statements of a
// chunk from line:col on were to declare: the statement there failed.
func (s *Session) noteFailedStatements(u *unit, line, col int) {
	if u.body == nil {
		return
	}
	for _, st := range u.body.List {
		_, l, c := s.cellPosition(st.Pos())
		if l < line || (l == line && c < col) {
			continue
		}
		for _, id := range definedNames(st) {
			if s.syms.get(id.Name) == nil && s.check.objects[id.Name] == nil {
				if s.failedDecls == nil {
					s.failedDecls = map[string]int{}
				}
				s.failedDecls[id.Name] = s.cells
			}
		}
	}
}

func (s *Session) recordValueUses(u *unit) {
	if u.body == nil {
		return // a function body takes the current definition each time it runs
	}
	for _, st := range u.body.List {
		for _, name := range funcValues(st, s.syms) {
			s.syms.addValueUse(name, valueUse{Cell: s.cells, Text: u.source(s, st)})
		}
	}
}

// funcValues returns the session funcs that st uses as values: named
// anywhere but as the function of a call or as a selector's name.
func funcValues(st ast.Stmt, syms *symtab) []string {
	called := map[*ast.Ident]bool{}
	seen := map[string]bool{}
	var out []string
	var visit func(ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				called[id] = true
			}
		case *ast.SelectorExpr:
			ast.Inspect(n.X, visit)
			return false
		case *ast.Ident:
			if sym := syms.get(n.Name); sym != nil && sym.Kind == symFunc && !called[n] && !seen[n.Name] {
				seen[n.Name] = true
				out = append(out, n.Name)
			}
		}
		return true
	}
	ast.Inspect(st, visit)
	return out
}

// srcPos is where a declaration's text starts in its cell.
func (u *unit) srcPos(s *Session, sym *symbol) (int, int) {
	off := strings.Index(u.Text, sym.Src)
	if off < 0 {
		return sym.Line, 1
	}
	l, c := lineCol(u.Text, off)
	if l == 1 {
		c += u.Col - 1
	}
	return l + u.Line - 1, c
}

// stmtSymbols describes the variables a top-level statement defines.
func (s *Session) stmtSymbols(u *unit, st ast.Stmt, rw *rewriter, sc *scope) []*symbol {
	fset := s.in.FileSet()
	text := func(n ast.Node) string {
		f := fset.File(n.Pos())
		lo, hi := f.Offset(n.Pos())-u.prefix, f.Offset(n.End())-u.prefix
		if lo < 0 || hi > len(u.Text) || lo > hi {
			return ""
		}
		return u.Text[lo:hi]
	}
	var out []*symbol
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE {
			return nil
		}
		for _, l := range st.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" {
				continue
			}
			sym := &symbol{Kind: symVar, Name: id.Name, Cell: s.cells, Src: text(st)}
			out = append(out, place(fset, sym, id.Pos()))
		}
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok {
			return nil
		}
		for _, sym := range genSymbols(fset, gd, func(n ast.Node, _ *ast.CommentGroup) string { return text(n) }) {
			sym.Cell = s.cells
			out = append(out, sym)
		}
	}
	return out
}

// afterRedefinitions follows up the redefinitions a chunk made. The
// interpreter already binds every call of a function or method redefined
// with the same signature to the new definition. Funcs and methods that use
// a constant or a function whose signature changed are compiled again (a
// constant is compiled into its users; a function with a new signature is a
// new function), and function values taken from a changed function, which
// keep the definition they were given, are named in a note.
func (s *Session) afterRedefinitions(r *cellRun, u *unit) {
	if len(u.changed) == 0 {
		return
	}
	recompile := map[string]bool{}
	for name, old := range u.changed {
		cur := s.syms.get(name)
		if old.Kind == symConst || (old.Kind == symFunc && cur != nil && cur.SigTypes != old.SigTypes) {
			recompile[name] = true
		}
		if old.Kind == symFunc {
			s.noteValueUses(name)
		}
	}
	if len(recompile) == 0 {
		return
	}
	names := sortedKeys(recompile)
	for _, dep := range s.syms.dependents(recompile) {
		if err := s.recompile(r, dep); err != nil {
			fmt.Fprintf(s.out.errW, "note: %s (%s) uses %s, which changed, and no longer compiles: %v; it keeps using the old definition\n", dep.Name, s.cellName(dep.Cell), strings.Join(names, ", "), err)
		}
	}
}

// noteValueUses names the function values taken from name before it was
// redefined: they keep the old definition.
func (s *Session) noteValueUses(name string) {
	for _, use := range s.syms.valueUses(name) {
		if use.Cell >= s.cells {
			continue
		}
		fmt.Fprintf(s.out.errW, "note: %s (%s) took %s as a value, which keeps the definition %s had then; run that cell again, or pass func(...) { return %s(...) } to follow redefinitions\n",
			use.Text, s.cellName(use.Cell), name, name, name)
	}
}

func (s *Session) recompile(r *cellRun, sym *symbol) error {
	u, err := s.parseAt(chunk{Kind: declChunk, Text: sym.Src, Line: sym.SrcLine, Col: sym.SrcCol}, sym.Cell)
	if err != nil {
		return err
	}
	rw := s.newRewriter()
	s.rewrite(rw, u)
	if rw.err != nil {
		return rw.err
	}
	prog, err := s.compile(u.file, rw)
	if err != nil {
		return s.compileFailure(err)
	}
	return s.execute(r, prog)
}

// classOf implements typeOracle: session consts and funcs from their
// declarations, variables from their current values.
func (s *Session) classOf(name string) class {
	if base, ok := strings.CutSuffix(name, "()"); ok {
		if sym := s.syms.get(base); sym != nil && sym.Kind == symFunc {
			return sym.Class
		}
		return unknownClass
	}
	sym := s.syms.get(name)
	if sym == nil {
		return unknownClass
	}
	switch sym.Kind {
	case symConst:
		return sym.Class
	case symFunc:
		return funcClass
	case symVar:
		if v, ok := s.in.Globals()[name]; ok && v.IsValid() {
			return kindClass(v.Type())
		}
	}
	return unknownClass
}

// libClass implements typeOracle from compiled symbols.
func (s *Session) libClass(p, name string) class {
	base, call := strings.CutSuffix(name, "()")
	v, ok := s.exports[p][base]
	if !ok || !v.IsValid() {
		return unknownClass
	}
	if call {
		if v.Kind() == reflect.Func && v.Type().NumOut() == 1 {
			return kindClass(v.Type().Out(0))
		}
		return unknownClass
	}
	if c, ok := v.Interface().(constant.Value); ok {
		if c.Kind() == constant.Int {
			return intClass
		}
		return otherClass
	}
	if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct {
		return otherClass // a type
	}
	return kindClass(v.Type())
}

func (s *Session) isConst(name string) bool {
	sym := s.syms.get(name)
	return sym != nil && sym.Kind == symConst
}

func kindClass(t reflect.Type) class {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return intClass
	case reflect.Func:
		return funcClass
	case reflect.Invalid:
		return unknownClass
	}
	return otherClass
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// source is the cell's text of a node of the chunk, shortened for messages
// like exprString: the rewrites may have changed the node.
func (u *unit) source(s *Session, n ast.Node) string {
	fset := s.in.FileSet()
	lines := lineStarts(u.Text)
	offset := func(pos token.Pos) int {
		p := fset.Position(pos)
		_, l := splitLine(p.Line)
		rel := l - u.Line
		if rel < 0 || rel >= len(lines) {
			return -1
		}
		if rel == 0 {
			return p.Column - u.Col
		}
		return lines[rel] + p.Column - 1
	}
	a, b := offset(n.Pos()), offset(n.End())
	if a < 0 || b > len(u.Text) || a > b {
		return exprString(n)
	}
	text := strings.Join(strings.Fields(u.Text[a:b]), " ")
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	return text
}
