package dsl

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// What the type checker found is handed to the interpreter in the chunk's
// syntax tree, before the rewrite passes: every constant expression becomes
// a literal of the value go/constant computed, converted to the type Go
// gave it (var z float64 = 3 / 2 compiles as var z float64 = float64(1)),
// and a variable a top-level statement declares gets its type written out
// (p0 := res.Policies[0] compiles as var p0 experiment.PolicyResult =
// res.Policies[0]), so the interpreter guesses neither.

// typedRewrite applies the check's findings to a chunk of the running cell.
func (s *Session) typedRewrite(cc *cellCheck, u *unit) {
	if cc == nil {
		return
	}
	t := &goTyper{s: s, cc: cc, names: s.importNames()}
	if u.body != nil {
		t.declareTypes(u.body)
	} else {
		t.initOrder(u.file)
	}
	u.ranges = t.rangeClasses(u.node())
	replaceExprs(u.node(), t.constant, t.arrayLen, t.constDecl)
	for _, imp := range t.hidden {
		if err := s.evalSource("import " + imp[0] + " " + strconv.Quote(imp[1])); err == nil {
			s.hidden[imp[1]] = imp[0]
		}
	}
}

// rangeClasses maps the chunk's range loops to what Go says they range
// over, before the expressions are replaced.
func (t *goTyper) rangeClasses(n ast.Node) map[*ast.RangeStmt]class {
	out := map[*ast.RangeStmt]class{}
	ast.Inspect(n, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok {
			if sp, ok := t.at(r.X); ok {
				if c, found := t.cc.rangeClasses[sp]; found {
					out[r] = c
				}
			}
		}
		return true
	})
	return out
}

// initOrder gives a file's package-level variables Go's initialisation:
// each variable is declared with its type and no value, and a func init
// ahead of the file's own assigns the values in the order Go initialises
// them (by dependency, not by place in the file). So the interpreter never
// evaluates an initialiser while it analyses the declarations, and every
// function can use every variable. A variable whose type the file cannot
// name keeps its initialiser, after the other declarations.
func (t *goTyper) initOrder(f *ast.File) {
	type assign struct {
		order int
		stmt  ast.Stmt
	}
	var inits []assign
	var kept []ast.Decl
	decls := f.Decls[:0:0]
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			decls = append(decls, d)
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			typed, order, ok := t.typedSpec(vs)
			if !ok {
				kept = append(kept, &ast.GenDecl{TokPos: gd.TokPos, Tok: token.VAR, Specs: []ast.Spec{sp}})
				continue
			}
			for _, ts := range typed {
				decls = append(decls, &ast.GenDecl{TokPos: gd.TokPos, Tok: token.VAR, Specs: []ast.Spec{ts}})
			}
			if len(vs.Values) == 0 {
				continue
			}
			lhs := make([]ast.Expr, len(vs.Names))
			for i, id := range vs.Names {
				lhs[i] = &ast.Ident{NamePos: id.Pos(), Name: id.Name}
			}
			if len(vs.Values) == len(vs.Names) {
				for i := range vs.Names {
					inits = append(inits, assign{order[i], &ast.AssignStmt{Lhs: lhs[i : i+1], TokPos: vs.Names[i].Pos(), Tok: token.ASSIGN, Rhs: vs.Values[i : i+1]}})
				}
				continue
			}
			inits = append(inits, assign{order[0], &ast.AssignStmt{Lhs: lhs, TokPos: vs.Pos(), Tok: token.ASSIGN, Rhs: vs.Values}})
		}
	}
	if len(inits) == 0 {
		return
	}
	sort.SliceStable(inits, func(i, j int) bool { return inits[i].order < inits[j].order })
	body := &ast.BlockStmt{Lbrace: inits[0].stmt.Pos()}
	for _, in := range inits {
		body.List = append(body.List, in.stmt)
	}
	init := &ast.FuncDecl{Name: &ast.Ident{NamePos: body.Lbrace, Name: "init"}, Type: &ast.FuncType{Func: body.Lbrace, Params: &ast.FieldList{}}, Body: body}
	// Ahead of the file's own func init: variables are initialised first.
	for i, d := range decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			decls = append(decls[:i:i], append([]ast.Decl{init}, decls[i:]...)...)
			init = nil
			break
		}
	}
	if init != nil {
		decls = append(decls, init)
	}
	f.Decls = append(decls, kept...)
}

