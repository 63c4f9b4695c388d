package interp

// outerTypeOfLocalSpec tells whether the type named name that sc resolves
// is a package-level one while n is the type of a declaration in a function
// (type T [2]int in a function of a package with a struct T), which the local
// declaration shadows. routelab patch: the package's type was taken for the
// local one ("too many values in struct literal": Go's
// fixedbugs/issue8947.go).
func outerTypeOfLocalSpec(sc *scope, n *node, name string) bool {
	for s := sc; s != nil; s = s.anc {
		if _, ok := s.sym[name]; ok {
			if !s.global {
				return false
			}
			break
		}
	}
	for a := n.anc; a != nil; a = a.anc {
		if a.kind == funcDecl || a.kind == funcLit {
			return true
		}
	}
	return false
}
