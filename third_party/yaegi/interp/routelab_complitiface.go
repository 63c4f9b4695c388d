package interp

import "reflect"

// interfaceStore returns how the array, slice or map literal n is stored
// when it is assigned in place to a variable of a source interface type
// (var k I = MM{…}): in a valueInterface that keeps its type and methods,
// as a struct literal is (routelab patch: the bare value was set in the
// variable's valueInterface slot, "reflect.Set: value of type map[int]bool
// is not assignable to type interp.valueInterface"). It is nil otherwise.
func interfaceStore(n *node) func(d, v reflect.Value) {
	a := n.anc
	// x = lit, x := lit, or var x T = lit (a define with the type between).
	single := len(a.child) == 2 || a.kind == defineStmt && len(a.child) == 3
	if (a.kind != assignStmt && a.kind != defineStmt) || !single || a.lastChild() != n {
		return nil
	}
	dt := a.child[0].typ
	if dt == nil || !isInterfaceSrc(dt) {
		return nil
	}
	wrap := len(dt.field) > 0 || keepsType(n)
	return func(d, v reflect.Value) {
		// The literal is written in the variable's slot, or in a slot of
		// its own that the assignment copies from.
		if wrap && (d.Type() == valueInterfaceType || d.Kind() == reflect.Interface) {
			d.Set(reflect.ValueOf(valueInterface{n, v}))
			return
		}
		d.Set(v)
	}
}
