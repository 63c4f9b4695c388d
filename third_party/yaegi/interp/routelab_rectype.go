package interp

// routelab patch: a defined type that contains itself other than through a
// struct field (type P *P, type S []S, type F func(F) F, type M
// map[string]M, type C chan C, or a cycle through several such types) is
// represented. Its itype is closed into a cycle (closeRecursiveDef), and its
// reflect type is built around a stand-in for the recursive occurrence and
// patched to refer to itself (recRefType, in routelab_rectype_reflect.go).

// closeRecursiveDef makes the itype t built for the type expression n of a
// type declaration the very itype that the declared name already denotes in
// sc (a forward reference, or an earlier incomplete build of n), so that the
// occurrences of the name inside t denote t itself. It returns the itype to
// use for n.
func closeRecursiveDef(sc *scope, n *node, t *itype) *itype {
	switch n.kind {
	case arrayType, starExpr, funcType, mapType, chanType, chanTypeSend, chanTypeRecv:
	default:
		return t
	}
	spec := n.anc
	if spec == nil || spec.kind != typeSpec || len(spec.child) != 2 || spec.child[1] != n {
		return t
	}
	sym := sc.sym[spec.child[0].ident]
	if sym == nil || sym.kind != typeSym || sym.typ == nil || sym.typ == t {
		return t
	}
	old := sym.typ
	if old.node != n && !(old.cat == nilT && old.node != nil && old.node.kind == identExpr) {
		return t
	}
	if !refersTo(t, old, map[*itype]bool{}) {
		return t
	}
	ptr, method := old.ptr, old.method
	*old = *t
	old.ptr, old.method = ptr, append(method, t.method...)
	old.incomplete, old.recursive = false, true
	old.incomplete = !settleRecursive(old, old, map[*itype]bool{})
	return old
}

// refersTo reports whether x is reachable from t.
func refersTo(t, x *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	if t == x {
		return true
	}
	seen[t] = true
	for _, c := range itypeChildren(t) {
		if refersTo(c, x, seen) {
			return true
		}
	}
	return false
}

// itypeChildren returns the component types of t.
func itypeChildren(t *itype) []*itype {
	var cs []*itype
	switch t.cat {
	case structT, interfaceT:
		for _, f := range t.field {
			cs = append(cs, f.typ)
		}
		return cs
	case funcT:
		cs = append(cs, t.arg...)
		return append(cs, t.ret...)
	}
	return append(cs, t.key, t.val)
}

// settleRecursive recomputes, below the closed type root, the completeness
// and the string of the unnamed types built while root was still a
// placeholder (their string was made with its empty one, and they were
// incomplete because of it). It reports whether t is complete.
func settleRecursive(t, root *itype, seen map[*itype]bool) bool {
	if t == nil {
		return true
	}
	if t == root && seen[t] || t != root && t.name != "" {
		return t == root || !t.incomplete
	}
	if seen[t] {
		return !t.incomplete
	}
	seen[t] = true
	complete := true
	for _, c := range itypeChildren(t) {
		if !settleRecursive(c, root, seen) {
			complete = false
		}
	}
	if t == root {
		return complete
	}
	t.incomplete = !complete
	switch t.cat {
	case ptrT:
		t.str = "*" + t.val.str
	case sliceT:
		t.str = "[]" + t.val.str
	case variadicT:
		t.str = "..." + t.val.str
	case arrayT:
		t.str = arrayOf(t.val, t.length).str
	case mapT:
		t.str = mapOf(t.key, t.val).str
	case chanT:
		t.str = chanOf(t.val, chanSendRecv).str
	case chanSendT:
		t.str = chanOf(t.val, chanSend).str
	case chanRecvT:
		t.str = chanOf(t.val, chanRecv).str
	case funcT:
		t.str = funcOf(t.arg, t.ret).str
	}
	return complete
}

// appendsElem reports whether the call append(s, x) without an ellipsis
// appends x as an element: so it does when x is of the element type, even if
// that is also the slice type (type T []T).
func appendsElem(n *node) bool {
	return n.action != aCallSlice && n.child[2].typ.id() == n.typ.elem().id()
}

// reuseForwardRef makes t, the type built for the declaration spec of a type
// defined by another's name (type B A), the itype that the name denotes in
// sc when that is still the placeholder of a forward reference: the types
// built before refer to that placeholder, and must see the declared type (a
// chain type T4 T5; type T5 T6; type T6 T7 left T4 on an unresolved T6).
func reuseForwardRef(sc *scope, spec *node, t *itype) *itype {
	sym := sc.sym[spec.child[0].ident]
	if sym == nil || sym.kind != typeSym || sym.typ == nil || sym.typ == t {
		return t
	}
	old := sym.typ
	if old.cat != nilT || !old.incomplete || old.node == nil || old.node.kind != identExpr {
		return t
	}
	for v := t.val; v != nil; v = v.val {
		if v == old {
			return t // type B A with A declared as B: a cycle, left to the checks
		}
		if v.cat != linkedT {
			break
		}
	}
	ptr, method := old.ptr, old.method
	*old = *t
	old.ptr, old.method = ptr, append(method, t.method...)
	return old
}

// refreshLinkedFields gives the types of sc defined by another's name, and
// those reachable from them, the fields of the struct or interface they end
// at: they copied them when they were made, before a forward reference was
// resolved (reuseForwardRef).
func refreshLinkedFields(sc *scope) {
	if sc == nil {
		return
	}
	seen := map[*itype]bool{}
	var visit func(t *itype)
	visit = func(t *itype) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if t.cat == linkedT && len(t.field) == 0 {
			u := t.val
			for i := 0; u != nil && u.cat == linkedT && i < 100; i++ {
				u = u.val
			}
			if u != nil && (u.cat == structT || u.cat == interfaceT) {
				t.field = u.field
			}
		}
		for _, c := range itypeChildren(t) {
			visit(c)
		}
	}
	for _, sym := range sc.sym {
		if sym.kind == typeSym {
			visit(sym.typ)
		}
	}
}
