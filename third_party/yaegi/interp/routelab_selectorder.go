package interp

// snapshotSelectOperands makes a select statement evaluate its channel
// operands and sent values once each, in source order, as Go does. The
// operands that compute something (calls, index expressions) already run in
// that order before the select; a variable operand was only read when the
// select ran, after the later operands' calls (Go's fixedbugs/issue43111.go:
// `case <-ch: case nilch <- f():` with f closing ch and setting it to nil).
// A variable followed by an operand that computes is copied into a frame
// slot of its own where it stands in that order, and the select reads the
// copy.
func snapshotSelectOperands(body *node, sc *scope) {
	// The operands chained before the select, as selectStmt chains them:
	// the recv or send node and the index of the operand among its children.
	var ops []*node
	var idx []int
	for _, c := range body.child {
		if c.kind == commClauseDefault || len(c.child) == 0 {
			continue
		}
		switch c0 := c.child[0]; {
		case c0.kind == exprStmt && len(c0.child) == 1 && c0.child[0].action == aRecv:
			ops, idx = append(ops, c0.child[0]), append(idx, 0)
		case c0.action == aAssign, c0.action == aAssignX && c0.lastChild().action == aRecv:
			ops, idx = append(ops, c0.lastChild()), append(idx, 0)
		case c0.kind == sendStmt:
			ops, idx = append(ops, c0, c0), append(idx, 0, 1)
		}
	}
	computes := false // whether an operand after the current one computes
	for k := len(ops) - 1; k >= 0; k-- {
		o := ops[k].child[idx[k]]
		if isSelectVariable(o) {
			if computes {
				ops[k].child[idx[k]] = selectSnapshot(o, sc)
			}
			continue
		}
		if o.kind != basicLit && !o.rval.IsValid() {
			computes = true
		}
	}
}

// isSelectVariable reports whether o is a variable read where it is used.
func isSelectVariable(o *node) bool {
	return o.kind == identExpr && o.typ != nil && !o.rval.IsValid() && (o.sym == nil || o.sym.kind == varSym)
}

// selectSnapshot returns a node standing for variable o in the select's
// chain of operands: it copies o's value into a new frame slot, which is
// the node's value.
func selectSnapshot(o *node, sc *scope) *node {
	s := &node{
		child:  []*node{o},
		anc:    o.anc,
		interp: o.interp,
		findex: sc.add(o.typ),
		kind:   o.kind,
		pos:    o.pos,
		typ:    o.typ,
		scope:  sc,
		action: aNop,
		gen:    copySelectOperand,
	}
	s.start = s
	return s
}

// copySelectOperand is the generator of a selectSnapshot node.
func copySelectOperand(n *node) {
	value := genValue(n.child[0])
	next := getExec(n.tnext)
	i := n.findex
	n.exec = func(f *frame) bltn {
		f.data[i].Set(value(f))
		return next
	}
}
