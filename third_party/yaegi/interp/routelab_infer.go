package interp

import "reflect"

// routelab patch: the result type of a call to a generic function, inferred
// from the types of its arguments without compiling the call. Global type
// analysis needs it for `x := f(args)` at the top level of a REPL input,
// where it used to register x with the unresolved type parameter and panic
// "nil reflect type".

// genericCallType returns the type of the single result of call, a call of
// the generic function of type ft.
func genericCallType(interp *Interpreter, sc *scope, call *node, ft *itype, seen []*node) (*itype, error) {
	args := make([]typedArg, len(call.child)-1)
	for i, a := range call.child[1:] {
		at, err := nodeType2(interp, sc, a, seen)
		if err != nil {
			return nil, err
		}
		if at.incomplete {
			return at, nil
		}
		args[i] = typedArg{at, a.rval}
	}
	bind := inferTypeArgs(sc, ft, args)
	if t := instanceResult(interp, sc, ft, 0, bind); t != nil {
		return t, nil
	}
	t, name := substType(ft.ret[0], bind)
	if name != "" {
		return nil, call.cfgErrorf("cannot infer %s", name)
	}
	return t, nil
}

// genericCallResults returns the types of the results of call, a call of
// the generic function of type ft.
func genericCallResults(interp *Interpreter, sc *scope, call *node, ft *itype) ([]*itype, error) {
	args := make([]typedArg, len(call.child)-1)
	for i, a := range call.child[1:] {
		at, err := nodeType(interp, sc, a)
		if err != nil {
			return nil, err
		}
		args[i] = typedArg{at, a.rval}
	}
	bind := inferTypeArgs(sc, ft, args)
	types := make([]*itype, len(ft.ret))
	for i, r := range ft.ret {
		if t := instanceResult(interp, sc, ft, i, bind); t != nil {
			types[i] = t
			continue
		}
		t, name := substType(r, bind)
		if name != "" {
			return nil, call.cfgErrorf("cannot infer %s", name)
		}
		types[i] = t
	}
	return types, nil
}

// instanceResult is result i of the generic function type ft when it is an
// instance of a generic type (iter.Seq2[int, E]): its expression evaluated
// with the type parameters bound (substType cannot instantiate it: "cannot
// infer Seq2"); nil when it is not one or does not evaluate.
func instanceResult(interp *Interpreter, sc *scope, ft *itype, i int, bind map[string]*itype) *itype {
	if ft.ret[i].cat != genericT || ft.node == nil || ft.node.kind != funcType || len(ft.node.child) < 3 {
		return nil
	}
	var rn *node
	k := 0
	for _, field := range ft.node.child[2].child {
		names := max(len(field.child)-1, 1)
		if i < k+names {
			rn = field.lastChild()
			break
		}
		k += names
	}
	if rn == nil || (rn.kind != indexExpr && rn.kind != indexListExpr) {
		return nil
	}
	dsc := sc
	if ft.scope != nil {
		dsc = ft.scope
	}
	tsc := dsc.pushBloc()
	for name, b := range bind {
		tsc.sym[name] = &symbol{kind: typeSym, typ: b}
	}
	t, err := nodeType(interp, tsc, copyTree(rn, rn.anc))
	if err != nil || t == nil || t.incomplete || t.cat == genericT {
		return nil
	}
	return t
}

// typedArg is an argument of a call: its type and, for a constant, its value.
type typedArg struct {
	typ *itype
	val reflect.Value
}

