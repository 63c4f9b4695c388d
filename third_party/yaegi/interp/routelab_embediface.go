package interp

import "reflect"

// routelab patch: a method promoted from an interface embedded in a struct
// is found by the field's position in the interpreter's type. The reflect
// type marks an embedded field as such only when it is the struct's only
// field (golang/go#15924, refType), so a struct with another field had no
// anonymous field to search at run time: "invalid interface value".

// embeddedInterfacePath is the sequence of field indices from a value of
// type t (a struct, or a pointer to one) to the embedded interface that
// provides method name, as interfaceMethod finds it; nil when there is none.
func embeddedInterfacePath(t *itype, name string, seen map[*itype]bool) []int {
	if t == nil || seen[t] {
		return nil
	}
	seen[t] = true
	switch t.cat {
	case ptrT, linkedT:
		return embeddedInterfacePath(t.val, name, seen)
	case structT:
	default:
		return nil
	}
	for i, f := range t.field {
		if !f.embed {
			continue
		}
		if isInterfaceSrc(f.typ) {
			if f.typ.interfaceMethod(name) != nil {
				return []int{i}
			}
			continue
		}
		if p := embeddedInterfacePath(f.typ, name, seen); p != nil {
			return append([]int{i}, p...)
		}
	}
	return nil
}

// embeddedInterface is the interface value at path in v, following
// pointers.
func embeddedInterface(v reflect.Value, path []int) (valueInterface, bool) {
	for _, i := range path {
		for v.Kind() == reflect.Ptr {
			if v.IsNil() {
				return valueInterface{}, false
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct || i >= v.NumField() {
			return valueInterface{}, false
		}
		v = v.Field(i)
	}
	vi, ok := v.Interface().(valueInterface)
	return vi, ok
}
