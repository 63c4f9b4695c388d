package interp

import "reflect"

// isErrorOperand tells whether t is the error interface type.
func isErrorOperand(t *itype) bool {
	return t != nil && t.cat == errorT
}

// errorEqual generates == and != between two error values (routelab patch):
// an error of the program's is held in an _error wrapper, which holds a func
// and is not comparable, so err == error(E{}) panicked with "comparing
// uncomparable type interp._error". Two wrappers are equal when they wrap
// equal values (see _error.Is); otherwise the values compare as in Go.
func errorEqual(n *node) {
	tnext := getExec(n.tnext)
	var fnext bltn
	if n.fnext != nil {
		fnext = getExec(n.fnext)
	}
	v0, v1 := genValue(n.child[0]), genValue(n.child[1])
	want := n.action == aEqual
	dest := genValue(n)
	n.exec = func(f *frame) bltn {
		a, b := v0(f), v1(f)
		if a.Kind() == reflect.Interface {
			a = a.Elem()
		}
		if b.Kind() == reflect.Interface {
			b = b.Elem()
		}
		var r bool
		switch {
		case !a.IsValid() || !b.IsValid():
			r = a.IsValid() == b.IsValid()
		case a.Type() != b.Type():
			r = false
		case a.Type() == reflect.TypeOf(_error{}):
			r = a.Interface().(_error).Is(b.Interface().(_error))
		default:
			r = a.Interface() == b.Interface()
		}
		r = r == want
		dest(f).SetBool(r)
		if fnext != nil && !r {
			return fnext
		}
		return tnext
	}
}
