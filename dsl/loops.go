package dsl

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
)

func (rw *rewriter) rangeStmt(sc *scope, s *ast.RangeStmt) []ast.Stmt {
	rw.expr(sc, s.X)
	c, known := rw.ranges[s]
	if !known {
		c = rw.classOf(sc, s.X)
	}
	switch c {
	case intClass:
		if rw.on(passRangeInt) {
			return rw.rangeInt(sc, s)
		}
	case unknownClass:
		if rw.unknownRange == nil {
			rw.unknownRange = s.X
		}
	}
	inner := newScope(sc)
	inner.define(s.Key, unknownClass)
	inner.define(s.Value, unknownClass)
	rw.body(inner, s.Body)
	if s.Tok != token.DEFINE || !rw.on(passLoopVars) {
		return []ast.Stmt{s}
	}
	var copies []*ast.Ident
	for _, p := range []*ast.Expr{&s.Key, &s.Value} {
		id, ok := (*p).(*ast.Ident)
		if !ok || id.Name == "_" || !captured(id.Name, s.Body) {
			continue
		}
		copies = append(copies, &ast.Ident{NamePos: id.Pos(), Name: id.Name})
		id.Name = rw.fresh(id.Name)
		copies = append(copies, id)
	}
	prependCopies(s.Body, copies)
	return []ast.Stmt{s}
}

// rangeInt turns `for i := range n { body }` into
//
//	{ _rl_n := n; for _rl_i := _rl_n - _rl_n; _rl_i < _rl_n; _rl_i++ { i := _rl_i; body } }
//
// which evaluates n once, gives i n's type and a fresh copy per iteration.
func (rw *rewriter) rangeInt(sc *scope, s *ast.RangeStmt) []ast.Stmt {
	pos := s.For
	n := &ast.Ident{NamePos: pos, Name: rw.fresh("n")}
	i := &ast.Ident{NamePos: pos, Name: rw.fresh("i")}
	id := func(x *ast.Ident) *ast.Ident { return &ast.Ident{NamePos: pos, Name: x.Name} }
	inner := newScope(sc)
	inner.define(s.Key, intClass)
	rw.body(inner, s.Body)
	if s.Key != nil && !isBlank(s.Key) {
		// With =, the key may be any operand (s.x, a[f()]), evaluated at
		// each iteration as Go's assignment of the iteration value is.
		tok := token.DEFINE
		if s.Tok == token.ASSIGN {
			tok = token.ASSIGN
		}
		copyKey := &ast.AssignStmt{Lhs: []ast.Expr{s.Key}, TokPos: pos, Tok: tok, Rhs: []ast.Expr{id(i)}}
		s.Body.List = append([]ast.Stmt{copyKey}, s.Body.List...)
	}
	loop := &ast.ForStmt{
		For:  pos,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{i}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.BinaryExpr{X: id(n), OpPos: pos, Op: token.SUB, Y: id(n)}}},
		Cond: &ast.BinaryExpr{X: id(i), OpPos: pos, Op: token.LSS, Y: id(n)},
		Post: &ast.IncDecStmt{X: id(i), TokPos: pos, Tok: token.INC},
		Body: s.Body,
	}
	init := &ast.AssignStmt{Lhs: []ast.Expr{n}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{s.X}}
	return []ast.Stmt{&ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{init, loop}, Rbrace: s.Body.Rbrace}}
}

// forStmt gives the variables of a three-clause loop Go 1.22's per-iteration
// semantics where it can be observed (a closure or an address captures
// them): the loop runs on a renamed variable and each iteration's body sees
// its own copy. A body that also changes the variable cannot be expressed
// that way and is rejected.
func (rw *rewriter) forStmt(sc *scope, s *ast.ForStmt) []ast.Stmt {
	inner := newScope(sc)
	rw.simple(inner, s.Init)
	rw.expr(inner, s.Cond)
	rw.expr(inner, s.Post)
	rw.body(inner, s.Body)
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || !rw.on(passLoopVars) {
		return []ast.Stmt{s}
	}
	var copies []*ast.Ident
	for _, l := range init.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" || !captured(id.Name, s.Body) {
			continue
		}
		if assigned(id.Name, s.Body) {
			rw.fail(id.Pos(), "loop variable %s is changed in the loop body and captured by a closure or pointer: cells cannot give it Go 1.22 per-iteration semantics; capture a copy instead (%s := %s)", id.Name, id.Name+"Copy", id.Name)
			return []ast.Stmt{s}
		}
		name, renamed := id.Name, rw.fresh(id.Name)
		renameIdent(s.Cond, name, renamed)
		renameIdent(s.Post, name, renamed)
		copies = append(copies, &ast.Ident{NamePos: id.Pos(), Name: name})
		id.Name = renamed
		copies = append(copies, &ast.Ident{NamePos: id.Pos(), Name: renamed})
	}
	prependCopies(s.Body, copies)
	return []ast.Stmt{s}
}

