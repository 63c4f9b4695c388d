package interp

// routelab patch: constraint type inference. Type arguments that neither the
// explicit list nor the call's arguments give are inferred from the core
// types of the constraints, as Go does: `f[MySlice](s)` with
// `[S ~[]E, E any]` binds E to int from MySlice's underlying []int, and
// `f[T](s)` with `[T any, PT interface{ *T; Set(string) }]` binds PT to *T.
// yaegi failed with "undefined type for E". The core term is read from the
// constraint's syntax: yaegi's constraint types take an embedded `*T` for
// an embedded field, and an instance such as `Setter[T]` of a generic
// constraint is not built while T is a type parameter.

// coreTerm is the single type term of a constraint: its expression, the
// scope to evaluate it in, and whether it is a ~ term.
type coreTerm struct {
	expr  *node
	sc    *scope
	tilde bool
}

// maxConstraintDepth bounds the constraints embedded in one another that
// constraintCore follows.
const maxConstraintDepth = 16

// constraintCore returns the core term of the constraint expression n, read
// in scope sc; ok is false when the constraint has several terms (a union),
// and term is nil when it has none (any, comparable, methods only).
func constraintCore(interp *Interpreter, sc *scope, n *node, depth int) (term *coreTerm, ok bool) {
	if depth > maxConstraintDepth {
		return nil, false
	}
	switch n.kind {
	case unaryExpr: // ~T
		if n.action != aNop || len(n.child) != 1 {
			return nil, false
		}
		return &coreTerm{expr: n.child[0], sc: sc, tilde: true}, true
	case binaryExpr: // a union
		return nil, false
	case interfaceType:
		return interfaceCore(interp, sc, n, depth)
	case identExpr:
		sym, _, found := sc.lookup(n.ident)
		if !found || sym.kind != typeSym {
			return nil, false
		}
		switch {
		case sym.typ != nil && sym.typ.cat == genericT && sym.node != nil && sym.node.kind == typeSpec:
			return nil, false // a generic type without its arguments
		case sym.node != nil && sym.node.kind == typeSpec && sym.node.lastChild().kind == interfaceType:
			return interfaceCore(interp, sym.typ.scope, sym.node.lastChild(), depth)
		case sym.typ != nil && (sym.typ.cat == interfaceT || sym.typ.cat == constraintT) && sym.typ.node == nil:
			return nil, true // any, comparable
		case sym.typ != nil && sym.typ.cat == interfaceT && sym.typ.node != nil && sym.typ.node.kind == interfaceType:
			return interfaceCore(interp, sym.typ.scope, sym.typ.node, depth)
		case sym.typ != nil && sym.typ.cat == interfaceT:
			return nil, len(sym.typ.constraint)+len(sym.typ.ulconstraint) == 0
		}
		return &coreTerm{expr: n, sc: sc}, true
	case indexExpr, indexListExpr:
		return instanceCore(interp, sc, n, depth)
	}
	return &coreTerm{expr: n, sc: sc}, true
}

// interfaceCore returns the core term of an interface type literal.
func interfaceCore(interp *Interpreter, sc *scope, n *node, depth int) (*coreTerm, bool) {
	if sc == nil || len(n.child) == 0 {
		return nil, false
	}
	var term *coreTerm
	for _, f := range n.child[0].child {
		if len(f.child) != 1 || f.child[0].ident == "error" {
			continue // a method, or the error interface
		}
		t, ok := constraintCore(interp, sc, f.child[0], depth+1)
		if !ok || (t != nil && term != nil) {
			return nil, false
		}
		if t != nil {
			term = t
		}
	}
	return term, true
}

