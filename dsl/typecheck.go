package dsl

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Go's type checker decides what a cell means. Before any chunk of a cell
// runs, the cell is checked by go/types as part of a package main that
// holds the session's earlier declarations; what Go refuses is refused with
// its message, and what Go accepts is handed to the interpreter with the
// types Go gave it (typed.go). The transformation of a cell into that
// package (docs/dsl.md, "A cell is Go"):
//
//   - the cell's imports, the session's imports and the lab prelude's names
//     (display and friends) are in scope; an unused import is no error;
//   - its func, type and const declarations are package-level declarations,
//     replacing the session's declarations of the same names;
//   - its statements, in order, are the body of one function; a variable
//     they declare at the top level is not an unused variable: it becomes
//     a session variable, a package-level variable of later cells, with the
//     type Go gave it;
//   - a final expression statement is shown, so it is no unused value;
//   - a standard package used without an import is imported (imports.go).
//
// Earlier declarations take part without their bodies: a function of an
// earlier cell is checked once, in its cell.

// goChecker holds what the type checker knows of the session.
type goChecker struct {
	fset *token.FileSet
	imp  *typeImporter
	// objects are the session's package-level names (functions, types,
	// constants, variables) as earlier checks declared them; a cell is
	// checked in a package whose scope holds them.
	objects map[string]types.Object
	// typeDecls are the session's type declarations and methods ("T.m"),
	// function bodies dropped: a cell that adds a method to a type of an
	// earlier cell is checked with that type declared again.
	typeDecls map[string]ast.Decl
	// preludeObjects are the prelude's functions that cells call.
	preludeObjects map[string]types.Object
	// unchecked are import paths of libraries without type information:
	// cells that use them are not type-checked.
	unchecked map[string]bool
}

func newGoChecker(imp *typeImporter, unchecked map[string]bool) *goChecker {
	c := &goChecker{fset: imp.fset, imp: imp, objects: map[string]types.Object{}, typeDecls: map[string]ast.Decl{}, unchecked: unchecked}
	c.preludeObjects = c.checkPrelude()
	return c
}

// checkPrelude declares the prelude's functions that cells call (display
// and friends) once. min, max and clear are Go's builtins to the checker.
func (c *goChecker) checkPrelude() map[string]types.Object {
	f, err := parser.ParseFile(c.fset, "prelude.go", "package main;"+preludeMain, 0)
	if err != nil {
		panic("dsl: prelude does not parse: " + err.Error())
	}
	var decls []ast.Decl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && !strings.HasPrefix(fd.Name.Name, "_rl") && !builtinShadows[fd.Name.Name] {
			fd.Body = nil
			decls = append(decls, fd)
		}
	}
	pkg, err := (&types.Config{Importer: c.imp}).Check("main", c.fset, []*ast.File{{Name: f.Name, Decls: decls}}, nil)
	if err != nil {
		panic("dsl: prelude does not type-check: " + err.Error())
	}
	out := map[string]types.Object{}
	for _, name := range pkg.Scope().Names() {
		out[name] = pkg.Scope().Lookup(name)
	}
	return out
}

var builtinShadows = map[string]bool{"min": true, "max": true, "clear": true}

// cellCheck is what the check of a cell found, for its chunks' rewrites
// and for the session's record once they have run.
type cellCheck struct {
	info  *types.Info
	file  *ast.File
	tfile *token.File
	lines []int // byte offsets of the cell's lines
	// consts are the constant expressions of the cell, by span and kind of
	// node (x++ checks a literal 1 at the span of x).
	consts map[exprKey]types.TypeAndValue
	// defs are the types of the variables top-level statements declare,
	// by the span of the name.
	defs map[span]types.Type
	// initOrder is the place of each package-level variable (by the span of
	// its first name) in Go's initialisation order.
	initOrder map[span]int
	// methodExprs are the method expressions (T.M) of the cell's own
	// methods and of promoted ones (M of a field embedded in T), by span.
	methodExprs map[span]*types.Selection
	// instances are the type arguments Go inferred for the calls and uses
	// of the cell's own generic functions, by the span of the name.
	instances map[span]inferred
	// rangeClasses mark the range loops of the cell over an integer, by the
	// span of the expression.
	rangeClasses map[span]class
	// varDefs are the types of the package-level variables the cell
	// declares, by the span of the name.
	varDefs map[span]types.Type
	// constDefs are the constants the cell declares, by the span of the name.
	constDefs map[span]*types.Const
	body      *ast.BlockStmt // the function holding the cell's statements
	pkg       *types.Package
	// redeclared are the earlier types declared again with the cell.
	redeclared map[string]bool
	// declsUseStatements says the cell's declarations use variables its
	// statements declare: then its chunks run in the cell's order.
	declsUseStatements bool
}