// prependCopies adds `a, b := _rl_a, _rl_b` at the top of body; pairs holds
// (name, renamed) identifiers.
func prependCopies(body *ast.BlockStmt, pairs []*ast.Ident) {
	if len(pairs) == 0 {
		return
	}
	as := &ast.AssignStmt{TokPos: pairs[0].Pos(), Tok: token.DEFINE}
	for k := 0; k < len(pairs); k += 2 {
		as.Lhs = append(as.Lhs, pairs[k])
		as.Rhs = append(as.Rhs, &ast.Ident{NamePos: pairs[k].Pos(), Name: pairs[k+1].Name})
	}
	body.List = append([]ast.Stmt{as}, body.List...)
}

// goStmt makes a panic in a goroutine started by a cell a reported error
// instead of the end of the process (yaegi re-panics it on a fresh
// goroutine, where nothing can recover it). A function literal gets a
// deferred recover; another call is moved into one, its method value or
// function field and its non-constant arguments evaluated first, as the go
// statement would.
func (rw *rewriter) goStmt(s *ast.GoStmt) []ast.Stmt {
	pos := s.Go
	guard := synthStmt("defer func() { _rl_goLive(-1); if r := recover(); r != nil { _rl_goPanic(r) } }()", pos)
	// Counted where it starts, so that a script whose main goroutine ends
	// in runtime.Goexit knows whether any is left (execute.go).
	started := synthStmt("_rl_goLive(1)", pos)
	if fl, ok := s.Call.Fun.(*ast.FuncLit); ok {
		fl.Body.List = append([]ast.Stmt{guard}, fl.Body.List...)
		return []ast.Stmt{&ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{started, s}, Rbrace: pos}}
	}
	var hoisted []ast.Stmt
	if sel, ok := s.Call.Fun.(*ast.SelectorExpr); ok {
		// A method value binds its receiver at the go statement (x.M),
		// as does a function field (x.f): both are evaluated first.
		if x, isIdent := sel.X.(*ast.Ident); !isIdent || rw.imports[x.Name] == "" {
			fn := &ast.Ident{NamePos: sel.Pos(), Name: rw.fresh("fn")}
			hoisted = append(hoisted, &ast.AssignStmt{Lhs: []ast.Expr{fn}, TokPos: sel.Pos(), Tok: token.DEFINE, Rhs: []ast.Expr{sel}})
			s.Call.Fun = &ast.Ident{NamePos: sel.Pos(), Name: fn.Name}
		}
	}
	for k, a := range s.Call.Args {
		if rw.constant(newScope(nil), a) {
			continue
		}
		if id, ok := a.(*ast.Ident); ok && id.Name == "nil" {
			// Nothing to evaluate, and `arg := nil` does not compile
			// (go f(nil) was refused: Go's fixedbugs/issue25897a.go).
			continue
		}
		tmp := &ast.Ident{NamePos: a.Pos(), Name: rw.fresh("arg")}
		hoisted = append(hoisted, &ast.AssignStmt{Lhs: []ast.Expr{tmp}, TokPos: a.Pos(), Tok: token.DEFINE, Rhs: []ast.Expr{a}})
		s.Call.Args[k] = &ast.Ident{NamePos: a.Pos(), Name: tmp.Name}
	}
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{guard, &ast.ExprStmt{X: s.Call}}, Rbrace: s.Call.End()},
	}
	s.Call = &ast.CallExpr{Fun: lit, Lparen: pos, Rparen: pos}
	return []ast.Stmt{&ast.BlockStmt{Lbrace: pos, List: append(hoisted, started, s), Rbrace: pos}}
}

// synthStmt parses one statement and moves all of its positions to pos, so
// that yaegi attributes it to the cell code it stands for.
func synthStmt(src string, pos token.Pos) ast.Stmt {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p; func _() {"+src+"}", 0)
	if err != nil {
		panic("dsl: bad synthesized statement: " + err.Error())
	}
	s := f.Decls[0].(*ast.FuncDecl).Body.List[0]
	movePositions(s, pos)
	return s
}

var posType = reflect.TypeOf(token.NoPos)

func movePositions(n ast.Node, pos token.Pos) {
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		v := reflect.ValueOf(n)
		if v.Kind() != reflect.Pointer || v.IsNil() {
			return true
		}
		v = v.Elem()
		if v.Kind() != reflect.Struct {
			return true
		}
		for k := 0; k < v.NumField(); k++ {
			if f := v.Field(k); f.Type() == posType && f.CanSet() && token.Pos(f.Int()).IsValid() {
				f.SetInt(int64(pos))
			}
		}
		return true
	})
}

// captured reports whether a function literal in body refers to name or
// body takes its address: the cases where per-iteration variables matter.
func captured(name string, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if refers(n.Body, name) {
				found = true
			}
			return false
		case *ast.UnaryExpr:
			if id, ok := n.X.(*ast.Ident); ok && n.Op == token.AND && id.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}

func refers(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

func assigned(name string, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == name && n.Tok != token.DEFINE {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := n.X.(*ast.Ident); ok && id.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}

func renameIdent(n ast.Node, from, to string) {
	if n == nil || isNilNode(n) {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == from {
			id.Name = to
		}
		return true
	})
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}
