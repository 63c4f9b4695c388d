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
	if emptyInterfaceKeys(m.typ) {
		return genValueConcrete(k)
	}
	if isInterfaceSrc(k.typ) {
		return genValueInterface(k)
	}
	return genValue(k)
}

// emptyInterfaceKeys reports whether t is a map type whose keys are empty
// interfaces. Its keys are concrete values, never valueInterfaces, which
// compare by identity: an interpreted value with methods kept with its type
// in an interface is stored and looked up as its concrete value.
func emptyInterfaceKeys(t *itype) bool {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	return t != nil && t.cat == mapT && isEmptyInterface(t.key)
}

// needsMapKey tells whether the constant key of the map index n is nil, which
// genMapKey makes the key type's zero value.
func needsMapKey(n *node) bool {
	k := n.child[1]
	return k.typ != nil && k.typ.cat == nilT
}