// inferTypeArgs binds the type parameters of the generic function type ft
// from the arguments of a call, as Go does: typed arguments first, then the
// default types of untyped constant arguments for parameters still unbound
// (the widest kind among them: 1 and 2.5 give float64), then the core types
// of constraints (S ~[]E bound to []string binds E to string).
// routelab patch: yaegi bound type parameters by position of appearance,
// ignored constraints and took untyped constants' types as they came.
func inferTypeArgs(sc *scope, ft *itype, args []typedArg) map[string]*itype {
	bind := map[string]*itype{}
	untyped := map[string]*itype{}
	for i, a := range args {
		p := paramFor(ft.arg, i)
		if p == nil || a.typ == nil || a.typ.cat == nilT {
			// nil binds nothing (Reduce(s, nil, func(acc []int, …)) bound U to nil's type).
			continue
		}
		if !a.typ.untyped {
			unifyType(p, a.typ, bind)
			instanceArgs(ft, i, a.typ, bind)
			continue
		}
		if p.cat == genericT {
			if d := a.typ.defaultType(a.val, sc); untyped[p.name] == nil || untypedRank(d) > untypedRank(untyped[p.name]) {
				untyped[p.name] = d
			}
		}
	}
	for name, t := range untyped {
		if bind[name] == nil {
			bind[name] = t
		}
	}
	for changed := true; changed; {
		changed = false
		for _, g := range typeParams(ft) {
			core := coreType(g.val)
			if b := bind[g.name]; b != nil && core != nil {
				n := len(bind)
				unifyType(core, b.underlying(), bind)
				changed = changed || len(bind) > n
			}
		}
	}
	return bind
}

// instanceArgs binds the type parameters that are the type arguments of
// parameter i of ft, an instance of a generic type (s Seq[V]), to those of
// the argument's type a (Seq[int] binds V to int): the parameter's type is
// the generic type itself, whose structure tells nothing.
func instanceArgs(ft *itype, i int, a *itype, bind map[string]*itype) {
	tn := paramTypeNode(ft, i)
	if a.targs == nil || ft.node.child[0].kind != fieldList || tn == nil || (tn.kind != indexExpr && tn.kind != indexListExpr) {
		return
	}
	params := map[string]bool{}
	for _, field := range ft.node.child[0].child {
		for _, id := range field.child[:len(field.child)-1] {
			params[id.ident] = true
		}
	}
	for j, e := range tn.child[1:] {
		if j < len(a.targs) && e.kind == identExpr && params[e.ident] && bind[e.ident] == nil {
			bind[e.ident] = a.targs[j]
		}
	}
}

// paramTypeNode is the type expression of parameter i of the generic
// function type ft, nil for a variadic one or when ft has no syntax.
func paramTypeNode(ft *itype, i int) *node {
	if ft.node == nil || ft.node.kind != funcType || len(ft.node.child) < 2 {
		return nil
	}
	k := 0
	for _, field := range ft.node.child[1].child {
		names := len(field.child) - 1
		if names == 0 {
			names = 1
		}
		if i < k+names {
			return field.lastChild()
		}
		k += names
	}
	return nil
}

// untypedRank orders the default types of untyped constants: a mix of
// kinds takes the last of int, rune, float64, complex128.
func untypedRank(t *itype) int {
	switch t.cat {
	case int32T:
		return 1
	case float64T:
		return 2
	case complex128T:
		return 3
	}
	return 0
}

// typeParams returns the type parameters of a generic function type, as
// the generic types that stand for them, in declaration order.
func typeParams(ft *itype) []*itype {
	var out []*itype
	seen := map[string]bool{}
	var walk func(t *itype)
	walk = func(t *itype) {
		if t == nil {
			return
		}
		switch t.cat {
		case genericT:
			if !seen[t.name] {
				seen[t.name] = true
				out = append(out, t)
				if core := coreType(t.val); core != nil {
					walk(core)
				}
			}
		case ptrT, sliceT, arrayT, chanT, chanSendT, chanRecvT, variadicT:
			walk(t.val)
		case mapT:
			walk(t.key)
			walk(t.val)
		case funcT:
			for _, a := range t.arg {
				walk(a)
			}
			for _, r := range t.ret {
				walk(r)
			}
		}
	}
	walk(ft)
	return out
}

