package dsl

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/traefik/yaegi/interp"
)

// unit is a parsed chunk, ready to rewrite, compile and run.
type unit struct {
	chunk
	file    *ast.File      // import and declaration chunks
	body    *ast.BlockStmt // statement chunks
	prefix  int            // bytes of wrapper before the chunk text
	syms    []*symbol      // what the chunk declares
	imports [][2]string    // (name, path) pairs the chunk imports
	changed map[string]bool
}

// runCell splits, checks and runs a cell, chunk by chunk.
func (s *Session) runCell(r *cellRun, code string) error {
	chunks, pkg, err := splitCell(code)
	if err != nil {
		return s.compileError(err, code)
	}
	if pkg != "" && pkg != "main" {
		return newError(CompileError, &cellError{Line: 1, Col: 1, Msg: fmt.Sprintf("package %s: cells and scripts are package main", pkg)}, nil, code)
	}
	units, runMain, err := s.prepare(chunks)
	if err != nil {
		return s.compileError(err, code)
	}
	for i, u := range units {
		if err := s.runUnit(r, u, i == len(units)-1 && !runMain); err != nil {
			return err
		}
	}
	if runMain {
		u, err := s.parse(chunk{Kind: stmtChunk, Text: "_rl_main()", Line: 1, Col: 1})
		if err != nil {
			return err
		}
		return s.runUnit(r, u, false)
	}
	return nil
}

// prepare parses every chunk and checks what can be checked before anything
// runs: imports, redefinitions, func main.
func (s *Session) prepare(chunks []chunk) (units []*unit, runMain bool, err error) {
	imports := s.syms.importsCopy()
	for _, c := range chunks {
		u, err := s.parse(c)
		if err != nil {
			return nil, false, err
		}
		switch c.Kind {
		case importChunk:
			if err := s.checkImports(u, imports); err != nil {
				return nil, false, err
			}
		case declChunk:
			if s.renameMain(u.file) {
				runMain = true
			}
			if err := s.checkRedefinitions(u); err != nil {
				return nil, false, err
			}
		}
		if len(u.file.Decls) > 0 || (u.body != nil && len(u.body.List) > 0) {
			units = append(units, u)
		}
	}
	return units, runMain, nil
}

// parse parses a chunk in the interpreter's file set. A line directive makes
// positions those of the cell.
func (s *Session) parse(c chunk) (*unit, error) {
	head := "package main;"
	if c.Kind == stmtChunk {
		head += " func main() {"
	}
	// A //line directive on its own line (not a /*line*/ before the text,
	// which would make the chunk's first comment a line comment of the
	// package clause instead of a doc comment).
	head += fmt.Sprintf("\n//line _.go:%d:%d\n", c.Line, c.Col)
	src := head + c.Text
	if c.Kind == stmtChunk {
		src += "\n}"
	}
	f, err := parser.ParseFile(s.in.FileSet(), "_.go", src, parser.ParseComments|parser.DeclarationErrors)
	if err != nil {
		return nil, err
	}
	u := &unit{chunk: c, file: f, prefix: len(head)}
	if c.Kind == stmtChunk {
		u.body = f.Decls[0].(*ast.FuncDecl).Body
		f.Decls = nil
	} else {
		u.syms = declSymbols(s.in.FileSet(), f, c.Text, u.prefix)
	}
	return u, nil
}

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
	if p == "iter" {
		return `package "iter" is not available: yaegi v0.16.1 cannot range over functions; here maps.Keys and maps.Values return slices, and slices.Collect/slices.Sorted take slices`
	}
	return fmt.Sprintf("package %q is not available in cells: the standard library and the session's libraries are; other packages must be compiled in as libraries", p)
}

