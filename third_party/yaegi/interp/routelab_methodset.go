package interp

// methodSet is Go's method set of the source type t: methods() without the
// methods declared with a pointer receiver unless t is a pointer (they are
// in a value's too through an embedded pointer field). yaegi records a
// pointer-receiver method on the base type as well, so a T in an interface
// asserted to an interface that needs one held (Go's interface/receiver.go).
func (t *itype) methodSet() methodSet {
	seen := map[*itype]bool{}
	var get func(typ *itype, ptr bool) methodSet
	get = func(typ *itype, ptr bool) methodSet {
		res := make(methodSet)
		if typ == nil || seen[typ] {
			return res
		}
		seen[typ] = true
		defer delete(seen, typ)
		switch typ.cat {
		case linkedT:
			for k, v := range get(typ.val, ptr) {
				res[k] = v
			}
		case ptrT:
			return typ.methods()
		case structT:
			for _, f := range typ.field {
				if !f.embed {
					continue
				}
				for k, v := range get(f.typ, ptr) {
					res[k] = v
				}
			}
		case interfaceT, valueT, errorT:
			return typ.methods()
		}
		for _, m := range typ.method {
			if !ptr && hasPointerReceiver(m) {
				continue
			}
			res[m.ident] = m.typ.TypeOf().String()
		}
		return res
	}
	return get(t, false)
}

// hasPointerReceiver tells whether the method declaration m has a pointer
// receiver.
func hasPointerReceiver(m *node) bool {
	if m == nil || m.kind != funcDecl || len(m.child) == 0 || len(m.child[0].child) == 0 {
		return false
	}
	return m.child[0].child[0].lastChild().kind == starExpr
}

// hasSourceMethods tells whether a value of the source type t has methods an
// interface may need, so that it is held in a valueInterface in an interface
// value: methods of its own, or methods of source types promoted through
// embedded fields (a *S with S embedding T was stored bare in an interface{},
// so asserting it to an interface of T's methods failed).
func hasSourceMethods(t *itype) bool {
	if t == nil {
		return false
	}
	if len(t.method) > 0 {
		return true
	}
	seen := map[*itype]bool{}
	var promotes func(typ *itype) bool
	promotes = func(typ *itype) bool {
		if typ == nil || seen[typ] {
			return false
		}
		seen[typ] = true
		if len(typ.method) > 0 {
			return true
		}
		switch typ.cat {
		case linkedT, ptrT:
			return promotes(typ.val)
		case interfaceT:
			return len(typ.field) > 0
		case structT:
			for _, f := range typ.field {
				if f.embed && promotes(f.typ) {
					return true
				}
			}
		}
		return false
	}
	switch t.cat {
	case ptrT:
		return promotes(t.val)
	case structT, linkedT:
		return promotes(t)
	}
	return false
}
