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

// panicwrapError is Go's run-time error for a value method called through
// an interface that holds a nil pointer (runtime.panicwrap).
type panicwrapError string

func (e panicwrapError) Error() string { return string(e) }

// RuntimeError makes panicwrapError a runtime.Error, as Go's own is.
func (panicwrapError) RuntimeError() {}

// nilReceiverError is the panic of a call of the value method def with a
// nil pointer as its receiver: through an interface, Go's pointer wrapper
// names the method; otherwise the call dereferences the pointer.
func nilReceiverError(def *node, viaInterface bool) error {
	t := def.child[0].child[0].lastChild().typ
	if !viaInterface || t == nil || t.name == "" {
		return nilDerefError{}
	}
	pkg := t.path
	if pkg == "" {
		pkg = "main"
	}
	return panicwrapError("value method " + pkg + "." + t.name + "." + def.child[1].ident + " called using nil *" + t.name + " pointer")
}
