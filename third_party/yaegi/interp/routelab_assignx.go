package interp

import "reflect"

// mapEntryDests prepares the map entries among the destinations of a
// comma-ok or multi-value assignment (m[k], ok = x.(T)): they are not read
// first, and their values, which the right-hand side stores in their nodes'
// slots, are written into the maps after it by the generator it returns
// (yaegi wrote the slots only, so the maps never changed). It returns gen
// when no destination is a map entry.
func mapEntryDests(n *node, gen bltnGenerator) bltnGenerator {
	var dests []*node
	for _, c := range n.child[:len(n.child)-1] {
		if isMapEntry(c) {
			c.gen = nop
			dests = append(dests, c)
		}
	}
	if len(dests) == 0 {
		return gen
	}
	return func(n *node) {
		gen(n)
		assign := n.exec
		type entry struct{ m, k, v func(*frame) reflect.Value }
		entries := make([]entry, len(dests))
		for i, c := range dests {
			k := genMapKey(c.child[0], c.child[1])
			entries[i] = entry{genValue(c.child[0]), k, genValue(c)}
		}
		n.exec = func(f *frame) bltn {
			next := assign(f)
			for _, e := range entries {
				e.m(f).SetMapIndex(e.k(f), e.v(f))
			}
			return next
		}
	}
}

// copyOperand returns a copy of v if it is a variable, which a later
// assignment of the same statement could change (routelab patch).
func copyOperand(v reflect.Value) reflect.Value {
	if !v.IsValid() || !v.CanAddr() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}
