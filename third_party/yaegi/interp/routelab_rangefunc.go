package interp

import (
	"fmt"
	goast "go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
)

// routelab patch: range over a function (Go 1.23). A loop
//
//	for k, v := range seq { body }
//
// is lowered, before its control flow is built, to a call of seq with a
// function literal whose body is the loop's, as Go's compiler does:
//
//	{
//		var state, next int
//		var r0, r1 R0, R1 // the enclosing function's results, if a body returns values
//		seq(func(k K, v V) bool {
//			if state != 0 { rangeFuncFail(state) }
//			state = 1
//			body
//			state = 0
//			return true
//		})
//		if state == 1 { rangeFuncFail(4) } // the iterator recovered a panic of the body
//		state = 3
//		if next == 1 { return r0, r1 }
//		if next == 2 { break L } // and so on, for each branch to an outer statement
//	}
//
// In the body, break is `state = 2; return false`, continue is `state = 0;
// return true`, return stores its values and is `next = 1; state = 2;
// return false`, and a branch to a statement around the loop sets next.
// A deferred call of the body is the enclosing function's (deferTarget).
// The names the lowering declares contain a character no Go identifier
// has, and the types are symbols of the scope, so no source name clashes.

// rangeFuncState values, as Go's abi.RF_State.
const (
	rfReady = iota
	rfPanic
	rfDone
	rfExhausted
	rfMissingPanic
)

// rangeFuncFail panics with Go's run-time error for an iterator that calls
// yield in the given state.
func rangeFuncFail(state int) {
	switch state {
	case rfDone:
		panic(runtimeError("range function continued iteration after function for loop body returned false"))
	case rfPanic:
		panic(runtimeError("range function continued iteration after loop body panic"))
	case rfExhausted:
		panic(runtimeError("range function continued iteration after whole loop exit"))
	case rfMissingPanic:
		panic(runtimeError("range function recovered a loop body panic and did not resume panicking"))
	}
}

// rangeFuncBody marks (in node.meta) a function literal made by the
// lowering: its defers and recovers are those of the function around it.
type rangeFuncBody struct{}

// rangeFuncParams returns the parameter types of the yield function of a
// range over a value of type t, and whether t is an iterator.
func rangeFuncParams(t *itype) ([]*itype, bool) {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	if t == nil {
		return nil, false
	}
	if t.cat == valueT {
		rt := t.rtype
		if rt == nil || rt.Kind() != reflect.Func || rt.NumIn() != 1 || rt.NumOut() != 0 {
			return nil, false
		}
		y := rt.In(0)
		if y.Kind() != reflect.Func || y.NumIn() > 2 || y.NumOut() != 1 || y.Out(0).Kind() != reflect.Bool || y.IsVariadic() {
			return nil, false
		}
		var ps []*itype
		for i := 0; i < y.NumIn(); i++ {
			ps = append(ps, valueTOf(y.In(i)))
		}
		return ps, true
	}
	if t.cat != funcT || len(t.arg) != 1 || len(t.ret) != 0 {
		return nil, false
	}
	y := t.arg[0]
	for y != nil && y.cat == linkedT {
		y = y.val
	}
	if y == nil {
		return nil, false
	}
	if y.cat == valueT {
		return rangeFuncParams(valueTOf(reflect.FuncOf([]reflect.Type{y.rtype}, nil, false)))
	}
	if y.cat != funcT || len(y.arg) > 2 || len(y.ret) != 1 || !isBool(y.ret[0]) {
		return nil, false
	}
	return y.arg, true
}

// rangeFunc is the lowering of one loop.
type rangeFunc struct {
	interp  *Interpreter
	n       *node // the forRangeStmt
	suffix  string
	label   string          // the loop's own label
	labels  map[string]bool // labels declared in the body
	results []*itype        // the enclosing function's results
	after   []string        // the branches run after the loop, by next-1
	values  bool            // a return in the body has values
	hasRet  bool
}

