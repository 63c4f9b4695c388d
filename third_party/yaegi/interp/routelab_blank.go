package interp

import "reflect"

// blankDests gives each blank destination of a comma-ok assignment
// (`_, ok = <-c`, `_, ok = x.(T)`, `_, ok = m[k]`) a frame slot of the type it
// receives. A blank identifier has no symbol and was left at frame slot 0, so
// the receive or assertion stored its value into whatever variable held that
// slot: a reflect panic when the types differed, a silent overwrite otherwise.
func blankDests(sc *scope, n *node) {
	l := len(n.child) - 1
	src := n.child[l]
	if src.kind == callExpr {
		// assignFromCall skips its blank destinations.
		return
	}
	for i, c := range n.child[:l] {
		if !isBlank(c) {
			continue
		}
		t := src.typ
		if i == 1 {
			t = sc.predeclaredType("bool")
		}
		if t == nil {
			continue
		}
		c.typ, c.findex, c.level = t, sc.add(t), 0
	}
}

// storeStatus stores the status of a comma-ok operation into v, which may be an
// interface (`var ok any; i, ok = <-c`: SetBool panicked on it).
func storeStatus(v reflect.Value, ok bool) {
	if v.Kind() == reflect.Bool {
		v.SetBool(ok)
		return
	}
	v.Set(reflect.ValueOf(ok))
}
