package interp

import (
	"strings"
	"sync/atomic"
)

// adot produces an AST dot(1) directed acyclic graph for the given node. For debugging only.
// func (n *node) adot() { n.astDot(dotWriter(n.interp.dotCmd), n.ident) }

// genAST returns a new AST where generic types are replaced by instantiated types.
func genAST(sc *scope, root *node, types []*itype) (*node, bool, error) {
	typeParam := map[string]*node{}
	pindex := 0
	tname := ""
	rtname := ""
	recvrPtr := false
	fixNodes := []*node{}
	var gtree func(*node, *node) (*node, error)
	sname := root.child[0].ident + "["
	if root.kind == funcDecl {
		sname = root.child[1].ident + "["
		// routelab patch: a method's instances are keyed by its receiver's
		// type too (fooA[int].Set and fooB[int].Set were both Set[int],
		// and the second type got the first one's method).
		if rn := recvTypeName(root); rn != "" {
			sname = rn + "." + sname
		}
	}

	if root.kind == funcDecl {
		// routelab patch: type arguments left out of an explicit list are
		// inferred from the constraints.
		var err error
		if types, err = completeTypeArgs(root.interp, root, types); err != nil {
			return nil, false, err
		}
	}

	// Input type parameters must be resolved prior AST generation, as compilation
	// of generated AST may occur in a different scope.
	for _, t := range types {
		sname += t.id() + ","
	}
	sname = strings.TrimSuffix(sname, ",") + "]"

	gtree = func(n, anc *node) (*node, error) {
		nod := copyNode(n, anc, false)
		switch n.kind {
		case funcDecl, funcType:
			nod.val = nod

		case identExpr:
			// Replace generic type by instantiated one.
			nt, ok := typeParam[n.ident]
			if !ok {
				break
			}
			nod = copyNode(nt, anc, true)
			nod.typ = nt.typ
			nod.typeArg = true // routelab patch: it names a type (see isType)

		case indexExpr:
			// Catch a possible recursive generic type definition
			if root.kind != typeSpec {
				break
			}
			if root.child[0].ident != n.child[0].ident {
				break
			}
			nod := copyNode(n.child[0], anc, false)
			fixNodes = append(fixNodes, nod)
			return nod, nil

		case fieldList:
			//  Node is the type parameters list of a generic function.
			if root.kind == funcDecl && n.anc == root.child[2] && childPos(n) == 0 {
				// Fill the types lookup table used for type substitution.
				for _, c := range n.child {
					l := len(c.child) - 1
					for _, cc := range c.child[:l] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						t, err := nodeType(c.interp, sc, c.child[l])
						if err != nil {
							return nil, err
						}
						if err := checkConstraint(types[pindex], t); err != nil {
							return nil, err
						}
						bindTypeParam(typeParam, cc, types[pindex])
						pindex++
					}
				}
				// Skip type parameters specification, so generated func doesn't look generic.
				return nod, nil
			}

			// Node is the receiver of a generic method.
			if root.kind == funcDecl && n.anc == root && childPos(n) == 0 && len(n.child) > 0 {
				// routelab patch: the receiver may have no name
				// (func (T[P]) M()): its type is the field's last child.
				rtn := n.child[0].lastChild()
				// Method receiver is a generic type if it takes some type parameters.
				if rtn.kind == indexExpr || rtn.kind == indexListExpr || (rtn.kind == starExpr && (rtn.child[0].kind == indexExpr || rtn.child[0].kind == indexListExpr)) {
					if rtn.kind == starExpr {
						// Method receiver is a pointer on a generic type.
						rtn = rtn.child[0]
						recvrPtr = true
					}
					rtname = rtn.child[0].ident + "["
					for _, cc := range rtn.child[1:] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						it := types[pindex]
						bindTypeParam(typeParam, cc, it)
						rtname += it.id() + ","
						pindex++
					}
					rtname = strings.TrimSuffix(rtname, ",") + "]"
				}
			}

			// Node is the type parameters list of a generic type.
			if root.kind == typeSpec && n.anc == root && childPos(n) == 1 {
				// Fill the types lookup table used for type substitution.
				tname = n.anc.child[0].ident + "["
				for _, c := range n.child {
					l := len(c.child) - 1
					for _, cc := range c.child[:l] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						it := types[pindex]
						t, err := nodeType(c.interp, sc, c.child[l])
						if err != nil {
							return nil, err
						}
						if err := checkConstraint(types[pindex], t); err != nil {
							return nil, err
						}
						bindTypeParam(typeParam, cc, it)
						tname += it.id() + ","
						pindex++
					}
				}
				tname = strings.TrimSuffix(tname, ",") + "]"
				return nod, nil
			}
		}

		for _, c := range n.child {
			gn, err := gtree(c, nod)
			if err != nil {
				return nil, err
			}
			nod.child = append(nod.child, gn)
		}
		return nod, nil
	}

	if nod, found := root.interp.generic[sname]; found {
		return nod, true, nil
	}

	r, err := gtree(root, root.anc)
	if err != nil {
		return nil, false, err
	}
	root.interp.generic[sname] = r
	r.param = append(r.param, types...)
	if tname != "" {
		for _, nod := range fixNodes {
			nod.ident = tname
		}
		r.child[0].ident = tname
	}
	if rtname != "" {
		// Replace method receiver type by synthetized ident.
		nod := r.child[0].child[0].lastChild()
		if recvrPtr {
			nod = nod.child[0]
		}
		nod.kind = identExpr
		nod.ident = rtname
		nod.child = nil
	}
	// r.adot() // Used for debugging only.
	return r, false, nil
}