// typedSpec is a var spec's names declared with their checked types and no
// values (a spec each when the types differ: var v, ok = x.(T)), and each
// name's place in Go's initialisation order; ok is false when a type cannot
// be named in the file.
func (t *goTyper) typedSpec(vs *ast.ValueSpec) (typed []*ast.ValueSpec, order []int, ok bool) {
	var spec *ast.ValueSpec
	for _, id := range vs.Names {
		sp, found := t.at(id)
		if !found {
			return nil, nil, false
		}
		n, placed := t.cc.initOrder[sp]
		if !placed {
			n = len(t.cc.initOrder)
		}
		order = append(order, n)
		if id.Name == "_" {
			continue
		}
		if vs.Type != nil {
			if spec == nil {
				spec = &ast.ValueSpec{Doc: vs.Doc, Type: vs.Type, Comment: vs.Comment}
				typed = append(typed, spec)
			}
			spec.Names = append(spec.Names, id)
			continue
		}
		typ := t.cc.varDefs[sp]
		if typ == nil {
			return nil, nil, false
		}
		text, spelled := t.spell(typ)
		if !spelled {
			return nil, nil, false
		}
		x, err := parser.ParseExprFrom(t.s.in.FileSet(), "", text, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, false
		}
		setPos(x, id.End())
		typed = append(typed, &ast.ValueSpec{Doc: vs.Doc, Names: []*ast.Ident{id}, Type: x, Comment: vs.Comment})
	}
	return typed, order, true
}

// constDecl gives every constant of a declaration its value, as a literal
// of its type: implicit repetitions and iota are spelled out.
func (t *goTyper) constDecl(gd *ast.GenDecl) {
	for _, s := range gd.Specs {
		vs := s.(*ast.ValueSpec)
		values := make([]ast.Expr, len(vs.Names))
		for i, id := range vs.Names {
			sp, ok := t.at(id)
			k := t.cc.constDefs[sp]
			if !ok || k == nil {
				return
			}
			src := t.literal(types.TypeAndValue{Type: k.Type(), Value: k.Val()})
			if src == "" {
				return
			}
			x, err := parser.ParseExprFrom(t.s.in.FileSet(), "", src, parser.SkipObjectResolution)
			if err != nil {
				return
			}
			setPos(x, id.Pos())
			values[i] = x
		}
		vs.Values = values
	}
}

// goTyper spells the check's types and values in the chunk's code.
type goTyper struct {
	s      *Session
	cc     *cellCheck
	names  map[string]string // import path -> name in cells
	hidden [][2]string       // (name, path) imports to make before the chunk compiles
}

// importNames maps the import paths of the session's packages to the names
// cells use for them.
func (s *Session) importNames() map[string]string {
	out := map[string]string{}
	for p, name := range s.hidden {
		out[p] = name
	}
	for name, p := range s.syms.importsCopy() {
		if cur, ok := out[p]; !ok || len(name) < len(cur) || strings.HasPrefix(cur, "_rl") {
			out[p] = name
		}
	}
	return out
}

// at is the span of a node of the interpreter's tree in the running cell.
func (t *goTyper) at(n ast.Node) (span, bool) {
	fset := t.s.in.FileSet()
	a, b := fset.Position(n.Pos()), fset.Position(n.End())
	sa, la := splitLine(a.Line)
	sb, lb := splitLine(b.Line)
	if sa != sb || t.s.cellOf(sa) != t.s.cells {
		return span{}, false
	}
	return span{la, a.Column, lb, b.Column}, true
}