// lowerRangeFunc lowers n, a forRangeStmt, when it ranges over a function,
// turning n into a block. It reports whether it did.
func lowerRangeFunc(interp *Interpreter, sc *scope, n *node) (bool, error) {
	r := n.child[0]
	if r.kind != rangeStmt || len(r.child) < 3 {
		return false, nil
	}
	x := r.child[len(r.child)-2]
	t, err := nodeType(interp, sc, x)
	params, ok := rangeFuncParams(t)
	if x.kind == callExpr && (err != nil || !ok && genericCallee(interp, sc, x)) {
		// The type of a call of a generic function is known once the call
		// is compiled (nodeType gives its argument's, for one).
		t = compiledType(interp, sc, x)
		params, ok = rangeFuncParams(t)
	}
	if !ok {
		return false, nil
	}
	vars := r.child[:len(r.child)-2]
	if len(vars) > len(params) {
		switch len(params) {
		case 0:
			if len(vars) > 1 || vars[0].ident != "_" {
				return true, vars[0].cfgErrorf("range over %s (value of type %s) permits no iteration variables", exprText(x), typeText(t))
			}
			vars = nil
		default:
			return true, vars[1].cfgErrorf("range over %s (value of type %s) permits only one iteration variable", exprText(x), typeText(t))
		}
	}
	rf := &rangeFunc{interp: interp, n: n, suffix: fmt.Sprintf("·%d", n.index), labels: map[string]bool{}}
	if n.anc != nil && n.anc.kind == labeledStmt {
		rf.label = n.anc.child[0].ident
	}
	if fn := enclosingFunc(n); fn != nil {
		ft := fn.typ
		if ft == nil && fn.kind == funcDecl {
			if ft, err = nodeType(interp, sc, fn.child[2]); err != nil {
				return true, err
			}
		}
		if ft != nil {
			rf.results = ft.ret
		}
	}
	body := r.lastChild()
	collectLabels(body, rf.labels)
	if err := rf.rewrite(body, 0, 0); err != nil {
		return true, err
	}
	for i, p := range params {
		sc.sym[rf.name(fmt.Sprintf("P%d", i))] = &symbol{kind: typeSym, typ: p}
	}
	for i, res := range rf.results {
		sc.sym[rf.name(fmt.Sprintf("T%d", i))] = &symbol{kind: typeSym, typ: res}
	}
	sc.sym["rangefunc·fail"] = &symbol{kind: binSym, typ: valueTOf(reflect.TypeOf(rangeFuncFail)), rval: reflect.ValueOf(rangeFuncFail)}
	stmts, err := rf.nodes(rf.skeleton(len(params)))
	if err != nil {
		return true, err
	}
	fill := map[string]*node{"_rf_X": x, "_rf_BODY": body}
	for i := range params {
		k := fmt.Sprintf("_rf_K%d", i)
		if i < len(vars) {
			fill[k] = vars[i]
		}
	}
	for _, s := range stmts {
		s.anc = n
		replacePlaceholders(s, fill)
	}
	n.kind, n.action, n.gen, n.child = blockStmt, aNop, nop, stmts
	return true, nil
}

// compiledType is the type of expression x, found by compiling a copy of
// it in scope sc; nil if that fails.
func compiledType(interp *Interpreter, sc *scope, x *node) (t *itype) {
	defer func() {
		if recover() != nil {
			t = nil
		}
	}()
	holder := &node{interp: interp, kind: parenExpr, pos: x.pos}
	c := copyTree(x, holder)
	holder.child = []*node{c}
	if _, err := interp.cfg(c, sc, sc.pkgID, sc.pkgName); err != nil {
		return nil
	}
	return c.typ
}

// genericCallee tells a call of a generic function.
func genericCallee(interp *Interpreter, sc *scope, call *node) bool {
	if f := call.child[0]; f.kind == identExpr {
		if sym, _, ok := sc.lookup(f.ident); !ok || sym.kind == bltnSym {
			return false
		}
	}
	ft, err := nodeType(interp, sc, call.child[0])
	return err == nil && ft != nil && isGeneric(ft)
}

// copyTree copies the tree n, with the types of the type arguments genAST
// put in place.
func copyTree(n, anc *node) *node {
	c := copyNode(n, anc, false)
	if n.typeArg {
		c.typ = n.typ
	}
	for _, k := range n.child {
		c.child = append(c.child, copyTree(k, c))
	}
	return c
}

// enclosingFunc is the function declaration or literal around n, nil at
// the top level.
func enclosingFunc(n *node) *node {
	for a := n.anc; a != nil; a = a.anc {
		if a.kind == funcDecl || a.kind == funcLit {
			return a
		}
	}
	return nil
}

// collectLabels adds the labels declared in n, outside function literals.
func collectLabels(n *node, labels map[string]bool) {
	if n.kind == funcLit {
		return
	}
	if n.kind == labeledStmt {
		labels[n.child[0].ident] = true
	}
	for _, c := range n.child {
		collectLabels(c, labels)
	}
}