// span is a stretch of the cell: from line:col to line:col.
type span struct{ l1, c1, l2, c2 int }

type exprKey struct {
	span
	kind reflect.Type
}

// check type-checks a cell. It returns nil, nil when the cell cannot be
// checked (it uses a library without type information).
func (s *Session) goCheck(code string, chunks []chunk) (cc *cellCheck, err error) {
	defer func() {
		// A fault of the check must cost the cell, not the session.
		if p := recover(); p != nil {
			cc, err = nil, fmt.Errorf("routelab's Go checker failed on this code (%v); please report it with the cell", p)
		}
	}()
	c := s.check
	if c == nil {
		return nil, nil
	}
	imports := s.syms.importsCopy()
	for name, p := range imports {
		if p == runtimePath {
			delete(imports, name)
		}
	}
	extra := map[string]types.Type{}
	for range 8 {
		cc, errs, err := c.checkCell(s, code, chunks, imports, extra)
		if err != nil || cc == nil {
			return nil, err
		}
		retry, remaining := s.resolveUndefined(cc, errs, imports, extra)
		if retry {
			continue
		}
		if len(remaining) == 0 {
			// What Go's compiler refuses after go/types, and what routelab
			// refuses, for a cell Go would accept.
			remaining = append(frameErrors(c.fset, cc.file, cc.info), introspectionErrors(c.fset, cc.file, cc.info)...)
			remaining = append(remaining, chanElemErrors(c.fset, cc.file, cc.info)...)
			remaining = append(remaining, cellTypeErrors(c.fset, cc.file, cc.info)...)
		}
		if len(remaining) > 0 {
			s.noteFailedCheck(cc)
			return nil, s.typeErrors(cc, remaining, code)
		}
		cc.declsUseStatements = len(extra) > 0
		return cc, nil
	}
	return nil, nil
}

