package interp

import "reflect"

// ownedValue is v as an interface holds it: a copy when v is a variable, a
// frame slot or a call's result slot (routelab patch). A valueInterface kept
// the slot itself, so an interface value changed with the variable it was
// made from (var i I = x; x = y; i showed y), and an interface sent on a
// channel or appended to a slice showed what the sender's slot held later
// (Go's chan/powser2.go computed with other goroutines' numbers).
func ownedValue(v reflect.Value) reflect.Value {
	if !v.IsValid() || !v.CanAddr() {
		return v
	}
	if v.Kind() != reflect.Interface && v.CanInterface() {
		// Not addressable, and without allocation for a pointer.
		return reflect.ValueOf(v.Interface())
	}
	return copyValue(v)
}

// isInterfaceSlot reports whether v, a frame slot, holds an interface value.
// A composite literal assigned to an interface is written there when the
// assignment gives it the destination's slot; one assigned to a struct
// field or an element has a slot of its own type, which the assignment
// wraps (routelab patch: it stored the valueInterface into its own slot,
// "reflect.Set: value of type interp.valueInterface is not assignable to
// type struct {…}").
func isInterfaceSlot(v reflect.Value) bool {
	return v.Kind() == reflect.Interface || v.Type() == valueInterfaceType
}

// wrappedMapResult is the node whose type the value of the comma-ok map
// index n keeps in its destination, a source interface (an any for a type
// with methods), when the map's elements are concrete, else nil (routelab patch: the element was stored
// bare into the interface's valueInterface slot, "reflect.Set: value of type
// int is not assignable to type interp.valueInterface", and the zero value
// of a missing key was a nil interface).
func wrappedMapResult(n *node) *node {
	d := n.anc.child[0]
	m := n.child[0].typ
	if d.typ == nil || m == nil || !isInterfaceSrc(d.typ) {
		return nil
	}
	if m.cat == linkedT {
		m = m.val
	}
	if m.cat != mapT || m.val == nil || isInterface(m.val) {
		return nil
	}
	if isEmptyInterface(d.typ) && !hasSrcMethods(m.val, map[*itype]bool{}) {
		// An any keeps the bare value, unless its methods are needed.
		return nil
	}
	return &node{kind: basicLit, typ: m.val}
}
