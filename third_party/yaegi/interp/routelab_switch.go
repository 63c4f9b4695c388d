package interp

import "reflect"

// isDefaultClause tells whether the case clause c is a switch's default.
func isDefaultClause(c *node) bool {
	return len(c.child) == 0 || len(c.child) == 1 && c.child[0].kind == caseBody
}

// switchOrder returns the order in which a switch tries its clauses: its
// cases in source order, then its default, wherever that is written.
// routelab patch: yaegi tried them in source order, the default included, so
// a default before a case was taken although the case matched (Go's
// switch.go, typeswitch.go).
func switchOrder(clauses []*node) []int {
	order := make([]int, 0, len(clauses))
	def := -1
	for i, c := range clauses {
		if isDefaultClause(c) {
			def = i
			continue
		}
		order = append(order, i)
	}
	if def >= 0 {
		order = append(order, def)
	}
	return order
}

// wireSwitchIf wires the clauses of a switch without a tag: each expression
// of a case, in order, goes to the case's body if true, to the next
// expression, case or the default if false. routelab patch: only a case's
// first expression was tested (case a, b: ignored b: Go's issue8325.go), and
// the default was tried in its source position.
func wireSwitchIf(n *node, clauses []*node) {
	l := len(clauses)
	for i, c := range clauses {
		c.gen = nop
		if len(c.child) == 0 {
			c.tnext = n
			c.fnext = n
			continue
		}
		body := c.lastChild()
		if i < l-1 && len(body.child) > 0 && body.lastChild().kind == fallthroughtStmt {
			if next := clauses[i+1]; len(next.child) == 0 {
				body.tnext = n
			} else {
				body.tnext = next.lastChild().start
			}
		} else {
			body.tnext = n
		}
	}
	var next *node = n
	order := switchOrder(clauses)
	for k := len(order) - 1; k >= 0; k-- {
		c := clauses[order[k]]
		if len(c.child) == 0 {
			c.start = c
			next = c
			continue
		}
		body := c.lastChild()
		for j := len(c.child) - 2; j >= 0; j-- {
			cond := c.child[j]
			cond.tnext = body.start
			setFNext(cond, next)
			next = cond.start
		}
		if len(c.child) == 1 {
			next = body.start
		}
		c.start = next
	}
	n.lastChild().start = next
}

// isNilValue tells whether v is the nil of its type.
func isNilValue(v reflect.Value) bool {
	if !v.IsValid() {
		return true
	}
	switch v.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}

// shallowerBinMethod tells whether t has a method name of an embedded
// runtime value at a lesser depth than the source method at index.
func shallowerBinMethod(t *itype, name string, index []int) bool {
	if len(index) == 0 {
		return false
	}
	_, bind, _, ok := t.lookupBinMethod(name)
	return ok && len(bind) < len(index)
}