// checkCell builds and checks the package of a cell.
func (c *goChecker) checkCell(s *Session, code string, chunks []chunk, imports map[string]string, extra map[string]types.Type) (*cellCheck, []types.Error, error) {
	var src strings.Builder
	src.WriteString("package main\n")
	for _, kind := range []chunkKind{importChunk, declChunk} {
		for _, ch := range chunks {
			if ch.Kind == kind {
				fmt.Fprintf(&src, "//line cell:%d:%d\n%s\n", ch.Line, ch.Col, ch.Text)
			}
		}
	}
	src.WriteString("func _rl_cell() {\n")
	for _, ch := range chunks {
		if ch.Kind == stmtChunk {
			fmt.Fprintf(&src, "//line cell:%d:%d\n%s\n", ch.Line, ch.Col, ch.Text)
		}
	}
	src.WriteString("}\n")
	f, err := parser.ParseFile(c.fset, "cell", src.String(), parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err // the pipeline's own parse reports syntax errors
	}
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); c.unchecked[p] {
			return nil, nil, nil
		}
	}
	// The session's imports that the cell uses (imports are per file).
	own := cellImportNames(chunks)
	var sessionImports []ast.Decl
	for name := range selectorBases(f) {
		if p, ok := imports[name]; ok && !own[name] {
			if c.unchecked[p] {
				return nil, nil, nil
			}
			sessionImports = append(sessionImports, importDecl(name, p))
		}
	}
	f.Decls = append(sessionImports, f.Decls...)
	cc := &cellCheck{
		file: f, tfile: c.fset.File(f.Pos()), lines: lineStarts(code),
		consts: map[exprKey]types.TypeAndValue{}, defs: map[span]types.Type{}, constDefs: map[span]*types.Const{}, initOrder: map[span]int{}, varDefs: map[span]types.Type{}, methodExprs: map[span]*types.Selection{}, instances: map[span]inferred{}, rangeClasses: map[span]class{},
		info: &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Instances:  map[*ast.Ident]types.Instance{},
			InitOrder:  nil,
		},
	}
	cc.body = f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body
	declared := declaredNames(f)
	cc.redeclared = c.extended(declared)
	cc.pkg = types.NewPackage("main", "main")
	for name, obj := range c.objects {
		if declared[name] || cc.redeclared[name] {
			continue
		}
		if t := extra[name]; t != nil {
			obj = types.NewVar(token.NoPos, cc.pkg, name, t)
		}
		cc.pkg.Scope().Insert(obj)
	}
	for name, t := range extra {
		if c.objects[name] == nil {
			cc.pkg.Scope().Insert(types.NewVar(token.NoPos, cc.pkg, name, t))
		}
	}
	for name, obj := range c.preludeObjects {
		if !declared[name] && c.objects[name] == nil {
			cc.pkg.Scope().Insert(obj)
		}
	}
	var errs []types.Error
	for _, d := range f.Decls {
		// Go's compiler refuses these; go/types leaves them to it.
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
			errs = append(errs, types.Error{Fset: c.fset, Pos: fd.Name.Pos(), Msg: "missing function body"})
		}
	}
	conf := types.Config{
		Importer:  c.imp,
		GoVersion: "go1.26",
		Error: func(err error) {
			e := err.(types.Error)
			if n := len(errs); n > 0 && strings.HasPrefix(e.Msg, "\t") {
				// The rest of the error before (other declaration of x).
				errs[n-1].Msg += "\n\t" + strings.TrimPrefix(e.Msg, "\t")
				if p := c.fset.Position(e.Pos); p.Filename == "cell" {
					errs[n-1].Msg += fmt.Sprintf(" (line %d:%d)", p.Line, p.Column)
				}
				return
			}
			errs = append(errs, e)
		},
	}
	files := []*ast.File{c.sessionFile(imports, declared, cc.redeclared), f}
	types.NewChecker(&conf, c.fset, cc.pkg, cc.info).Files(files)
	cc.collect(c.fset)
	return cc, errs, nil
}

// cellImportNames are the names the cell's import chunks import under.
func cellImportNames(chunks []chunk) map[string]bool {
	out := map[string]bool{}
	for _, ch := range chunks {
		if ch.Kind != importChunk {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p;"+ch.Text, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			name := path.Base(p)
			if im.Name != nil {
				name = im.Name.Name
			}
			out[name] = true
		}
	}
	return out
}

// extended are the types of earlier cells to which the cell adds methods:
// a method can only be declared with its type, so those are declared again
// from their declarations, with their earlier methods.
func (c *goChecker) extended(declared map[string]bool) map[string]bool {
	out := map[string]bool{}
	for name := range declared {
		if base, _, ok := strings.Cut(name, "."); ok && !declared[base] && c.typeDecls[base] != nil {
			out[base] = true
		}
	}
	return out
}

// sessionFile holds the types of earlier cells that the cell extends,
// with their methods and the session's imports they use.
func (c *goChecker) sessionFile(imports map[string]string, declared, redeclared map[string]bool) *ast.File {
	f := &ast.File{Name: ast.NewIdent("main")}
	if len(redeclared) == 0 {
		return f
	}
	for _, k := range sortedKeys(c.typeDeclNames()) {
		base, _, _ := strings.Cut(k, ".")
		if redeclared[base] && !declared[k] {
			f.Decls = append(f.Decls, c.typeDecls[k])
		}
	}
	var used []ast.Decl
	for name := range selectorBases(f) {
		if p, ok := imports[name]; ok {
			used = append(used, importDecl(name, p))
		}
	}
	f.Decls = append(used, f.Decls...)
	return f
}

func (c *goChecker) typeDeclNames() map[string]bool {
	out := make(map[string]bool, len(c.typeDecls))
	for name := range c.typeDecls {
		out[name] = true
	}
	return out
}

