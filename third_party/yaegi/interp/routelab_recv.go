package interp

import "reflect"

// setSlot stores a received v in the frame slot data[i]. In a return
// statement (inPlace) the slot is the caller's result, so v is written into
// its memory. Elsewhere the slot gets a fresh addressable cell: writing in
// place would reuse the memory of the previous iteration's variable (x :=
// <-ch in a loop, with &x or a closure over x kept, saw every x change), and
// the value as received is not addressable, so a later Set on it failed.
// A value of another type (a source interface's wrapper) replaces the slot.
func setSlot(data []reflect.Value, i int, v reflect.Value, inPlace bool) {
	d := data[i]
	if !d.CanSet() || !v.IsValid() || !v.Type().AssignableTo(d.Type()) {
		data[i] = v
		return
	}
	if inPlace {
		d.Set(v)
		return
	}
	nv := reflect.New(d.Type()).Elem()
	nv.Set(v)
	data[i] = nv
}

// freshSlot gives the variable n, declared by a select clause's receive, a
// new cell in its frame, so that the previous execution's variable keeps its
// value.
func freshSlot(f *frame, n *node) {
	if n == nil || n.ident == "_" || n.findex < 0 {
		return
	}
	data := getFrame(f, n.level).data
	if d := data[n.findex]; d.IsValid() {
		data[n.findex] = reflect.New(d.Type()).Elem()
	}
}