// checkRedefinitions drops declarations identical to the session's (a cell
// run again) and rejects changed types and methods, which yaegi would
// silently keep as they were. Changed funcs and consts are allowed; their
// users are recompiled after the chunk runs.
func (s *Session) checkRedefinitions(u *unit) error {
	drop := map[string]bool{}
	var kept []*symbol
	for _, sym := range u.syms {
		old := s.syms.get(sym.Name)
		switch {
		case old == nil:
		case old.Norm == sym.Norm:
			drop[sym.Name] = true
			continue
		case old.Kind != sym.Kind:
			return s.symErr(sym, "%s is already declared as a %s in %s; choose another name", sym.Name, old.Kind, s.cellName(old.Cell))
		case sym.Kind == symType || sym.Kind == symMethod:
			return s.symErr(sym, "%s %s is already defined in %s and yaegi v0.16.1 cannot change it in a running session (it would silently keep the old definition): give it a new name, or restart the session to redefine it", sym.Kind, sym.Name, s.cellName(old.Cell))
		default:
			if u.changed == nil {
				u.changed = map[string]bool{}
			}
			u.changed[sym.Name] = true
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

// runUnit rewrites, compiles and runs one chunk. With last set, the value
// of a final expression statement is shown.
func (s *Session) runUnit(r *cellRun, u *unit, last bool) error {
	rw := s.newRewriter()
	var node ast.Node = u.file
	var fin *final
	rw.checkQualifiers(node, s.packageNames)
	if u.body != nil {
		rejectTopLevelDefer(rw, u.body)
		rw.block(u.body)
		wrapBlockDefines(u.body)
		node = u.body
		if last {
			fin = s.finalExpr(u.body)
		}
		s.instrument(u.body)
	} else {
		rw.decls(u.file)
	}
	if rw.err != nil {
		return s.compileError(rw.err, r.code)
	}
	prog, err := s.compile(node, rw)
	if err != nil && fin != nil {
		// The final expression may have no value; otherwise this reports
		// the cell's own error.
		fin.plain()
		prog, err = s.compile(node, rw)
	}
	if err != nil {
		if ie, ok := err.(*internalError); ok && u.body != nil {
			err = genericDefine(ie, u.body)
		}
		return s.compileError(err, r.code)
	}
	s.out.stderr.take()
	if err := s.execute(r, prog); err != nil || r.interrupted.Load() {
		return s.runError(r, err)
	}
	s.record(u, rw)
	if len(u.changed) > 0 {
		s.recompileUsers(r, u.changed)
	}
	return nil
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
			rw.fail(n.Pos(), "defer outside a function is not supported in cells: yaegi v0.16.1 would run it again at the end of every later cell; put the code in a function")
		}
		return true
	})
}

// instrument records in _rl_at where each top-level statement starts.
func (s *Session) instrument(body *ast.BlockStmt) {
	fset := s.in.FileSet()
	list := make([]ast.Stmt, 0, 2*len(body.List))
	for _, st := range body.List {
		p := fset.Position(st.Pos())
		at := &ast.AssignStmt{
			Lhs:    []ast.Expr{&ast.Ident{NamePos: st.Pos(), Name: "_rl_at"}},
			TokPos: st.Pos(),
			Tok:    token.ASSIGN,
			Rhs:    []ast.Expr{&ast.BasicLit{ValuePos: st.Pos(), Kind: token.INT, Value: strconv.Itoa(p.Line*atScale + p.Column)}},
		}
		list = append(list, at, st)
	}
	body.List = list
}

const atScale = 10000

// lastAt reads and resets _rl_at.
func (s *Session) lastAt() (line, col int) {
	v, ok := s.in.Globals()["_rl_at"]
	if !ok || !v.IsValid() || !v.CanInt() {
		return 0, 0
	}
	at := int(v.Int())
	if v.CanSet() {
		v.SetInt(0)
	}
	return at / atScale, at % atScale
}

func (rw *rewriter) decls(f *ast.File) {
	renameTypeParams(f)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			sc := newScope(nil)
			if d.Recv != nil {
				sc.params(&ast.FuncType{Params: d.Recv}, rw)
			}
			sc.params(d.Type, rw)
			rw.body(sc, d.Body)
		case *ast.GenDecl:
			rw.expr(newScope(nil), d)
		}
	}
}