func (rf *rangeFunc) name(s string) string { return "rangefunc·" + s + rf.suffix }

// rewrite replaces the branches of the body that leave it. breaks and
// loops count the statements around n, inside the body, that an unlabelled
// break or continue leaves.
func (rf *rangeFunc) rewrite(n *node, breaks, loops int) error {
	for i := 0; i < len(n.child); i++ {
		c := n.child[i]
		var src string
		var values []*node
		switch c.kind {
		case funcLit:
			continue
		case forStmt0, forStmt1, forStmt2, forStmt3, forStmt4, forStmt5, forStmt6, forStmt7, forRangeStmt:
			if err := rf.rewrite(c, breaks+1, loops+1); err != nil {
				return err
			}
			continue
		case switchStmt, switchIfStmt, typeSwitch, selectStmt:
			if err := rf.rewrite(c, breaks+1, loops); err != nil {
				return err
			}
			continue
		case breakStmt, continueStmt, gotoStmt:
			src = rf.branch(c, breaks, loops)
		case returnStmt:
			src, values = rf.ret(c)
		default:
			if err := rf.rewrite(c, breaks, loops); err != nil {
				return err
			}
			continue
		}
		if src == "" {
			continue
		}
		stmts, err := rf.nodes(src)
		if err != nil {
			return err
		}
		fill := map[string]*node{}
		for j, v := range values {
			fill[fmt.Sprintf("_rf_V%d", j)] = v
		}
		b := stmts[0]
		b.anc = n
		replacePlaceholders(b, fill)
		n.child[i] = b
	}
	return nil
}

const (
	rfBreak    = "_rf_state = 2; return false"
	rfContinue = "_rf_state = 0; return true"
)

// branch is the replacement of a break, continue or goto c, "" when c
// stays inside the body.
func (rf *rangeFunc) branch(c *node, breaks, loops int) string {
	if len(c.child) == 0 {
		switch {
		case c.kind == breakStmt && breaks == 0:
			return "{" + rfBreak + "}"
		case c.kind == continueStmt && loops == 0:
			return "{" + rfContinue + "}"
		}
		return ""
	}
	label := c.child[0].ident
	if rf.labels[label] {
		return ""
	}
	if label == rf.label && c.kind != gotoStmt {
		if c.kind == breakStmt {
			return "{" + rfBreak + "}"
		}
		return "{" + rfContinue + "}"
	}
	stmt := map[nkind]string{breakStmt: "break ", continueStmt: "continue ", gotoStmt: "goto "}[c.kind] + label
	code := -1
	for i, s := range rf.after {
		if s == stmt {
			code = i
		}
	}
	if code < 0 {
		code = len(rf.after)
		rf.after = append(rf.after, stmt)
	}
	return fmt.Sprintf("{_rf_next = %d; %s}", code+2, rfBreak)
}

// ret is the replacement of a return statement and the nodes of its values.
func (rf *rangeFunc) ret(c *node) (string, []*node) {
	rf.hasRet = true
	if len(c.child) == 0 {
		return "{_rf_next = 1; " + rfBreak + "}", nil
	}
	rf.values = true
	var dst, src []string
	for i := range rf.results {
		dst = append(dst, fmt.Sprintf("_rf_r%d", i))
	}
	for i := range c.child {
		src = append(src, fmt.Sprintf("_rf_V%d", i))
	}
	return fmt.Sprintf("{%s = %s; _rf_next = 1; %s}", strings.Join(dst, ", "), strings.Join(src, ", "), rfBreak), c.child
}

// skeleton is the source of the lowered loop, with placeholders.
func (rf *rangeFunc) skeleton(nparams int) string {
	var b strings.Builder
	b.WriteString("var _rf_state, _rf_next int\n")
	var res []string
	if rf.values {
		for i := range rf.results {
			fmt.Fprintf(&b, "var _rf_r%d _rf_T%d\n", i, i)
			res = append(res, fmt.Sprintf("_rf_r%d", i))
		}
	}
	var ps []string
	for i := 0; i < nparams; i++ {
		ps = append(ps, fmt.Sprintf("_rf_K%d _rf_P%d", i, i))
	}
	fmt.Fprintf(&b, "_rf_X(func(%s) bool {\nif _rf_state != 0 { _rf_fail(_rf_state) }\n_rf_state = 1\n_rf_BODY\n_rf_state = 0\nreturn true\n})\n", strings.Join(ps, ", "))
	b.WriteString("if _rf_state == 1 { _rf_fail(4) }\n_rf_state = 3\n")
	if rf.hasRet {
		fmt.Fprintf(&b, "if _rf_next == 1 { return %s }\n", strings.Join(res, ", "))
	}
	for i, s := range rf.after {
		fmt.Fprintf(&b, "if _rf_next == %d { %s }\n", i+2, s)
	}
	return b.String()
}