// coreType is the single type a constraint allows (up to underlying types),
// or nil. A constraint written as a type (~[]E) is that type.
func coreType(c *itype) *itype {
	if c == nil {
		return nil
	}
	if c.cat != interfaceT && c.cat != constraintT {
		return c
	}
	if len(c.constraint)+len(c.ulconstraint) != 1 {
		return nil
	}
	if len(c.constraint) == 1 {
		return c.constraint[0]
	}
	return c.ulconstraint[0]
}

// paramFor is the type of the parameter that takes argument i, the element
// type of a final variadic parameter included.
func paramFor(params []*itype, i int) *itype {
	switch n := len(params); {
	case n == 0:
		return nil
	case i >= n-1 && params[n-1].cat == variadicT:
		return params[n-1].val
	case i < n:
		return params[i]
	}
	return nil
}

// unifyType binds the type parameters in p to the matching parts of a.
func unifyType(p, a *itype, bind map[string]*itype) {
	if p == nil || a == nil {
		return
	}
	switch p.cat {
	case genericT:
		if bind[p.name] == nil {
			bind[p.name] = a
		}
	case ptrT, sliceT, arrayT, chanT, chanSendT, chanRecvT, variadicT:
		unifyType(p.val, a.val, bind)
	case mapT:
		unifyType(p.key, a.key, bind)
		unifyType(p.val, a.val, bind)
	case funcT:
		for i := 0; i < len(p.arg) && i < len(a.arg); i++ {
			unifyType(p.arg[i], a.arg[i], bind)
		}
		for i := 0; i < len(p.ret) && i < len(a.ret); i++ {
			unifyType(p.ret[i], a.ret[i], bind)
		}
	}
}

// substType replaces the type parameters of t by their bindings. It returns
// the name of a type parameter it could not replace, if any.
func substType(t *itype, bind map[string]*itype) (*itype, string) {
	var sub func(*itype) *itype
	missing := ""
	sub = func(t *itype) *itype {
		if t == nil || missing != "" {
			return t
		}
		switch t.cat {
		case genericT:
			if b := bind[t.name]; b != nil {
				return b
			}
			missing = t.name
			return t
		case ptrT:
			return ptrOf(sub(t.val), withScope(t.scope))
		case sliceT:
			return sliceOf(sub(t.val), withScope(t.scope))
		case arrayT:
			return arrayOf(sub(t.val), t.length, withScope(t.scope))
		case chanT:
			return chanOf(sub(t.val), chanSendRecv, withScope(t.scope))
		case chanSendT:
			return chanOf(sub(t.val), chanSend, withScope(t.scope))
		case chanRecvT:
			return chanOf(sub(t.val), chanRecv, withScope(t.scope))
		case mapT:
			return mapOf(sub(t.key), sub(t.val), withScope(t.scope))
		case funcT:
			args := make([]*itype, len(t.arg))
			for i, a := range t.arg {
				args[i] = sub(a)
			}
			rets := make([]*itype, len(t.ret))
			for i, r := range t.ret {
				rets[i] = sub(r)
			}
			return funcOf(args, rets, withScope(t.scope))
		}
		if containsGeneric(t) {
			missing = t.id()
		}
		return t
	}
	out := sub(t)
	return out, missing
}

// containsGeneric reports whether t still mentions a type parameter.
func containsGeneric(t *itype) bool {
	if t == nil {
		return false
	}
	switch t.cat {
	case genericT:
		return true
	case structT:
		for _, f := range t.field {
			if containsGeneric(f.typ) {
				return true
			}
		}
	}
	return false
}

// incompleteTypeError reports a type that stayed unresolved: an undefined
// name, or a package that is not imported (routelab patch: "incomplete type
// T" did not say which name was missing).
func incompleteTypeError(t *itype) error {
	n := t.node
	switch {
	case n.kind == selectorExpr && n.child[0].kind == identExpr:
		return n.child[0].cfgErrorf("undefined: %s", n.child[0].ident)
	case n.kind == identExpr:
		return n.cfgErrorf("undefined: %s", n.ident)
	}
	return n.cfgErrorf("incomplete type %s", t.name)
}
