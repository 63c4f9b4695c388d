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
