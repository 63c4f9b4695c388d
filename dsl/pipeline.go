package dsl

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"

	"github.com/traefik/yaegi/interp"
)

// A cell runs in four steps: it is split into chunks of imports,
// declarations and statements (split.go); every chunk is parsed and checked
// before anything runs (checks.go); then each chunk in turn goes through the
// rewrite passes (passes.go), is compiled (importing standard packages it
// uses without importing them, imports.go) and run (execute.go); finally its
// value is shown (final.go).

// unit is a parsed chunk, ready to rewrite, compile and run.
type unit struct {
	chunk
	file    *ast.File                // import and declaration chunks
	body    *ast.BlockStmt           // statement chunks
	prefix  int                      // bytes of wrapper before the chunk text
	syms    []*symbol                // what the chunk declares
	imports [][2]string              // (name, path) pairs the chunk imports
	changed map[string]*symbol       // redefined names, with their previous symbols
	last    bool                     // the cell's last chunk: its final expression is shown
	check   *cellCheck               // what Go's type checker found in the cell (nil: not checked)
	ranges  map[*ast.RangeStmt]class // what range loops range over, as Go says
}

// node is what the chunk compiles: a file of declarations or a block of
// statements.
func (u *unit) node() ast.Node {
	if u.body != nil {
		return u.body
	}
	return u.file
}

// runCell runs a cell: a request for help, a cell with magics (their
// pieces in turn) or Go.
func (s *Session) runCell(r *cellRun, code string) error {
	if name := s.helpTarget(code); name != "" {
		return s.help(r, name)
	}
	if !s.script {
		if pieces := magicPieces(code); pieces != nil {
			return s.runMagics(r, pieces)
		}
	}
	return s.runGo(r, code)
}

// runGo splits, checks and runs Go code, chunk by chunk.
func (s *Session) runGo(r *cellRun, code string) error {
	chunks, pkg, err := splitCell(code)
	if err != nil {
		return s.compileError(err, code)
	}
	if pkg != "" && pkg != "main" {
		return newError(CompileError, &cellError{Line: 1, Col: 1, Msg: fmt.Sprintf("package %s: cells and scripts are package main", pkg)}, nil, code)
	}
	if pkg == "main" {
		chunks = fileChunks(chunks)
	}
	units, runMain, err := s.prepare(chunks)
	if err != nil {
		return s.compileError(err, code)
	}
	cc, err := s.goCheck(code, chunks)
	if err != nil {
		return err
	}
	if cc != nil && !cc.declsUseStatements {
		// Declarations are package-level in Go: the cell's statements see
		// them wherever they stand.
		sort.SliceStable(units, func(i, j int) bool { return units[i].Kind < units[j].Kind })
	}
	for i, u := range units {
		u.check = cc
		u.last = i == len(units)-1 && !runMain
		if err := s.runUnit(r, u); err != nil {
			return err
		}
	}
	if runMain {
		u, err := s.parse(chunk{Kind: stmtChunk, Text: "_rl_main()", Line: 1, Col: 1})
		if err != nil {
			return err
		}
		return s.runUnit(r, u)
	}
	return nil
}

// fileChunks makes a Go file (a package clause, imports, then only
// declarations) one chunk of declarations after its imports, so that its
// declarations refer to each other in any order and its variables are
// initialised in Go's order, as in a Go package. Other cells keep their
// chunks, which run in order.
func fileChunks(chunks []chunk) []chunk {
	var imports []chunk
	var decls *chunk
	for _, c := range chunks {
		switch {
		case decls == nil && (c.Kind == importChunk || (c.Kind == stmtChunk && blank(c.Text))):
			imports = append(imports, c)
		case c.Kind == stmtChunk && !onlyDecls(c.Text):
			return chunks
		case decls == nil:
			d := c
			d.Kind = declChunk
			decls = &d
		default:
			decls.Text += c.Text
		}
	}
	if decls == nil {
		return chunks
	}
	return append(imports, *decls)
}

// blank reports whether text is only space and comments.
func blank(text string) bool {
	toks, err := scanAll(text)
	return err == nil && len(toks) == 0
}

// onlyDecls reports whether statements are declarations only.
func onlyDecls(stmts string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p; func _() {"+stmts+"\n}", 0)
	if err != nil {
		return false
	}
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		switch st.(type) {
		case *ast.DeclStmt, *ast.EmptyStmt:
		default:
			return false
		}
	}
	return true
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
			s.noteSharedState(u.file, imports)
			if s.renameMain(u.file) {
				runMain = true
			}
			if err := s.checkRedefinitions(u, imports); err != nil {
				return nil, false, err
			}
		case stmtChunk:
			s.noteSharedState(u.body, imports)
			if err := s.checkVariables(u, imports); err != nil {
				return nil, false, err
			}
		}
		if len(u.file.Decls) > 0 || (u.body != nil && len(u.body.List) > 0) {
			units = append(units, u)
		}
	}
	return units, runMain, nil
}

