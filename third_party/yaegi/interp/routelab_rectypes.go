package interp

import "strings"

// routelab patch: a generic type whose expression names an instance of
// itself other than through a struct or an interface (type Chan[T any] chan
// Chan[T], type Src[T any] func() Src[T]) would instantiate without end: it
// is refused when it is declared (it was "incomplete type Chan[int]").
// Other types that contain themselves are represented (routelab_rectype.go
// and type.go); an interface embedded by an interface type in its own
// methods is refused, as gc refuses it.

// checkRecursiveTypes refuses the type declarations of root that gc
// refuses (an interface embedded in its own methods) or that the
// interpreter cannot represent (a generic type containing an instance of
// itself other than through a struct or an interface).
func checkRecursiveTypes(root *node) error {
	specs := map[string][]*node{} // type name -> its declarations in root
	var order []*node             // the declarations in source order
	root.Walk(func(n *node) bool {
		if (n.kind == typeSpec || n.kind == typeSpecAssign) && (len(n.child) == 2 || len(n.child) == 3) {
			specs[n.child[0].ident] = append(specs[n.child[0].ident], n)
			order = append(order, n)
		}
		return true
	}, nil)
	if len(order) == 0 {
		return nil
	}
	// resolve returns the declaration in root that the type name at ref
	// denotes: the one in the innermost block around ref.
	resolve := func(ref *node) *node {
		cands := specs[ref.ident]
		for a := ref.anc; a != nil; a = a.anc {
			for _, s := range cands {
				if declBlock(s) == a {
					return s
				}
			}
		}
		return nil
	}
	for _, spec := range order {
		// A type that is not generic is represented whatever its cycles.
		if path := typeCycle(spec, resolve); path != nil && len(spec.child) == 3 {
			return spec.cfgErrorf("recursive type %s (%s) is not supported: the interpreter cannot represent a type that contains itself other than through a struct or an interface (make the recursion go through a struct field)", spec.child[0].ident, strings.Join(path, " refers to "))
		}
		if path := embedCycle(spec, resolve); path != nil {
			return spec.cfgErrorf("invalid recursive type %s (%s): an interface type in its methods embeds it", spec.child[0].ident, strings.Join(path, " embeds "))
		}
	}
	return nil
}

// embedCycle returns the names along a cycle of embeddings from the
// interface declared by spec back to it that goes through an interface
// type written inside a method signature (type i interface{ m()
// interface{ i } }), or nil. Go refuses such a type as an invalid recursive
// type (fixedbugs/issue56103.go); the interpreter accepted it once blank
// type declarations compiled (routelab patch).
func embedCycle(spec *node, resolve func(*node) *node) []string {
	type edge struct {
		to     *node
		nested bool // the embedding is in an interface inside a method
	}
	edges := func(s *node) []edge {
		root := s.lastChild()
		if root.kind != interfaceType {
			return nil
		}
		var out []edge
		root.Walk(func(n *node) bool {
			if n.kind != interfaceType || len(n.child) == 0 {
				return true
			}
			for _, f := range n.child[0].child {
				if len(f.child) != 1 || f.child[0].kind != identExpr {
					continue
				}
				if t := resolve(f.child[0]); t != nil && t.lastChild().kind == interfaceType {
					out = append(out, edge{t, n != root})
				}
			}
			return true
		}, nil)
		return out
	}
	type state struct {
		s      *node
		nested bool
	}
	seen := map[state]bool{}
	var path []string
	var visit func(s *node, nested bool) bool
	visit = func(s *node, nested bool) bool {
		path = append(path, s.child[0].ident)
		for _, e := range edges(s) {
			n := nested || e.nested
			if e.to == spec && n {
				path = append(path, spec.child[0].ident)
				return true
			}
			if st := (state{e.to, n}); !seen[st] {
				seen[st] = true
				if visit(e.to, n) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if visit(spec, false) {
		return path
	}
	return nil
}

// declBlock is the block or file a type declaration is in.
func declBlock(spec *node) *node {
	for a := spec.anc; a != nil; a = a.anc {
		switch a.kind {
		case blockStmt, fileStmt:
			return a
		}
	}
	return nil
}

// typeCycle returns the names along a path from spec's type expression back
// to spec that crosses no struct or interface type, or nil.
func typeCycle(spec *node, resolve func(*node) *node) []string {
	seen := map[*node]bool{}
	var path []string
	var visitSpec func(s *node) bool
	var visitExpr func(e *node) bool
	params := map[string]bool{} // the type parameters of the spec being visited
	visitExpr = func(e *node) bool {
		switch e.kind {
		case structType, interfaceType, selectorExpr, basicLit:
			return false
		case indexExpr, indexListExpr:
			// An instance of a generic type: the arguments are not followed,
			// as the generic type may hold them in a struct.
			return len(e.child) > 0 && visitExpr(e.child[0])
		case identExpr:
			if params[e.ident] {
				return false
			}
			s := resolve(e)
			return s != nil && visitSpec(s)
		case fieldExpr:
			// Names, then the type.
			return len(e.child) > 0 && visitExpr(e.child[len(e.child)-1])
		case arrayType:
			// [N]T: the length is no type.
			return len(e.child) > 0 && visitExpr(e.child[len(e.child)-1])
		}
		for _, c := range e.child {
			if visitExpr(c) {
				return true
			}
		}
		return false
	}
	visitSpec = func(s *node) bool {
		if s == spec && len(path) > 0 {
			path = append(path, s.child[0].ident)
			return true
		}
		if seen[s] {
			return false
		}
		seen[s] = true
		path = append(path, s.child[0].ident)
		outer := params
		params = typeSpecParams(s)
		found := visitExpr(s.lastChild())
		params = outer
		if found {
			return true
		}
		path = path[:len(path)-1]
		return false
	}
	if visitSpec(spec) {
		return path
	}
	return nil
}

// typeSpecParams returns the names of the type parameters of a generic
// type declaration (none for another).
func typeSpecParams(spec *node) map[string]bool {
	names := map[string]bool{}
	if len(spec.child) == 3 {
		for _, field := range spec.child[1].child {
			for _, id := range field.child[:len(field.child)-1] {
				names[id.ident] = true
			}
		}
	}
	return names
}