// nodes compiles src, statements, to nodes at the loop's position, with
// the lowering's names.
func (rf *rangeFunc) nodes(src string) ([]*node, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main\nfunc _() {\n"+src+"\n}", 0)
	if err != nil {
		return nil, rf.n.cfgErrorf("range over a function: %v", err)
	}
	root, err := astOf(rf.interp, f)
	if err != nil {
		return nil, err
	}
	var body *node
	for _, c := range root.child {
		if c.kind == funcDecl {
			body = c.child[3]
		}
	}
	lit := rf.n.pos
	var fix func(m *node)
	fix = func(m *node) {
		m.pos = lit
		switch {
		case m.ident == "_rf_fail":
			m.ident = "rangefunc·fail"
		case strings.HasPrefix(m.ident, "_rf_") && !isPlaceholder(m.ident):
			m.ident = rf.name(m.ident[len("_rf_"):])
		}
		if m.kind == funcLit {
			m.meta = rangeFuncBody{}
		}
		for _, c := range m.child {
			fix(c)
		}
	}
	fix(body)
	return body.child, nil
}

// astOf is Interpreter.ast, set at initialisation: the table of builtin
// generators refers to the compiler, which lowers loops with it.
var astOf func(interp *Interpreter, f goast.Node) (*node, error)

func init() {
	astOf = func(interp *Interpreter, f goast.Node) (*node, error) {
		_, root, err := interp.ast(f)
		return root, err
	}
}

// isPlaceholder tells the names nodes of the loop replace.
func isPlaceholder(s string) bool {
	for _, p := range []string{"_rf_X", "_rf_BODY", "_rf_K", "_rf_V"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// replacePlaceholders puts the nodes of fill in place of the identifiers
// they are named by; a parameter without variable is blank.
func replacePlaceholders(n *node, fill map[string]*node) {
	for i, c := range n.child {
		if c.kind == identExpr && isPlaceholder(c.ident) {
			if m := fill[c.ident]; m != nil {
				if strings.HasPrefix(c.ident, "_rf_K") {
					c.ident = m.ident
					continue
				}
				m.anc = n
				n.child[i] = m
				continue
			}
			if strings.HasPrefix(c.ident, "_rf_K") {
				c.ident = "_"
				continue
			}
		}
		if c.kind == exprStmt && len(c.child) == 1 && c.child[0].ident == "_rf_BODY" {
			m := fill["_rf_BODY"]
			m.anc = n
			n.child[i] = m
			continue
		}
		replacePlaceholders(c, fill)
	}
}

// rangeFuncLevels is the number of lowered loop bodies between n and the
// function its defer or recover belongs to.
func rangeFuncLevels(n *node) int {
	levels := 0
	for fn := enclosingFunc(n); fn != nil && fn.kind == funcLit; fn = enclosingFunc(fn) {
		if _, ok := fn.meta.(rangeFuncBody); !ok {
			break
		}
		levels++
	}
	return levels
}

// deferTarget is the frame a deferred call made in frame f goes to: the
// frame of the function around the loop bodies levels deep.
func deferTarget(f *frame, levels int) *frame {
	for i := 0; i < levels; i++ {
		f = f.anc
		if f.orig != nil {
			f = f.orig
		}
	}
	return f
}

// pushDeferred defers the call val made in frame f, levels loop bodies
// deep.
func pushDeferred(f *frame, levels int, val []reflect.Value) {
	f = deferTarget(f, levels)
	f.deferred = append([][]reflect.Value{val}, f.deferred...)
}

// defineLabels defines the labels of the statements of a block or of a
// clause of a switch or select in sc, so they are defined when a branch
// meets them. routelab patch: those of a clause were not (a forward goto
// to one crashed the compiler).
func defineLabels(sc *scope, n *node) {
	for _, c := range n.child {
		if c.kind != labeledStmt {
			continue
		}
		label := c.child[0].ident
		sym := &symbol{kind: labelSym, node: c, index: -1}
		sc.sym[label] = sym
		c.sym = sym
	}
}