func importDecl(name, p string) *ast.GenDecl {
	return &ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{&ast.ImportSpec{
		Name: ast.NewIdent(name),
		Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(p)},
	}}}
}

// declaredNames are the package-level names a cell's file declares
// ("T.m" for methods).
func declaredNames(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		for _, name := range declNames(d) {
			out[name] = true
		}
	}
	return out
}

func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			// The session's table names methods so too (symtab.go).
			return []string{recvName(d.Recv.List[0].Type) + "." + d.Name.Name}
		}
		if d.Name.Name == "_rl_cell" {
			return nil
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var out []string
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				out = append(out, sp.Name.Name)
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					out = append(out, n.Name)
				}
			}
		}
		return out
	}
	return nil
}

// collect records the cell's constant expressions and the types of the
// variables its top-level statements declare.
func (cc *cellCheck) collect(fset *token.FileSet) {
	for e, tv := range cc.info.Types {
		if _, lit := e.(*ast.BasicLit); tv.Value != nil && !lit && cc.inCell(e.Pos()) {
			if spelledAt(tv.Type, cc.pkg.Scope().Innermost(e.Pos()), e.Pos()) {
				cc.consts[exprKey{cc.spanOf(fset, e), reflect.TypeOf(e)}] = tv
			}
		}
	}
	for sel, x := range cc.info.Selections {
		own := x.Obj().Pkg() != nil && x.Obj().Pkg().Path() == "main"
		if x.Kind() == types.MethodExpr && (own || len(x.Index()) > 1) && cc.inCell(sel.Pos()) {
			cc.methodExprs[cc.spanOf(fset, sel)] = x
		}
	}
	cc.collectInstances(fset)
	cc.collectRanges(fset)
	for i, in := range cc.info.InitOrder {
		if v := in.Lhs[0]; cc.inCell(v.Pos()) {
			p := fset.Position(v.Pos())
			cc.initOrder[span{p.Line, p.Column, p.Line, p.Column + len(v.Name())}] = i
		}
	}
	for id, obj := range cc.info.Defs {
		if !cc.inCell(id.Pos()) {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			cc.constDefs[cc.spanOf(fset, id)] = obj
		case *types.Var:
			if obj.Parent() == cc.pkg.Scope() && spelledAt(obj.Type(), obj.Parent(), id.Pos()) {
				cc.varDefs[cc.spanOf(fset, id)] = obj.Type()
			}
		}
	}
	for _, st := range cc.body.List {
		for _, id := range definedNames(st) {
			if obj := cc.info.Defs[id]; obj != nil && spelledAt(obj.Type(), obj.Parent(), id.Pos()) {
				cc.defs[cc.spanOf(fset, id)] = obj.Type()
			}
		}
	}
}

// collectRanges records which of the cell's range loops range over an
// integer, as Go sees it: the rewrite's own classification cannot tell that MyInt(4) is
// an integer.
func (cc *cellCheck) collectRanges(fset *token.FileSet) {
	ast.Inspect(cc.file, func(n ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if !ok || !cc.inCell(r.X.Pos()) {
			return true
		}
		tv, ok := cc.info.Types[r.X]
		if !ok || tv.Type == nil {
			return true
		}
		// Only integers: the other ranges need no rewrite.
		if isInteger(tv.Type) {
			cc.rangeClasses[cc.spanOf(fset, r.X)] = intClass
		}
		return true
	})
}