// constant replaces a constant expression by its literal, and the method
// expression of a promoted method by a function literal.
func (t *goTyper) constant(e ast.Expr) (ast.Expr, bool) {
	if _, ok := e.(*ast.BasicLit); ok {
		return nil, false
	}
	sp, ok := t.at(e)
	if !ok {
		return nil, false
	}
	// A name the instrumentation adds (its runtime's identifier, at the
	// statement's start) may have the span of a method expression there.
	if sel, ok := t.cc.methodExprs[sp]; ok && isSelector(e) {
		return t.methodExpr(sel, e.Pos())
	}
	if in, ok := t.cc.instances[sp]; ok {
		return t.instance(e, in)
	}
	tv, ok := t.cc.consts[exprKey{sp, reflect.TypeOf(e)}]
	if !ok {
		return nil, false
	}
	src := t.literal(tv)
	if src == "" {
		return nil, false
	}
	x, err := parser.ParseExprFrom(t.s.in.FileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	setPos(x, e.Pos())
	return x, true
}

// arrayLen writes an array's length as the integer Go computed ([1e1]int
// is [10]int).
func (t *goTyper) arrayLen(e ast.Expr) (ast.Expr, bool) {
	if e == nil {
		return nil, false
	}
	if _, ok := e.(*ast.Ellipsis); ok {
		return nil, false
	}
	sp, ok := t.at(e)
	if !ok {
		return nil, false
	}
	tv, ok := t.cc.consts[exprKey{sp, reflect.TypeOf(e)}]
	if !ok {
		// A literal length such as 1e1: its value is the literal's.
		lit, isLit := e.(*ast.BasicLit)
		if !isLit || lit.Kind == token.INT {
			return nil, false
		}
		tv = types.TypeAndValue{Value: constant.MakeFromLiteral(lit.Value, lit.Kind, 0)}
	}
	n := constant.ToInt(tv.Value)
	if n.Kind() != constant.Int {
		return nil, false
	}
	return &ast.BasicLit{ValuePos: e.Pos(), Kind: token.INT, Value: n.ExactString()}, true
}

// methodExpr writes a method expression T.M as the function Go makes of
// it: func(r T, args) results { return r.M(args) }. (The interpreter's
// T.M called a promoted M with T for receiver, and (*T).M with too many
// arguments.)
func (t *goTyper) methodExpr(sel *types.Selection, pos token.Pos) (ast.Expr, bool) {
	sig := sel.Type().(*types.Signature)
	var params, args []string
	for i := range sig.Params().Len() {
		typ, ok := t.spell(sig.Params().At(i).Type())
		if !ok {
			return nil, false
		}
		name := "_rl_a" + strconv.Itoa(i)
		if i == 0 {
			name = "_rl_recv"
		} else {
			args = append(args, name)
		}
		if sig.Variadic() && i == sig.Params().Len()-1 {
			typ = "..." + strings.TrimPrefix(typ, "[]")
			args[len(args)-1] += "..."
		}
		params = append(params, name+" "+typ)
	}
	var results []string
	for i := range sig.Results().Len() {
		typ, ok := t.spell(sig.Results().At(i).Type())
		if !ok {
			return nil, false
		}
		results = append(results, typ)
	}
	call := "_rl_recv." + sel.Obj().Name() + "(" + strings.Join(args, ", ") + ")"
	if len(results) > 0 {
		call = "return " + call
	}
	src := "func(" + strings.Join(params, ", ") + ") (" + strings.Join(results, ", ") + ") { " + call + " }"
	x, err := parser.ParseExprFrom(t.s.in.FileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	setPos(x, pos)
	return x, true
}

// isSelector tells whether e is a selector expression, which a method
// expression is.
func isSelector(e ast.Expr) bool {
	_, ok := e.(*ast.SelectorExpr)
	return ok
}

// instance writes the type arguments Go inferred for a generic function
// (Map(xs, f) compiles as Map[int, string](xs, f)): the interpreter's own
// inference does not unify through generic types, function types or
// constraints as Go's does.
func (t *goTyper) instance(e ast.Expr, in inferred) (ast.Expr, bool) {
	// A name the instrumentation adds may have the same span.
	id, ok := e.(*ast.Ident)
	if !ok || id.Name != in.name {
		return nil, false
	}
	args := in.args
	src := make([]string, args.Len())
	for i := range args.Len() {
		if src[i], ok = t.spellType(args.At(i), true); !ok {
			return nil, false
		}
	}
	x, err := parser.ParseExprFrom(t.s.in.FileSet(), "", id.Name+"["+strings.Join(src, ", ")+"]", parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	setPos(x, e.Pos())
	return x, true
}

// literal spells a constant of the cell as T(value), or "" when it cannot.
func (t *goTyper) literal(tv types.TypeAndValue) string {
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok {
		return ""
	}
	if b.Info()&types.IsUntyped != 0 {
		if b.Kind() == types.UntypedRune || b.Kind() == types.UntypedComplex {
			return ""
		}
		return constLiteral(tv.Value)
	}
	lit := constLiteral(tv.Value)
	if b.Info()&types.IsFloat != 0 {
		f, _ := constant.Float64Val(tv.Value)
		lit = strconv.FormatFloat(f, 'g', -1, 64)
	}
	if lit == "" {
		return ""
	}
	if tv.Type == types.Typ[types.String] || tv.Type == types.Typ[types.Bool] {
		return lit
	}
	name, ok := t.spell(tv.Type)
	if !ok {
		return ""
	}
	return name + "(" + lit + ")"
}

// spell writes a type as the chunk's code can name it: a package of the
// session by its name, another one through a hidden import. ok is false for
// a type the chunk cannot name (unexported, or local to a function).
func (t *goTyper) spell(typ types.Type) (string, bool) {
	return t.spellType(typ, false)
}

// spellType is spell, and with typeParams a type may name the type
// parameters of the generic function it is written in.
func (t *goTyper) spellType(typ types.Type, typeParams bool) (string, bool) {
	ok := true
	text := types.TypeString(typ, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		if name, found := t.names[p.Path()]; found {
			return name
		}
		if !t.s.available(p.Path()) {
			ok = false
			return p.Name()
		}
		name := "_rl_t_" + strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(p.Path())
		t.names[p.Path()] = name
		t.hidden = append(t.hidden, [2]string{name, p.Path()})
		return name
	})
	if !ok || !spellable(typ, typeParams) {
		return "", false
	}
	return text, true
}

// spellable reports whether every named type in typ is exported or of
// package main, and declared at package level, and typ names no type
// parameter unless typeParams.
func spellable(typ types.Type, typeParams bool) bool {
	return walkTypes(typ, func(t types.Type) bool {
		switch t := t.(type) {
		case *types.Named:
			obj := t.Obj()
			return obj.Pkg() == nil || (obj.Parent() == obj.Pkg().Scope() && (obj.Exported() || obj.Pkg().Path() == "main"))
		case *types.Alias:
			return spellable(types.Unalias(t), typeParams)
		case *types.TypeParam:
			return typeParams
		case *types.Struct:
			for i := range t.NumFields() {
				if f := t.Field(i); !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != "main" {
					return false
				}
			}
		}
		return true
	})
}

// declareTypes writes out the types of the variables that the chunk's
// top-level statements declare: x := e becomes x := (T)(e), var x = e
// becomes var x T = e.
func (t *goTyper) declareTypes(body *ast.BlockStmt) {
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			t.typedDefine(st)
		case *ast.DeclStmt:
			t.typedVar(st)
		}
	}
}

