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

// isNilPointerFor tells whether src, past the interpreter's interface
// wrappers, is a nil pointer bound to a value receiver param: Go panics
// there, where reflect would fail on the missing value.
func isNilPointerFor(src reflect.Value, param reflect.Type) bool {
	for {
		vs, ok := src.Interface().(valueInterface)
		if !ok {
			break
		}
		src = vs.value
	}
	return src.Kind() == reflect.Ptr && param.Kind() != reflect.Ptr && src.IsNil()
}

// isNilValueInterface reports whether vi, the value of an interface, is nil:
// a method called on it has no receiver.
func isNilValueInterface(vi valueInterface) bool {
	return vi.node == nil && !vi.value.IsValid()
}
