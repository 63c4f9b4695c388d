package dsl

import "go/ast"

// The rewrite passes bring a chunk's syntax tree to what the interpreter
// (yaegi v0.16.1 with routelab's patches, third_party/yaegi/ROUTELAB.md)
// runs with the meaning Go gives it, or reject it with a precise message.
// Each pass closes one gap of the interpreter. gaps_test.go runs every
// pass's reproducer with the pass turned off, to show the gap is still
// there (when it is not, delete the pass), and on, to show Go's behaviour;
// docs/dsl.md has a row per pass. They run in this order; the statement
// rewrites happen in one walk of the chunk (rewrite.go, loops.go).
var passes = []pass{
	{name: passTopLevelDefer, run: stmtsOnly(rejectTopLevelDefer),
		gap: "a defer at the top level of a cell runs again at the end of every later cell (it is deferred on the interpreter's global frame)",
		fix: "refused: put the code in a function"},
	{name: passTypeParams, run: declsOnly(func(_ *rewriter, f *ast.File) { renameTypeParams(f) }),
		gap: "a type parameter named like a type of the session (T, E) replaces that type in the session when the generic is declared or instantiated",
		fix: "type parameters are renamed with a prefix no cell uses"},
	{name: passRangeInt,
		gap: "range over an integer (Go 1.22) does not compile",
		fix: "rewritten into a counting loop with a fresh variable per iteration"},
	{name: passLoopVars,
		gap: "loop variables are shared by all iterations (closures and pointers see the last value), as before Go 1.22",
		fix: "each iteration gets its own copy when a closure or pointer captures it"},
	{name: passCompiledGenerics,
		gap: "generic functions of compiled packages (rand.N) are not in the symbol tables: the name is undefined",
		fix: "refused with the non-generic functions to use instead"},
	{name: passGoroutineRecover,
		gap: "a panic in a goroutine started by a cell ends the whole process",
		fix: "the goroutine's function runs under a recover and its panic is reported on stderr"},
}

const (
	passTopLevelDefer    = "top-level-defer"
	passTypeParams       = "type-params"
	passRangeInt         = "range-int"
	passLoopVars         = "loop-vars"
	passCompiledGenerics = "compiled-generics"
	passGoroutineRecover = "goroutine-recover"
)

// pass is one rewrite of a chunk's syntax tree. run is nil for the
// statement rewrites that the rewriter's walk applies.
type pass struct {
	name     string
	gap, fix string
	run      func(rw *rewriter, u *unit)
}

func stmtsOnly(f func(rw *rewriter, body *ast.BlockStmt)) func(*rewriter, *unit) {
	return func(rw *rewriter, u *unit) {
		if u.body != nil {
			f(rw, u.body)
		}
	}
}

func declsOnly(f func(rw *rewriter, file *ast.File)) func(*rewriter, *unit) {
	return func(rw *rewriter, u *unit) {
		if u.body == nil {
			f(rw, u.file)
		}
	}
}

// rewrite runs the passes over a chunk and prepares the display of its
// final expression and the recording of statement positions. rw.err holds
// the first rejection.
func (s *Session) rewrite(rw *rewriter, u *unit) *final {
	rw.ranges = u.ranges
	for _, p := range passes {
		if p.run != nil && rw.on(p.name) {
			p.run(rw, u)
		}
	}
	if u.body != nil {
		rw.block(u.body)
	} else {
		rw.decls(u.file)
	}
	if rw.err != nil || u.body == nil {
		return nil
	}
	var fin *final
	if u.last {
		fin = s.finalExpr(u.body)
	}
	s.instrument(u.body)
	return fin
}

func (rw *rewriter) decls(f *ast.File) {
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
