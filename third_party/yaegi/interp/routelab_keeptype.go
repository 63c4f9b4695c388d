package interp

// keepsType reports whether the value of n, stored in an empty interface,
// must keep its interpreted type (in a valueInterface) for its methods to
// be found by a type assertion or switch: its type, or the type its
// pointer points to, has methods. A conversion to an interface,
// any(x), is x itself (routelab patch).
func keepsType(n *node) bool {
	n = convertedOperand(n)
	t := n.typ
	if t == nil {
		return false
	}
	if len(t.method) > 0 {
		return true
	}
	return t.cat == ptrT && t.val != nil && len(t.val.method) > 0
}

// convertedOperand returns the operand of n if n is a conversion to a
// source interface, which shares its operand's value (cfg.go), else n.
func convertedOperand(n *node) *node {
	for n.action == aConvert && len(n.child) == 2 && n.typ != nil && n.typ.cat == interfaceT && n.typ.val != nil && n.typ.val == n.child[1].typ {
		n = n.child[1]
	}
	return n
}
