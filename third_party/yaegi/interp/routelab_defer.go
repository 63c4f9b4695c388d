package interp

import "reflect"

// copyValue is v, detached from the variable it may be: a deferred call's
// arguments are evaluated when the defer statement runs, and a reflect.Value
// of a frame's slot would show the variable's value at the call.
func copyValue(v reflect.Value) reflect.Value {
	if !v.IsValid() || !v.CanAddr() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}
