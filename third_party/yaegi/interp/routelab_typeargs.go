package interp

// typeArgTypes returns the types of the type arguments of an explicit
// instantiation. routelab patch: an argument that is itself an instance of
// a generic type (Combine[int, string, Pair[int, string]]) has no type yet
// when the call is compiled, and a nil type crashed the instantiation.
func typeArgTypes(interp *Interpreter, sc *scope, args []*node) ([]*itype, error) {
	out := make([]*itype, len(args))
	for i, c := range args {
		t := c.typ
		if t == nil {
			var err error
			if t, err = nodeType(interp, sc, c); err != nil {
				return nil, err
			}
		}
		out[i] = t
	}
	return out, nil
}

// instantiateFunc compiles the instance of the generic function declared
// by fun for the type arguments args, once, and returns its node.
func instantiateFunc(interp *Interpreter, sc *scope, fun *node, args []*node, importPath, pkgName string) (*node, error) {
	lt, err := typeArgTypes(interp, sc, args)
	if err != nil {
		return nil, err
	}
	g, found, err := genAST(sc, fun, lt)
	if err != nil || found {
		return g, err
	}
	if _, err := interp.cfg(g, fun.scope, importPath, pkgName); err != nil {
		return nil, err
	}
	return g, genRun(g.child[3])
}