// isInteger tells an integer type, or a type parameter whose constraint's
// terms are all integers (its core type is one, as a range needs).
func isInteger(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		iface, ok := tp.Constraint().Underlying().(*types.Interface)
		if !ok || iface.NumEmbeddeds() == 0 {
			return false
		}
		for i := 0; i < iface.NumEmbeddeds(); i++ {
			if !integerTerms(iface.EmbeddedType(i)) {
				return false
			}
		}
		return true
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// integerTerms tells a constraint element whose terms are all integers.
func integerTerms(t types.Type) bool {
	if iface, ok := t.Underlying().(*types.Interface); ok {
		for i := 0; i < iface.NumEmbeddeds(); i++ {
			if !integerTerms(iface.EmbeddedType(i)) {
				return false
			}
		}
		return iface.NumEmbeddeds() > 0
	}
	u, ok := t.(*types.Union)
	if !ok {
		return isInteger(t)
	}
	for i := 0; i < u.Len(); i++ {
		if !isInteger(u.Term(i).Type()) {
			return false
		}
	}
	return true
}

// inferred is a use of a generic function and the type arguments Go
// inferred for it.
type inferred struct {
	name string
	args *types.TypeList
}

// collectInstances records the inferred instantiations of the cell's own
// generic functions: uses written without type arguments, or with only
// some of them, are left out.
func (cc *cellCheck) collectInstances(fset *token.FileSet) {
	explicit := map[*ast.Ident]bool{}
	ast.Inspect(cc.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				explicit[id] = true
			}
		case *ast.IndexListExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				explicit[id] = true
			}
		}
		return true
	})
	for id, in := range cc.info.Instances {
		obj, ok := cc.info.Uses[id].(*types.Func)
		if !ok || explicit[id] || obj.Pkg() == nil || obj.Pkg().Path() != "main" || !cc.inCell(id.Pos()) {
			continue
		}
		sc := cc.pkg.Scope().Innermost(id.Pos())
		all := true
		for i := range in.TypeArgs.Len() {
			all = all && spelledAt(in.TypeArgs.At(i), sc, id.Pos())
		}
		if all {
			cc.instances[cc.spanOf(fset, id)] = inferred{id.Name, in.TypeArgs}
		}
	}
}

// spelledAt reports whether the names of the predeclared and package main
// types typ is written with mean those types at pos in sc: the program may
// declare const int = 15, and then x := (int)(e) does not say x's type.
func spelledAt(typ types.Type, sc *types.Scope, pos token.Pos) bool {
	if sc == nil {
		return false
	}
	named := func(obj *types.TypeName) bool {
		if obj.Pkg() == nil || obj.Pkg().Path() == "main" {
			_, found := sc.LookupParent(obj.Name(), pos)
			return found == obj
		}
		return true
	}
	return walkTypes(typ, func(t types.Type) bool {
		switch t := t.(type) {
		case *types.Basic:
			if t.Info()&types.IsUntyped != 0 {
				return true // written as a literal
			}
			_, found := sc.LookupParent(t.Name(), pos)
			return found == types.Universe.Lookup(t.Name())
		case *types.Named:
			return named(t.Obj())
		case *types.Alias:
			return named(t.Obj())
		case *types.TypeParam:
			return named(t.Obj())
		}
		return true
	})
}

func (cc *cellCheck) inCell(pos token.Pos) bool {
	return pos.IsValid() && cc.tfile.Base() <= int(pos) && int(pos) <= cc.tfile.Base()+cc.tfile.Size()
}

func (cc *cellCheck) spanOf(fset *token.FileSet, n ast.Node) span {
	a, b := fset.Position(n.Pos()), fset.Position(n.End())
	return span{a.Line, a.Column, b.Line, b.Column}
}

