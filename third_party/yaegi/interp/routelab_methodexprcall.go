package interp

// methodExprCall rewrites n, a call of a method expression, T.M(x, args...),
// as the call T(x).M(args...), which Go defines it to be (routelab patch:
// with T an interface type it was "too many arguments in call to I.M", and
// the method of a struct type promoted from an embedded interface, or a
// value method called through a pointer type, (*T).M(p), failed too; in an
// instance of a generic function T.M(t) is such a call whatever the type
// argument, and the cell's rewrite of method expressions does not reach
// it). A nil interface x gives Go's nil dereference error.
func methodExprCall(interp *Interpreter, sc *scope, n *node) {
	if len(n.child) < 2 {
		return
	}
	sel := n.child[0]
	if sel.kind != selectorExpr || len(sel.child) != 2 || !sel.child[0].isType(sc) {
		return
	}
	// A compiled type's method expression, error's included, is
	// binMethodExpr's.
	if t, err := nodeType(interp, sc, sel.child[0]); err != nil || t.cat == valueT || isInterfaceBin(t) || t.id() == "error" {
		return
	}
	recv, x := sel.child[0], n.child[1]
	conv := copyNode(n, sel, false)
	conv.action = aCall
	conv.child = []*node{recv, x}
	recv.anc, x.anc = conv, conv
	sel.child[0] = conv
	n.child = append([]*node{sel}, n.child[2:]...)
}