// final is a cell's final expression statement. It is shown through the
// prelude's variadic _rl_show, which takes the values of a multi-value call
// as well as a single value; when the compiler says the call has no value,
// the statement is put back as it was.
type final struct {
	stmt *ast.ExprStmt
	orig ast.Expr
}

// finalExpr prepares the final expression statement of body for display,
// unless it is a call known to return nothing or print-like.
func (s *Session) finalExpr(body *ast.BlockStmt) *final {
	if len(body.List) == 0 {
		return nil
	}
	es, ok := body.List[len(body.List)-1].(*ast.ExprStmt)
	if !ok || s.quiet(es.X) {
		return nil
	}
	f := &final{stmt: es, orig: es.X}
	pos := es.X.Pos()
	es.X = &ast.CallExpr{Fun: &ast.Ident{NamePos: pos, Name: "_rl_show"}, Lparen: pos, Args: []ast.Expr{es.X}, Rparen: es.X.End()}
	return f
}

// plain puts the statement back as the cell wrote it.
func (f *final) plain() { f.stmt.X = f.orig }

var quietBuiltins = map[string]bool{
	"print": true, "println": true, "panic": true, "close": true, "delete": true, "clear": true, "copy": true,
	"display": true, "displayWithID": true, "updateDisplay": true, "_rl_main": true,
	"displayHTML": true, "displayMarkdown": true, "displaySVG": true,
}

func (s *Session) quiet(x ast.Expr) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		if sym := s.syms.get(fn.Name); sym != nil {
			return sym.Kind == symFunc && sym.NoResults
		}
		return quietBuiltins[fn.Name]
	case *ast.SelectorExpr:
		pkg, ok := fn.X.(*ast.Ident)
		if !ok {
			return false
		}
		p, ok := s.syms.importPath(pkg.Name)
		if !ok {
			return false
		}
		name := fn.Sel.Name
		if p == "log" || (p == "fmt" && (strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint"))) {
			return true
		}
		v := s.exports[p][name]
		return v.IsValid() && v.Kind() == reflectFunc && v.Type().NumOut() == 0
	}
	return false
}

// compile compiles node, turning yaegi's internal panics into errors.
func (s *Session) compile(node ast.Node, rw *rewriter) (prog *interp.Program, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = rw.internalError(p)
		}
	}()
	return s.in.CompileAST(node)
}

func (rw *rewriter) internalError(p any) error {
	if rw.unknownRange != nil {
		return &posError{pos: rw.unknownRange.Pos(), msg: fmt.Sprintf("yaegi v0.16.1 could not compile this range loop (%v): it cannot range over an integer or a function, and the type of %s is not known before the cell runs; for an integer write for i := 0; i < n; i++, for a function call it with a yield function", p, exprString(rw.unknownRange))}
	}
	return &internalError{p}
}

// internalError is a panic of yaegi's compiler.
type internalError struct{ p any }

func (e *internalError) Error() string {
	return fmt.Sprintf("yaegi internal error while compiling: %v", e.p)
}

// genericDefine explains yaegi's internal error on the likely cause when the
// chunk declares a variable from a call at its top level: yaegi v0.16.1
// cannot type a package-level variable initialised by a generic function
// returning a type parameter (min, max, slices.Clone, a generic of the
// cell's own).
func genericDefine(ie *internalError, body *ast.BlockStmt) error {
	for _, st := range body.List {
		var name string
		var rhs ast.Expr
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE && len(st.Rhs) == 1 {
				name, rhs = exprString(st.Lhs[0]), st.Rhs[0]
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok && len(gd.Specs) == 1 {
				if vs, ok := gd.Specs[0].(*ast.ValueSpec); ok && vs.Type == nil && len(vs.Values) == 1 {
					name, rhs = vs.Names[0].Name, vs.Values[0]
				}
			}
		}
		if _, ok := rhs.(*ast.CallExpr); ok {
			return &posError{pos: st.Pos(), msg: fmt.Sprintf("yaegi v0.16.1 could not compile this (%v); it cannot declare a variable at the top level of a cell from a generic function (min, max, slices.Clone, ...): declare it with its type first, var %s T; %s = %s", ie.p, name, name, exprString(rhs))}
		}
	}
	return ie
}

