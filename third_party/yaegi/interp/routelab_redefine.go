package interp

import (
	"maps"
	"sync/atomic"
	"unsafe"
)

// routelab patch: late binding of redefined functions and methods. A REPL
// input that declares a function or method again, with the same signature,
// redefines it for every call that names it, including calls compiled
// before (as in Python), while function values taken before keep the
// version they were given. yaegi used to bind each call to the definition
// it found when compiling the caller, so earlier callers kept the old body,
// and a method declared again was silently ignored.
//
// A redefinition takes effect once the input declaring it has compiled and
// its code is generated (Execute), so an input that fails to compile
// changes nothing that runs.

// redefinition replaces old by new; owners are the types whose method sets
// hold old (none for a function).
type redefinition struct {
	old, new *node
	owners   []*itype
}

// redefineFunc records the redefinition of the function of symbol old (if
// any) by the declaration n, when their signatures agree.
func (interp *Interpreter) redefineFunc(old *symbol, n *node) {
	if old == nil || old.kind != funcSym || old.node == nil || old.node == n || old.node.kind != funcDecl {
		return
	}
	if isGeneric(old.typ) || isGeneric(n.typ) || !n.typ.isComplete() || old.typ.id() != n.typ.id() {
		return
	}
	interp.addRedefinition(redefinition{old: old.node, new: n})
}

// redefineMethod records the redefinition of a method of owners (its
// receiver type, and the pointer to it for a pointer receiver) by the
// declaration n. It reports whether n redefines a method; a method declared
// again with another signature is an error.
func (interp *Interpreter) redefineMethod(owners []*itype, n *node) (bool, error) {
	var old *node
	for _, t := range owners {
		if m := t.getMethod(n.ident); m != nil && m != n {
			old = m
		}
	}
	if old == nil {
		return false, nil
	}
	if old.typ == nil || n.typ == nil || old.typ.id() != n.typ.id() || receiverText(old) != receiverText(n) {
		return false, n.cfgErrorf("method %s already declared with another signature or receiver; it cannot change in a running session", n.ident)
	}
	interp.addRedefinition(redefinition{old: old, new: n, owners: owners})
	return true, nil
}

func (interp *Interpreter) addRedefinition(r redefinition) {
	for _, x := range interp.redefs {
		if x.new == r.new {
			return // global type analysis visits a declaration again
		}
	}
	interp.redefs = append(interp.redefs, r)
}

// receiverText tells pointer from value receivers.
func receiverText(n *node) string {
	if rtn := n.child[0].child[0].lastChild(); rtn.kind == starExpr {
		return "*"
	}
	return ""
}

// commitRedefinitions makes calls by name of the old definitions run the
// new ones, and method lookups find the new methods.
func commitRedefinitions(rs []redefinition) {
	for _, r := range rs {
		for _, t := range r.owners {
			for i, m := range t.method {
				if m == r.old {
					t.method[i] = r.new
				}
			}
		}
		atomic.StorePointer((*unsafe.Pointer)(unsafe.Pointer(&r.old.redefined)), unsafe.Pointer(r.new))
	}
}

// latestDefinition follows the redefinitions of a function or method.
func latestDefinition(def *node) *node {
	for {
		next := (*node)(atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&def.redefined))))
		if next == nil {
			return def
		}
		def = next
	}
}

// callsByName reports whether the callee expression names a function or a
// method (rather than calling a function value), so that the call follows
// redefinitions.
func callsByName(c0 *node) bool {
	switch c0.kind {
	case identExpr:
		return c0.sym != nil && c0.sym.kind == funcSym
	case selectorExpr:
		m, ok := c0.val.(*node)
		return ok && m != nil && m.kind == funcDecl
	}
	return false
}

// routelab patch: a compilation that fails leaves the package scope as it
// was. Global type analysis declares symbols (and adds methods to types)
// before the code that uses them is compiled; when that code then failed,
// yaegi kept the declarations, so a later input called a function or method
// whose body was never compiled ("index out of range" at run time) or saw
// a name the failed input left half-declared.

// scopeSnapshot is what a failed compilation restores.
type scopeSnapshot struct {
	sc     *scope
	sym    map[string]*symbol
	ntypes int
}

func (interp *Interpreter) snapshotScope(pkgName string) scopeSnapshot {
	interp.mutex.RLock()
	sc := interp.scopes[pkgName]
	interp.mutex.RUnlock()
	if sc == nil {
		return scopeSnapshot{}
	}
	sym := make(map[string]*symbol, len(sc.sym))
	for k, v := range sc.sym {
		sym[k] = v
	}
	return scopeSnapshot{sc: sc, sym: sym, ntypes: len(sc.types)}
}

// rollback restores the snapshot and removes the methods root declared from
// their receiver types.
func (interp *Interpreter) rollback(snap scopeSnapshot, root *node) {
	interp.redefs = nil
	if snap.sc != nil {
		// In place: the package's symbol map is shared (srcPkg, which
		// Globals reads); a new map would hide every later declaration.
		clear(snap.sc.sym)
		maps.Copy(snap.sc.sym, snap.sym)
		if len(snap.sc.types) > snap.ntypes {
			snap.sc.types = snap.sc.types[:snap.ntypes]
		}
	}
	for _, d := range root.child {
		if d.kind != funcDecl || !isMethod(d) {
			continue
		}
		for t := d.child[0].child[0].lastChild().typ; t != nil; t = t.val {
			removeMethod(t, d)
			if t.cat != ptrT {
				break
			}
		}
	}
}

func removeMethod(t *itype, m *node) {
	for i, x := range t.method {
		if x == m {
			t.method = append(t.method[:i:i], t.method[i+1:]...)
			return
		}
	}
}