func lineStarts(code string) []int {
	out := []int{0}
	for i := 0; i < len(code); i++ {
		if code[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// resolveUndefined handles the errors that the notebook's rules turn into
// something else: a standard package used without an import is imported, a
// variable of the cell's statements used by its declarations joins the
// session's variables, unused imports, top-level variables and the final
// value are no errors. retry says the check must run again.
func (s *Session) resolveUndefined(cc *cellCheck, errs []types.Error, imports map[string]string, extra map[string]types.Type) (retry bool, remaining []types.Error) {
	top := topLevelVars(cc)
	declared := map[string]bool{}
	for _, st := range cc.body.List {
		for _, id := range definedNames(st) {
			declared[id.Name] = true
		}
	}
	final := finalValue(cc.body)
	bases := selectorBases(cc.file)
	for _, e := range errs {
		if !cc.inCell(e.Pos) {
			continue // a consequence of an earlier redefinition: the cell's own code is what Go judges
		}
		msg := e.Msg
		switch {
		case strings.HasSuffix(msg, " imported and not used"), strings.Contains(msg, "imported as ") && strings.HasSuffix(msg, " and not used"):
			continue
		case strings.HasPrefix(msg, "declared and not used: "):
			if declared[strings.TrimPrefix(msg, "declared and not used: ")] {
				continue
			}
		case strings.HasSuffix(msg, " is not used") && final != nil && e.Pos == final.Pos():
			continue
		case strings.HasPrefix(msg, "implicit assignment to unexported field ") && strings.Contains(msg, " in struct literal of type main."):
			// A struct type of an earlier cell is of the session's package
			// (each check's package main is another go/types package).
			continue
		case strings.HasPrefix(msg, "undefined: "):
			name := strings.TrimPrefix(msg, "undefined: ")
			if _, ok := imports[name]; !ok && bases[name] != nil {
				if imp, ok := s.resolveImport(name, bases[name]); ok {
					imports[imp.name] = imp.path
					retry = true
					continue
				}
			}
			if t := top[name]; t != nil && extra[name] == nil {
				extra[name] = t
				retry = true
				continue
			}
		}
		remaining = append(remaining, e)
	}
	return retry, remaining
}

// topLevelVars are the variables the cell's top-level statements declare.
func topLevelVars(cc *cellCheck) map[string]types.Type {
	out := map[string]types.Type{}
	for _, st := range cc.body.List {
		for _, id := range definedNames(st) {
			if obj := cc.info.Defs[id]; obj != nil && obj.Type() != nil && obj.Type() != types.Typ[types.Invalid] {
				out[id.Name] = obj.Type()
			}
		}
	}
	return out
}

// finalValue is the cell's final expression, if its last statement is
// one: the cell shows it.
func finalValue(body *ast.BlockStmt) ast.Expr {
	if n := len(body.List); n > 0 {
		if es, ok := body.List[n-1].(*ast.ExprStmt); ok {
			return es.X
		}
	}
	return nil
}

// typeErrors turns the type checker's errors into the cell's compile error:
// the first, at its line and column, with the others after it.
func (s *Session) typeErrors(cc *cellCheck, errs []types.Error, code string) error {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Pos < errs[j].Pos })
	first := s.check.fset.Position(errs[0].Pos)
	bases := selectorBases(cc.file)
	hint := func(e types.Error) string {
		name := strings.TrimPrefix(e.Msg, "undefined: ")
		return s.hintFor(e.Msg, bases[name] != nil) + cc.suggest(e)
	}
	ce := &cellError{Line: first.Line, Col: first.Column, Msg: hint(errs[0])}
	de := newError(CompileError, ce, nil, code)
	for _, e := range errs[1:] {
		p := s.check.fset.Position(e.Pos)
		de.Traceback = append(de.Traceback, fmt.Sprintf("%d:%d: %s", p.Line, p.Column, hint(e)))
	}
	return de
}

// noteFailedCheck remembers the names a cell that Go refused would have
// declared (and that nothing declares yet), so that "undefined: name" in a
// later cell says where it was meant to come from.
func (s *Session) noteFailedCheck(cc *cellCheck) {
	names := declaredNames(cc.file)
	for _, st := range cc.body.List {
		for _, id := range definedNames(st) {
			names[id.Name] = true
		}
	}
	for name := range names {
		if strings.Contains(name, ".") || s.syms.get(name) != nil || s.check.objects[name] != nil {
			continue
		}
		if s.failedDecls == nil {
			s.failedDecls = map[string]int{}
		}
		s.failedDecls[name] = s.cells
	}
}

// commit records what a chunk that ran declared: its package-level
// objects, its type declarations and methods without bodies, and the
// variables of its top-level statements, those of the statements before
// line:col only when that is not 0:0 (the statement there failed).
func (c *goChecker) commit(cc *cellCheck, ch chunk, line, col int) {
	if cc == nil {
		return
	}
	inChunk := func(n ast.Node) bool {
		p := c.fset.Position(n.Pos())
		off := cc.offset(p.Line, p.Column)
		return off >= ch.Offset && off < ch.Offset+len(ch.Text)
	}
	switch ch.Kind {
	case declChunk:
		for _, d := range cc.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); (ok && fd.Name.Name == "_rl_cell") || !inChunk(d) {
				continue
			}
			c.commitDecl(cc, d)
		}
	case stmtChunk:
		for _, st := range cc.body.List {
			p := c.fset.Position(st.Pos())
			if !inChunk(st) || (line > 0 && (p.Line > line || (p.Line == line && p.Column >= col))) {
				continue
			}
			for _, id := range definedNames(st) {
				if obj := cc.info.Defs[id]; obj != nil {
					c.objects[id.Name] = types.NewVar(obj.Pos(), cc.pkg, id.Name, obj.Type())
				}
			}
		}
	}
}

