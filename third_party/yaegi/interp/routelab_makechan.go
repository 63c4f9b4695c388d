package interp

import "reflect"

// makeChan is make(typ, size) of a channel type, which Go allows for a
// send-only or receive-only type too (routelab patch: reflect.MakeChan
// refuses those, "reflect.MakeChan: unidirectional channel type"); such a
// channel is made bidirectional, then converted.
func makeChan(typ reflect.Type, size int) reflect.Value {
	if typ.ChanDir() == reflect.BothDir {
		return reflect.MakeChan(typ, size)
	}
	return reflect.MakeChan(reflect.ChanOf(reflect.BothDir, typ.Elem()), size).Convert(typ)
}
