package interp

import "reflect"

// newValue generates new(expr), which Go 1.26 allows: a pointer to a new
// variable holding the value of expr, of its type (the default type of an
// untyped constant or comparison). routelab patch: yaegi allocated a zero
// value of the expression's type (new(123) pointed to 0: Go's newexpr.go).
func newValue(n *node) {
	next := getExec(n.tnext)
	et := n.typ.val
	typ := et.TypeOf()
	if isInterfaceSrc(et) {
		typ = valueInterfaceType
	}
	dest := genValueOutput(n, reflect.PointerTo(typ))
	value := genDestValue(et, n.child[1])
	n.exec = func(f *frame) bltn {
		v := reflect.New(typ)
		v.Elem().Set(value(f))
		dest(f).Set(v)
		return next
	}
}
