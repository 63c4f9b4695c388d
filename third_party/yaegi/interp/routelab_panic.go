package interp

import (
	"reflect"
	"runtime"
)

// routelab patch: panic and the deferred calls it runs behave as Go's.

// runDeferred makes the deferred call val of frame f. A panic in it
// replaces the frame's panic, and the frame's remaining deferred calls
// still run and may recover it, as in Go (the panic left the loop over
// the deferred calls, so the calls after it never ran).
func runDeferred(f *frame, val []reflect.Value) {
	defer func() {
		if r := recover(); r != nil {
			f.mutex.Lock()
			f.recovered = r
			f.mutex.Unlock()
		}
	}()
	val[0].Call(val[1:])
}

// panicValue is the value panic(v) panics with: v's Go value, which
// recover returns (it was the reflect.Value holding it, so a recovered
// value compared unequal to the one passed to panic), and Go's
// *runtime.PanicNilError for nil.
func panicValue(v reflect.Value) any {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if !v.IsValid() {
		return new(runtime.PanicNilError)
	}
	if !v.CanInterface() {
		return v
	}
	if vi, ok := v.Interface().(valueInterface); ok && vi.node == nil {
		return new(runtime.PanicNilError)
	}
	return v.Interface()
}

// deferRecover compiles defer recover(): a deferred call, made when the
// function returns (it ran at the defer statement, so it stopped a panic
// that Go lets go on). As in Go, it stops the panic that runs the
// function as a deferred call only when the function returns normally:
// run by the function's own panic, it is not called by a deferred
// function, and recovers nothing.
func deferRecover(n *node, next bltn) {
	levels := rangeFuncLevels(n)
	n.exec = func(f *frame) bltn {
		call := func() {
			if f.recovered == nil && f.anc != nil {
				f.anc.recovered = nil
			}
		}
		pushDeferred(f, levels, []reflect.Value{reflect.ValueOf(call)})
		return next
	}
}
