package interp

import "reflect"

// genMapKey generates the key k of an index of the map m: the key type's
// zero value for nil (m[nil] with m a map[*T]int: "MapIndex: value of type
// interface {} is not assignable to type *struct { X int }"), a
// valueInterface for a key of an interface type of the program's, as yaegi
// did. routelab patch: yaegi read a map with a nil key, and set and deleted
// its entry, with the untyped nil.
func genMapKey(m, k *node) func(*frame) reflect.Value {
	if k.typ != nil && k.typ.cat == nilT {
		if t := m.typ.TypeOf(); t != nil && t.Kind() == reflect.Map {
			z := reflect.Zero(t.Key())
			return func(*frame) reflect.Value { return z }
		}
	}
	if kt := mapKeyType(m.typ); isSourceInterfaceKey(kt) {
		return k.interp.canonicalKeys(genDestValue(kt, k))
	}
	if isInterfaceSrc(k.typ) {
		return genValueInterface(k)
	}
	return genValue(k)
}

// needsMapKey tells whether the constant key of the map index n is nil, which
// genMapKey makes the key type's zero value, or a key of an interface type,
// which genMapKey makes canonical.
func needsMapKey(n *node) bool {
	k := n.child[1]
	return k.typ != nil && k.typ.cat == nilT || isSourceInterfaceKey(mapKeyType(n.child[0].typ))
}

// mapKeyType is the key type of the map type t, or nil.
func mapKeyType(t *itype) *itype {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	if t == nil || t.cat != mapT {
		return nil
	}
	return t.key
}

// isSourceInterfaceKey tells whether the map key type t is an interface of
// the interpreter's (any, interface{}, an interface of the program's), whose
// keys may hold valueInterface wrappers.
func isSourceInterfaceKey(t *itype) bool {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	return t != nil && t.cat == interfaceT
}

// A map key of an interface type that holds a value of a source type with
// methods is a valueInterface, a node and a reflect.Value. Go's map compares
// it with ==, which compares the node by identity and the reflect.Value by
// its internal pointer: keys equal in Go (C(1) stored twice, or stored then
// looked up) were different keys. canonicalKeys makes such a key canonical
// (routelab patch): its node is the first one seen for its dynamic type, and
// its value the first reflect.Value seen for an equal Go value (a map with
// interface{} keys compares those as Go does). The interpreter keeps each
// distinct key value it has canonicalized.
func (interp *Interpreter) canonicalKeys(gen func(*frame) reflect.Value) func(*frame) reflect.Value {
	return func(f *frame) reflect.Value {
		return interp.canonicalKey(gen(f))
	}
}

type keyTypeID struct {
	id string
	rt reflect.Type
}

func (interp *Interpreter) canonicalKey(v reflect.Value) reflect.Value {
	if !v.IsValid() {
		return v
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return v
		}
		v = v.Elem()
	}
	if v.Type() != valueInterfaceType {
		return v
	}
	vi := v.Interface().(valueInterface)
	for vi.value.IsValid() && vi.value.Type() == valueInterfaceType {
		vi = vi.value.Interface().(valueInterface)
	}
	if vi.node == nil || vi.node.typ == nil || !vi.value.IsValid() {
		return reflect.ValueOf(valueInterface{})
	}
	if vi.value.Kind() == reflect.Interface {
		if vi.value.IsNil() {
			return reflect.ValueOf(valueInterface{})
		}
		vi.value = vi.value.Elem()
	}
	if !vi.value.CanInterface() {
		return reflect.ValueOf(vi)
	}
	id := keyTypeID{vi.node.typ.id(), vi.value.Type()}
	n, _ := interp.keyNodes.LoadOrStore(id, vi.node)
	x := vi.value.Interface()
	c, _ := interp.keyValues.LoadOrStore(x, reflect.ValueOf(x)) // panics for an unhashable x, as Go's map does
	return reflect.ValueOf(valueInterface{n.(*node), c.(reflect.Value)})
}