func copyNode(n, anc *node, recursive bool) *node {
	var i interface{}
	nindex := atomic.AddInt64(&n.interp.nindex, 1)
	nod := &node{
		debug:  n.debug,
		anc:    anc,
		interp: n.interp,
		index:  nindex,
		level:  n.level,
		nleft:  n.nleft,
		nright: n.nright,
		kind:   n.kind,
		pos:    n.pos,
		action: n.action,
		gen:    n.gen,
		val:    &i,
		rval:   n.rval,
		ident:  n.ident,
		meta:   n.meta,
		// routelab patch: a copy of a type argument is one too.
		typeArg: n.typeArg,
	}
	nod.start = nod
	if recursive {
		for _, c := range n.child {
			nod.child = append(nod.child, copyNode(c, nod, true))
		}
	}
	return nod
}

func inferTypesFromCall(sc *scope, fun *node, args []*node) ([]*itype, error) {
	// routelab patch: type arguments bound by name (see inferTypeArgs),
	// returned in the order the function declares its type parameters.
	typed := make([]typedArg, len(args))
	for i, a := range args {
		typed[i] = typedArg{a.typ, a.rval}
	}
	bind := inferTypeArgs(sc, fun.typ, typed)
	inferFromConstraints(fun.interp, fun, bind)
	var types []*itype
	for _, field := range fun.typ.node.child[0].child {
		for _, id := range field.child[:len(field.child)-1] {
			t := bind[id.ident]
			if t == nil {
				return nil, id.cfgErrorf("cannot infer %s", id.ident)
			}
			types = append(types, t)
		}
	}
	return types, nil
}

func checkConstraint(it, ct *itype) error {
	if len(ct.constraint) == 0 && len(ct.ulconstraint) == 0 {
		return nil
	}
	for _, c := range append(append([]*itype{}, ct.constraint...), ct.ulconstraint...) {
		// routelab patch: a term that names a type parameter (~struct{ ID T })
		// has no reflect type to compare with, and building one panicked;
		// such a constraint is left to the type check in front.
		if hasTypeParam(c, map[*itype]bool{}) {
			return nil
		}
	}
	for _, c := range ct.constraint {
		if it.equals(c) || it.matchDefault(c) {
			return nil
		}
	}
	for _, c := range ct.ulconstraint {
		// routelab patch: a type defined by a type literal (type Token
		// *[16]byte) keeps its name in its own type; sameUnderlying looks
		// through it (~*[16]byte refused Token).
		if it.underlying().equals(c) || it.matchDefault(c) || sameUnderlying(it, c) {
			return nil
		}
	}
	if it.cat == genericT {
		// routelab patch: a generic type left uninstantiated, whose
		// instance needed itself before it was complete; "main.U does not
		// implement main.intish" was not true.
		return it.node.cfgErrorf("the interpreter cannot instantiate %s here: its type arguments need an instance that is not complete yet (a generic type that contains itself through another generic type, as in type X[A any] U[X[A]])", it.id())
	}
	return it.node.cfgErrorf("%s does not implement %s", it.id(), ct.id())
}

// recvTypeName returns the name of the generic type of the receiver of the
// method declaration n, or "" for a function.
func recvTypeName(n *node) string {
	if len(n.child) == 0 || n.child[0].kind != fieldList || len(n.child[0].child) == 0 {
		return ""
	}
	t := n.child[0].child[0].lastChild()
	if t.kind == starExpr && len(t.child) > 0 {
		t = t.child[0]
	}
	if (t.kind == indexExpr || t.kind == indexListExpr) && len(t.child) > 0 {
		t = t.child[0]
	}
	return t.ident
}

// hasTypeParam reports whether type t is or contains a type parameter.
func hasTypeParam(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if t.cat == genericT {
		return true
	}
	if hasTypeParam(t.val, seen) || hasTypeParam(t.key, seen) {
		return true
	}
	for _, f := range t.field {
		if hasTypeParam(f.typ, seen) {
			return true
		}
	}
	for _, a := range t.arg {
		if hasTypeParam(a, seen) {
			return true
		}
	}
	for _, a := range t.ret {
		if hasTypeParam(a, seen) {
			return true
		}
	}
	return false
}

// bindTypeParam records that the type parameter declared by cc stands for t
// in the instance. A blank type parameter (func f[_ any]()) names nothing
// (routelab patch: it was recorded, so every blank identifier of the body, as
// in `_ = g()`, was replaced by the type argument).
func bindTypeParam(typeParam map[string]*node, cc *node, t *itype) {
	if cc.ident == "_" {
		return
	}
	typeParam[cc.ident] = copyNode(cc, cc.anc, false)
	typeParam[cc.ident].ident = t.id()
	typeParam[cc.ident].typ = t
}
