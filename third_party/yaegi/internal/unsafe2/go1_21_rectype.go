//go:build go1.21
// +build go1.21

package unsafe2

import (
	"reflect"
	"unsafe"
)

// routelab patch: the component types of a type made by reflect at run
// time are set afterwards, so that a type can contain itself other than
// through a struct field (type S []S). Each setter checks that the word it
// overwrites holds the component it replaces, and does nothing otherwise.

// abiFuncType is the head of a function type; its parameter types follow it.
type abiFuncType struct {
	abiType
	InCount  uint16
	OutCount uint16
}

const tflagUncommon = 1 << 0

// word returns the address of the pointer to a type at offset off in t.
func word(t *abiType, off uintptr) **abiType {
	return (**abiType)(unsafe.Add(unsafe.Pointer(t), off))
}

// setWords writes news into the words ws if they hold olds.
func setWords(ws []**abiType, olds, news []reflect.Type) bool {
	for i, w := range ws {
		if *w != unpackType(olds[i]) {
			return false
		}
	}
	for i, w := range ws {
		*w = unpackType(news[i])
	}
	return true
}

// SetElem sets the element type of the pointer, slice, channel or array
// type t (and the slice type of an array type), and the key and element
// types of the map type t (key is ignored for other kinds). It reports
// whether it could.
func SetElem(t, key, elem reflect.Type) bool {
	rt := unpackType(t)
	head, ptr := unsafe.Sizeof(abiType{}), unsafe.Sizeof(uintptr(0))
	switch t.Kind() {
	case reflect.Ptr, reflect.Slice, reflect.Chan:
		return setWords([]**abiType{word(rt, head)}, []reflect.Type{t.Elem()}, []reflect.Type{elem})
	case reflect.Array:
		return setWords([]**abiType{word(rt, head), word(rt, head+ptr)},
			[]reflect.Type{t.Elem(), reflect.SliceOf(t.Elem())}, []reflect.Type{elem, reflect.SliceOf(elem)})
	case reflect.Map:
		return setWords([]**abiType{word(rt, head), word(rt, head+ptr)},
			[]reflect.Type{t.Key(), t.Elem()}, []reflect.Type{key, elem})
	}
	return false
}

// SetParams sets the parameter and result types of the function type t.
func SetParams(t reflect.Type, in, out []reflect.Type) bool {
	if t.Kind() != reflect.Func || t.NumIn() != len(in) || t.NumOut() != len(out) {
		return false
	}
	rt := unpackType(t)
	if *(*uint8)(unsafe.Add(unsafe.Pointer(rt), 2*unsafe.Sizeof(uintptr(0))+4))&tflagUncommon != 0 {
		return false // the parameters would follow the methods
	}
	off := unsafe.Sizeof(abiFuncType{})
	var ws []**abiType
	var olds []reflect.Type
	for i := range in {
		olds = append(olds, t.In(i))
	}
	for i := range out {
		olds = append(olds, t.Out(i))
	}
	for i := range olds {
		ws = append(ws, word(rt, off+uintptr(i)*unsafe.Sizeof(uintptr(0))))
	}
	return setWords(ws, olds, append(append([]reflect.Type{}, in...), out...))
}
