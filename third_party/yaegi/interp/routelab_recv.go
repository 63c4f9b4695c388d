package interp

import "reflect"

// setSlot stores v in the frame slot data[i] in place: the slot may be the
// caller's result (return <-ch writes the function's result slot, which is
// the caller's), or a variable, and a received value put in its place is
// not addressable, so the return's or a later assignment's Set failed
// ("reflect.Value.Set using unaddressable value"). A value of another type
// (a source interface's wrapper) replaces the slot, as before.
func setSlot(data []reflect.Value, i int, v reflect.Value) {
	if d := data[i]; d.CanSet() && v.IsValid() && v.Type().AssignableTo(d.Type()) {
		d.Set(v)
		return
	}
	data[i] = v
}