// execute runs a compiled chunk under the cell's evaluation context.
func (s *Session) execute(r *cellRun, prog *interp.Program) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = interp.Panic{Value: p}
		}
	}()
	_, err = s.in.ExecuteWithContext(r.evalCtx, prog)
	if r.evalCtx.Err() != nil {
		r.stuck = !awaitEvalEnd(int(r.evalsAtStop.Load()))
	}
	return err
}

// awaitEvalEnd waits (up to a second) for the stopped evaluation's
// goroutine to end. ExecuteWithContext returns as soon as it stops the
// interpreter, but the goroutine running the cell only ends when it next
// checks; if the next cell started first, yaegi would let the old one run
// on (top-level code shares the global frame, whose run id the next cell
// resets).
func awaitEvalEnd(atStop int) bool {
	for i := 0; i < 1000; i++ {
		if evalGoroutines() < atStop {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// evalGoroutines counts the goroutines running a yaegi ExecuteWithContext
// evaluation in the process.
func evalGoroutines() int {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("interp.(*Interpreter).ExecuteWithContext.func1("))
		}
		buf = make([]byte, 2*len(buf))
	}
}

func (s *Session) runError(r *cellRun, err error) error {
	frames := s.out.stderr.take()
	if r.interrupted.Load() {
		tb := []string{"Interrupted: the cell was interrupted", "what ran before the interrupt (variables, declarations) is kept"}
		if r.stuck {
			tb = append(tb, "warning: the cell is blocked in a compiled call that ignores interrupts; it goes on in the background until that call returns")
		}
		return &display.Error{Name: Interrupted, Value: "the cell was interrupted", Traceback: tb}
	}
	var p interp.Panic
	if errors.As(err, &p) {
		line, col := s.lastAt()
		return panicError(p, frames, line, col, s.where, r.code)
	}
	return newError(RuntimeError, compileFailure(err), nil, r.code)
}

func (s *Session) compileError(err error, code string) error {
	var pe *posError
	if errors.As(err, &pe) {
		p := s.in.FileSet().Position(pe.pos)
		err = &cellError{Line: p.Line, Col: p.Column, Msg: pe.msg}
	}
	ce := compileFailure(err)
	if lines := strings.Split(code, "\n"); ce.Line > len(lines) {
		// The parser ran into the wrapper the chunk was compiled in.
		ce.Line, ce.Col = len(lines), len(lines[len(lines)-1])+1
		ce.Msg = strings.Replace(ce.Msg, "found '}'", "found the end of the cell", 1)
	}
	return newError(CompileError, ce, nil, code)
}

func (s *Session) posErr(pos token.Pos, format string, args ...any) error {
	return &posError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

func (s *Session) symErr(sym *symbol, format string, args ...any) error {
	return &cellError{Line: sym.Line, Col: sym.Col, Msg: fmt.Sprintf(format, args...)}
}

// where names the cell that declared fn, for tracebacks.
func (s *Session) where(fn string) string {
	if sym := s.syms.get(fn); sym != nil {
		return s.cellName(sym.Cell)
	}
	if pkg, _, ok := strings.Cut(fn, "."); ok && genericSources[pkg] {
		return "package " + pkg
	}
	return "an earlier cell"
}

func (s *Session) cellName(n int) string {
	if n == 0 {
		return "the prelude"
	}
	return fmt.Sprintf("cell %d", n)
}
