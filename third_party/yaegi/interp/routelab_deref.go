package interp

import "reflect"

// nilDerefError is Go's run-time error for a dereference of a nil pointer
// (reflect's Elem of a nil pointer is the zero Value, which printed as a
// nil interface or failed later in reflect.Value.Set).
type nilDerefError struct{}

func (nilDerefError) Error() string {
	return "runtime error: invalid memory address or nil pointer dereference"
}

// RuntimeError makes nilDerefError a runtime.Error, as Go's own is.
func (nilDerefError) RuntimeError() {}

// derefValue is *p, failing as Go does when p is nil.
func derefValue(p reflect.Value) reflect.Value {
	if p.Kind() == reflect.Pointer && p.IsNil() {
		panic(nilDerefError{})
	}
	return p.Elem()
}
