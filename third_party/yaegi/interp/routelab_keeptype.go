package interp

import "reflect"

// keepsType reports whether the value of n, stored in an empty interface,
// must keep its interpreted type (in a valueInterface) for its methods to
// be found by a type assertion or switch: its type, or the type its
// pointer points to, has methods, its own or promoted. A conversion to an interface,
// any(x), is x itself (routelab patch).
func keepsType(n *node) bool {
	return hasSrcMethods(convertedOperand(n).typ, map[*itype]bool{})
}

// hasSrcMethods reports whether type t has interpreted methods: its own,
// those of the type it points to, or promoted from an embedded field.
func hasSrcMethods(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if len(t.method) > 0 {
		return true
	}
	switch t.cat {
	case ptrT:
		return hasSrcMethods(t.val, seen)
	case structT:
		for _, f := range t.field {
			if !f.embed {
				continue
			}
			if isInterfaceSrc(f.typ) && len(f.typ.field) > 0 || hasSrcMethods(f.typ, seen) {
				return true
			}
		}
	}
	return false
}

// convertedOperand returns the operand of n if n is a conversion to a
// source interface, which shares its operand's value (cfg.go), else n.
func convertedOperand(n *node) *node {
	for n.action == aConvert && len(n.child) == 2 && n.typ != nil && n.typ.cat == interfaceT && n.typ.val != nil && n.typ.val == n.child[1].typ {
		n = n.child[1]
	}
	return n
}

// genValueConcrete returns the value of n, an empty interface, for compiled
// code: an interpreted value kept with its type in a valueInterface is
// given as its concrete value.
func genValueConcrete(n *node) func(*frame) reflect.Value {
	value := genValue(n)
	return func(f *frame) reflect.Value {
		v := value(f)
		if v.Kind() == reflect.Interface && !v.IsNil() {
			if _, ok := v.Elem().Interface().(valueInterface); ok {
				return valueInterfaceValue(v.Elem())
			}
		}
		return v
	}
}

// methodOfConvertedValue returns the type of x for I(x).M, a method of
// source interface I called on the conversion of a concrete value x, else
// nil: the conversion shares x's frame slot, where the method is found on
// x's type (looked up on the interface, it read the concrete value as an
// interface: "reflect: call of reflect.Value.NumField on int Value").
func methodOfConvertedValue(n *node) *itype {
	c := n.child[0]
	x := convertedOperand(c)
	if x == c || x.typ == nil || isInterface(x.typ) || !isInterfaceSrc(c.typ) {
		return nil
	}
	if len(c.typ.lookupField(n.child[1].ident)) == 0 {
		return nil
	}
	return x.typ
}