func (cc *cellCheck) offset(line, col int) int {
	if line < 1 || line > len(cc.lines) {
		return -1
	}
	return cc.lines[line-1] + col - 1
}

// commitDecl records one declaration of the cell, by name.
func (c *goChecker) commitDecl(cc *cellCheck, d ast.Decl) {
	for _, name := range declNames(d) {
		if base, _, ok := strings.Cut(name, "."); ok {
			if cc.redeclared[base] {
				c.objects[base] = cc.pkg.Scope().Lookup(base)
			}
			continue
		}
		if obj := cc.pkg.Scope().Lookup(name); obj != nil {
			c.objects[name] = obj
		}
		delete(c.typeDecls, name)
	}
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			summary := *d
			summary.Body = nil
			c.typeDecls[declNames(d)[0]] = &summary
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			if ts, ok := sp.(*ast.TypeSpec); ok {
				c.typeDecls[ts.Name.Name] = &ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{ts}}
			}
		}
	}
}

// suggest completes a type checker's message about a name that names
// nothing, a selected member or a field key, with the nearest name there
// is: (did you mean lab.Policy?).
func (cc *cellCheck) suggest(e types.Error) string {
	if !strings.Contains(e.Msg, "undefined") && !strings.HasPrefix(e.Msg, "unknown field") {
		return ""
	}
	var found string
	ast.Inspect(cc.file, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if n.Sel.Pos() == e.Pos {
				found = cc.suggestMember(n)
			}
		case *ast.CompositeLit:
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Pos() == e.Pos {
						found = closest(id.Name, memberNames(cc.info.Types[n].Type, false))
					}
				}
			}
		}
		return true
	})
	if found == "" {
		return ""
	}
	return " (did you mean " + found + "?)"
}

func (cc *cellCheck) suggestMember(sel *ast.SelectorExpr) string {
	id, _ := sel.X.(*ast.Ident)
	var names []string
	if pn, ok := cc.info.Uses[id].(*types.PkgName); id != nil && ok {
		for _, n := range pn.Imported().Scope().Names() {
			if token.IsExported(n) {
				names = append(names, n)
			}
		}
	} else if tv, ok := cc.info.Types[sel.X]; ok && tv.Type != nil {
		names = memberNames(tv.Type, true)
	}
	best := closest(sel.Sel.Name, names)
	if best == "" || id == nil {
		return best
	}
	return id.Name + "." + best
}

// memberNames are the fields (and with methods, the methods) of t that
// code outside t's package can select, or all of them for package main.
func memberNames(t types.Type, methods bool) []string {
	if t == nil {
		return nil
	}
	var out []string
	visible := func(o types.Object) bool {
		return o.Exported() || (o.Pkg() != nil && o.Pkg().Path() == "main")
	}
	if methods {
		for _, mt := range []types.Type{t, types.NewPointer(t)} {
			if _, isPtr := t.(*types.Pointer); isPtr && mt != t {
				continue
			}
			ms := types.NewMethodSet(mt)
			for i := range ms.Len() {
				if visible(ms.At(i).Obj()) {
					out = append(out, ms.At(i).Obj().Name())
				}
			}
		}
	}
	var fields func(t types.Type, depth int)
	fields = func(t types.Type, depth int) {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || depth > 3 {
			return
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if visible(f) {
				out = append(out, f.Name())
			}
			if f.Embedded() {
				fields(f.Type(), depth+1)
			}
		}
	}
	fields(t, 0)
	return out
}