func (t *goTyper) typedDefine(st *ast.AssignStmt) {
	if st.Tok != token.DEFINE || len(st.Lhs) != len(st.Rhs) {
		return
	}
	for i, l := range st.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		if t.iteratorInstance(id) && t.packageCall(st.Rhs[i]) {
			// The interpreter takes (iter.Seq[int])(e) for a call; it
			// types the result of a package's generic call itself
			// (maps.Keys(m), slices.Values(s)).
			continue
		}
		if x := t.typeExpr(id); x != nil {
			r := st.Rhs[i]
			st.Rhs[i] = &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: r.Pos(), X: x, Rparen: r.Pos()}, Lparen: r.Pos(), Args: []ast.Expr{r}, Rparen: r.End() - 1}
		}
	}
}

// iteratorInstance tells a variable whose type is an instance of a generic
// function type (iter.Seq[int], iter.Seq2[K, V]).
func (t *goTyper) iteratorInstance(id *ast.Ident) bool {
	sp, ok := t.at(id)
	if !ok {
		return false
	}
	n, ok := t.cc.defs[sp].(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 {
		return false
	}
	_, isFunc := n.Underlying().(*types.Signature)
	return isFunc
}

// packageCall tells a call of an imported or standard package's function.
func (t *goTyper) packageCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	for _, name := range t.names {
		if name == pkg.Name {
			return true
		}
	}
	_, std := stdIndex()[pkg.Name] // imported on its first use
	return std
}

