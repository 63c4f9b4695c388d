package interp

import "reflect"

// arrayLenOperand tells whether o is the operand of a constant len or cap,
// as Go's specification defines it: an array or a pointer to an array,
// with no function call or channel receive in it. Such an operand is not
// evaluated (len(*p) with a nil p is its array's length, and for range *p
// with at most one iteration variable does not dereference p).
func arrayLenOperand(sc *scope, o *node) bool {
	if o.typ == nil {
		return false
	}
	t := o.typ.TypeOf()
	if t == nil {
		return false
	}
	if t.Kind() == reflect.Ptr {
		t = t.Elem()
	}
	if t.Kind() != reflect.Array {
		return false
	}
	evaluates := false
	o.Walk(func(c *node) bool {
		switch {
		case evaluates:
		case c.kind == callExpr && !(len(c.child) > 0 && c.child[0].isType(sc)):
			evaluates = true
		case c.action == aRecv:
			evaluates = true
		case c.kind == funcLit:
			return false
		}
		return !evaluates
	}, nil)
	return !evaluates
}

// rangeSkipsOperand tells whether the range statement n does not evaluate
// its operand: it has at most one iteration variable and a constant len
// (Go's specification of for statements with a range clause).
func rangeSkipsOperand(sc *scope, n *node) bool {
	return len(n.child) == 3 && arrayLenOperand(sc, n.child[1])
}