// instanceCore returns the core term of an instance of a generic
// constraint (Setter[T]): the term of its declaration, read in a scope
// where its type parameters stand for the types of the arguments.
func instanceCore(interp *Interpreter, sc *scope, n *node, depth int) (*coreTerm, bool) {
	base := n.child[0]
	if base.kind != identExpr {
		return nil, false
	}
	sym, _, found := sc.lookup(base.ident)
	if !found || sym.kind != typeSym || sym.node == nil || sym.node.kind != typeSpec || len(sym.node.child) < 3 || sym.typ == nil {
		return nil, false
	}
	spec := sym.node
	inst := &scope{anc: sym.typ.scope, level: sym.typ.scope.level, sym: map[string]*symbol{}, pkgID: sym.typ.scope.pkgID, pkgName: sym.typ.scope.pkgName, lean: true}
	args := n.child[1:]
	i := 0
	for _, field := range spec.child[1].child {
		for _, id := range field.child[:len(field.child)-1] {
			if i >= len(args) {
				return nil, false
			}
			t, err := nodeType(interp, sc, copyNode(args[i], args[i].anc, true))
			if err != nil || t.incomplete {
				return nil, false
			}
			inst.sym[id.ident] = &symbol{kind: typeSym, typ: t, index: -1}
			i++
		}
	}
	return constraintCore(interp, inst, spec.lastChild(), depth+1)
}

// inferFromConstraints completes bind, the type arguments of the generic
// function declared by fun known so far, from the core types of their
// constraints: a bound type parameter's type is unified with its core
// type, and an unbound one whose core term is exact (not ~) takes it.
func inferFromConstraints(interp *Interpreter, fun *node, bind map[string]*itype) {
	if fun == nil || fun.kind != funcDecl || len(fun.child) < 3 || fun.scope == nil {
		return
	}
	tparams := fun.child[2].child[0]
	// The type parameters are type parameters again in the scope the
	// constraints are read in (not the types of an earlier instance).
	psc := &scope{anc: fun.scope, level: fun.scope.level, sym: map[string]*symbol{}, pkgID: fun.scope.pkgID, pkgName: fun.scope.pkgName, lean: true}
	type param struct {
		name string
		core *itype
		term *coreTerm
	}
	var params []param
	for _, field := range tparams.child {
		for _, id := range field.child[:len(field.child)-1] {
			psc.sym[id.ident] = &symbol{kind: varTypeSym, index: -1}
		}
	}
	for _, field := range tparams.child {
		term, _ := constraintCore(interp, psc, field.lastChild(), 0)
		var core *itype
		if term != nil {
			if t, err := nodeType(interp, term.sc, copyNode(term.expr, term.expr.anc, true)); err == nil && !t.incomplete {
				core = t
			}
		}
		for _, id := range field.child[:len(field.child)-1] {
			params = append(params, param{id.ident, core, term})
		}
	}
	for changed := true; changed; {
		changed = false
		for _, p := range params {
			if p.core == nil || p.name == "_" {
				continue
			}
			n := len(bind)
			if b := bind[p.name]; b != nil {
				unifyType(p.core, b.underlying(), bind)
			} else if !p.term.tilde {
				if t, missing := substType(p.core, bind); missing == "" {
					bind[p.name] = t
				}
			}
			changed = changed || len(bind) > n
		}
	}
}

// typeParamNames returns the names of the type parameters of the generic
// function declared by fun, in order.
func typeParamNames(fun *node) []string {
	var names []string
	for _, field := range fun.child[2].child[0].child {
		for _, id := range field.child[:len(field.child)-1] {
			names = append(names, id.ident)
		}
	}
	return names
}

// completeTypeArgs completes the explicit type arguments types of an
// instance of the generic function fun by constraint type inference, or
// says which type parameter it cannot infer.
func completeTypeArgs(interp *Interpreter, fun *node, types []*itype) ([]*itype, error) {
	names := typeParamNames(fun)
	if len(types) >= len(names) {
		return types, nil
	}
	bind := map[string]*itype{}
	for i, t := range types {
		bind[names[i]] = t
	}
	inferFromConstraints(interp, fun, bind)
	out := make([]*itype, len(names))
	for i, name := range names {
		if out[i] = bind[name]; out[i] == nil {
			return nil, fun.child[2].child[0].cfgErrorf("in call to %s, cannot infer %s", fun.child[1].ident, name)
		}
	}
	return out, nil
}
