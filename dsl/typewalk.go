package dsl

import "go/types"

// walkTypes calls visit on typ and on every type it is built from
// (elements, keys, parameters and results, fields, methods, type
// arguments), each once, and stops at the first visit that returns false;
// it reports whether none did. An alias is visited, not what it stands for:
// a visit that needs that walks types.Unalias itself.
func walkTypes(typ types.Type, visit func(types.Type) bool) bool {
	seen := map[types.Type]bool{}
	var walk func(types.Type) bool
	all := func(ts ...types.Type) bool {
		for _, t := range ts {
			if !walk(t) {
				return false
			}
		}
		return true
	}
	walk = func(t types.Type) bool {
		if seen[t] {
			return true
		}
		seen[t] = true
		if !visit(t) {
			return false
		}
		switch t := t.(type) {
		case *types.Named:
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					if !walk(args.At(i)) {
						return false
					}
				}
			}
		case *types.Pointer:
			return walk(t.Elem())
		case *types.Slice:
			return walk(t.Elem())
		case *types.Array:
			return walk(t.Elem())
		case *types.Map:
			return all(t.Key(), t.Elem())
		case *types.Chan:
			return walk(t.Elem())
		case *types.Signature:
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := range tup.Len() {
					if !walk(tup.At(i).Type()) {
						return false
					}
				}
			}
		case *types.Struct:
			for i := range t.NumFields() {
				if !walk(t.Field(i).Type()) {
					return false
				}
			}
		case *types.Interface:
			for i := range t.NumMethods() {
				if !walk(t.Method(i).Type()) {
					return false
				}
			}
		}
		return true
	}
	return walk(typ)
}