// typeExpr is the type the check gave to the variable id declares, as an
// expression of the chunk, or nil.
func (t *goTyper) typeExpr(id *ast.Ident) ast.Expr {
	sp, ok := t.at(id)
	typ := t.cc.defs[sp]
	if !ok || typ == nil {
		return nil
	}
	text, ok := t.spell(typ)
	if !ok {
		return nil
	}
	x, err := parser.ParseExprFrom(t.s.in.FileSet(), "", text, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	setPos(x, id.Pos())
	return x
}

func (t *goTyper) typedVar(st *ast.DeclStmt) {
	gd, ok := st.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return
	}
	for _, s := range gd.Specs {
		vs := s.(*ast.ValueSpec)
		if vs.Type != nil || len(vs.Names) != 1 || len(vs.Values) != 1 {
			continue
		}
		vs.Type = t.typeExpr(vs.Names[0])
	}
}

// constLiteral writes a constant value as Go source, exactly where Go's
// literals can; "" otherwise.
func constLiteral(v constant.Value) string {
	switch v.Kind() {
	case constant.Bool, constant.String, constant.Int:
		return v.ExactString()
	case constant.Float:
		if f, exact := constant.Float64Val(v); exact {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		var x big.Float
		switch r := constant.Val(v).(type) {
		case *big.Rat:
			if r.Num().BitLen() > 4096 || r.Denom().BitLen() > 4096 {
				return "" // a huge exact value (1e646456992): left to the interpreter
			}
			x.SetPrec(512).SetRat(r)
		case *big.Float:
			x.SetPrec(512).Set(r)
		default:
			return ""
		}
		if e := x.MantExp(nil); e > 4096 || e < -4096 {
			return "" // printing it would take long: left to the interpreter
		}
		return x.Text('g', 100)
	}
	return ""
}

// replaceExprs walks n and replaces each expression for which f returns a
// replacement; replaced expressions are not entered. An array length goes
// to arrayLen instead, keys of composite literals are left as they are,
// and consts is called for each constant declaration.
func replaceExprs(n ast.Node, f, arrayLen func(ast.Expr) (ast.Expr, bool), consts func(*ast.GenDecl)) {
	exprType := reflect.TypeFor[ast.Expr]()
	var visit func(v reflect.Value)
	visit = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			switch x := v.Interface().(type) {
			case *ast.ArrayType:
				if r, ok := arrayLen(x.Len); ok {
					x.Len = r
				}
				visit(reflect.ValueOf(&x.Elt).Elem())
				return
			case *ast.KeyValueExpr:
				visit(reflect.ValueOf(&x.Value).Elem())
				return
			case *ast.GenDecl:
				if x.Tok == token.CONST && consts != nil {
					consts(x)
				}
				if x.Tok != token.VAR {
					return
				}
			case *ast.Ident, *ast.BasicLit:
				return
			}
			visit(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				visit(v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				visit(v.Index(i))
			}
		case reflect.Interface:
			if v.IsNil() {
				return
			}
			if v.Type() == exprType && v.CanSet() {
				if r, ok := f(v.Interface().(ast.Expr)); ok {
					v.Set(reflect.ValueOf(r))
					return
				}
			}
			visit(v.Elem())
		}
	}
	visit(reflect.ValueOf(n))
}

// setPos gives every node of a synthesized expression the position pos, so
// that errors and the interpreter's reports point at the code it replaces.
func setPos(x ast.Node, pos token.Pos) {
	ast.Inspect(x, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		v := reflect.ValueOf(n).Elem()
		for i := range v.NumField() {
			// Only positions that are set: a zero one means something
			// (a CallExpr's Ellipsis).
			if fv := v.Field(i); fv.Type() == reflect.TypeFor[token.Pos]() && fv.CanSet() && fv.Int() != 0 {
				fv.Set(reflect.ValueOf(pos))
			}
		}
		return true
	})
}