// parse parses a chunk in the interpreter's file set. A line directive gives
// its positions the chunk's own lines and columns in the cell, with the
// cell's number folded into the line (see cellLine), so that yaegi's
// messages and panic reports locate code in the cell that holds it.
func (s *Session) parse(c chunk) (*unit, error) { return s.parseAt(c, s.cells) }

// parseAt parses a chunk of cell n.
func (s *Session) parseAt(c chunk, n int) (*unit, error) {
	head := "package main;"
	if c.Kind == stmtChunk {
		head += " func main() {"
	}
	// A //line directive on its own line (not a /*line*/ before the text,
	// which would make the chunk's first comment a line comment of the
	// package clause instead of a doc comment).
	head += fmt.Sprintf("\n//line _.go:%d:%d\n", cellLine(n, c.Line), c.Col)
	src := head + c.Text
	if c.Kind == stmtChunk {
		src += "\n}"
	}
	// One file name, "_.go", for every chunk: the interpreter scopes imports
	// by file name.
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

// runUnit rewrites, compiles and runs one chunk.
func (s *Session) runUnit(r *cellRun, u *unit) error {
	rw := s.newRewriter()
	s.typedRewrite(u.check, u)
	fin := s.rewrite(rw, u)
	if rw.err != nil {
		return s.compileError(rw.err, r.code)
	}
	prog, notes, err := s.compileChunk(u, rw, fin)
	for _, n := range notes {
		fmt.Fprintln(s.out.errW, n)
	}
	if err != nil {
		err = s.compileError(err, r.code)
		s.noteFailedDecls(u)
		return err
	}
	s.out.stderr.take()
	if err := s.execute(r, prog); err != nil || r.interrupted.Load() {
		// What the statements before the one that failed declared is
		// there; what that one and the later ones were to declare is not.
		_, line, col := s.Position()
		s.check.commit(u.check, u.chunk, line, col)
		s.noteFailedStatements(u, line, col)
		return s.runError(r, err)
	}
	s.check.commit(u.check, u.chunk, 0, 0)
	s.record(u, rw)
	s.afterRedefinitions(r, u)
	return nil
}

// compileChunk compiles a rewritten chunk. When the compiler finds a
// standard package used without an import, the package is imported and the
// chunk compiled again; when the final expression turns out to have no
// value, it is compiled as the plain statement the cell wrote. notes say
// which packages were imported where the name was ambiguous.
func (s *Session) compileChunk(u *unit, rw *rewriter, fin *final) (*interp.Program, []string, error) {
	var notes []string
	bases := selectorBases(u.node())
	for {
		prog, err := s.compile(u.node(), rw)
		if err == nil {
			return prog, notes, nil
		}
		if name := undefinedName(err); name != "" && bases[name] != nil {
			if imp, ok := s.resolveImport(name, bases[name]); ok {
				if err := s.autoImport(imp, rw); err != nil {
					return nil, notes, err
				}
				if imp.note != "" {
					notes = append(notes, imp.note)
				}
				continue
			}
		}
		if fin != nil {
			// The final expression may have no value; otherwise this
			// reports the cell's own error.
			fin.plain()
			fin = nil
			continue
		}
		return nil, notes, err
	}
}

// compile compiles node, turning a panic of yaegi's compiler into an error.
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
		return &posError{pos: rw.unknownRange.Pos(), msg: fmt.Sprintf("this range loop could not be compiled (%v): the interpreter cannot range over an integer or a function whose type it does not know before the cell runs, and the type of %s is not known; for an integer write for i := 0; i < n; i++, for a function call it with a yield function", p, exprString(rw.unknownRange))}
	}
	return fmt.Errorf("the interpreter failed on this code (%v); please report it with the cell", p)
}

// Positions of cell code carry the cell's number in their line: line L of
// cell n is line slot(n)*lineScale + L, where the slot of cell n cycles
// through 1..cellSlots (line numbers must stay below 2^30). The file name
// cannot tell cells apart: the interpreter scopes imports by file name. The
// prelude and the standard sources have plain line numbers: slot 0.
const (
	lineScale = 100_000 // lines per cell
	cellSlots = 9_999
)

func cellLine(n, line int) int {
	if n == 0 {
		return line
	}
	return ((n-1)%cellSlots+1)*lineScale + line
}

// splitLine returns the cell slot and the line within it of a position's
// line.
func splitLine(line int) (slot, l int) { return line / lineScale, line % lineScale }

// cellOf is the cell of a slot: the latest one that has it (0 for the
// prelude's slot).
func (s *Session) cellOf(slot int) int {
	if slot == 0 {
		return 0
	}
	back := ((s.cells-slot)%cellSlots + cellSlots) % cellSlots
	return s.cells - back
}
