package interp

import (
	"fmt"
	"reflect"
	"strings"
)

// routelab patch: compile errors that name what is wrong the way Go does:
// "scn.Rat undefined (type *lab.Scenario has no field or method Rat)"
// rather than "undefined method: Rat", and types by their Go names rather
// than yaegi's categories ("intT").

// undefinedMember reports a selector x.name that names nothing of x's type,
// with the member it is most likely a typo of.
func undefinedMember(n *node, name string) error {
	return undefinedMemberOf(n, n.typ, name)
}

// undefinedMemberOf reports the selector n, x.name, where x is of type t.
func undefinedMemberOf(n *node, t *itype, name string) error {
	x := exprText(n.child[0])
	hint := didYouMean(x, name, memberNames(t))
	if rt := compiledStruct(t); rt != nil {
		if f, ok := rt.FieldByName(name); ok && !f.IsExported() {
			return n.cfgErrorf("%s.%s undefined (cannot refer to unexported field %s)%s", x, name, name, hint)
		}
	}
	return n.cfgErrorf("%s.%s undefined (type %s has no field or method %s)%s", x, name, typeText(t), name, hint)
}

// compiledStruct is the struct type of a compiled struct or pointer to one, or nil.
func compiledStruct(t *itype) reflect.Type {
	if t != nil && t.cat == ptrT {
		t = t.val
	}
	if t == nil || t.cat != valueT || t.rtype == nil {
		return nil
	}
	rt := t.rtype
	if rt.Kind() == reflect.Ptr {
		rt = rt.Elem()
	}
	if rt.Kind() != reflect.Struct {
		return nil
	}
	return rt
}

// memberNames are the fields and methods a selector on t may name.
func memberNames(t *itype) []string {
	var names []string
	for u := t; u != nil; u = u.val {
		for _, m := range u.method {
			names = append(names, m.ident)
		}
		for _, f := range u.field {
			names = append(names, f.name)
		}
		if u.cat != ptrT && u.cat != linkedT {
			break
		}
	}
	if rt := compiledStruct(t); rt != nil {
		for i := 0; i < rt.NumField(); i++ {
			if f := rt.Field(i); f.IsExported() {
				names = append(names, f.Name)
			}
		}
	}
	for u := t; u != nil; u = u.val {
		if u.cat == valueT && u.rtype != nil {
			for _, rt := range []reflect.Type{u.rtype, reflect.PointerTo(u.rtype)} {
				for i := 0; i < rt.NumMethod(); i++ {
					names = append(names, rt.Method(i).Name)
				}
			}
		}
		if u.cat != ptrT {
			break
		}
	}
	return names
}

// didYouMean suggests the name of names that name is most likely a typo of
// (the same but for case, else at most one edit away for a short name, two
// for a longer one), as " (did you mean x.Name?)", or "".
func didYouMean(x, name string, names []string) string {
	best, bestD := "", 3
	if len(name) <= 4 {
		bestD = 2
	}
	for _, c := range names {
		if c == name || c == "" || strings.HasPrefix(c, "_") {
			continue
		}
		// Lower-cased, a name differing only in case is at distance 0.
		if d := editDistance(strings.ToLower(name), strings.ToLower(c)); d < bestD || d == bestD && nearer(name, c, best) {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	if x == "" || strings.ContainsAny(x, "({[ ") {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return fmt.Sprintf(" (did you mean %s.%s?)", x, best)
}

// nearer breaks a tie between two names as far from name: the longer
// common prefix (Rat: Rate, not At), then the longer name (a letter left
// out is the likelier typo: Printn is Println), then the first in order.
func nearer(name, c, best string) bool {
	pc, pb := commonPrefix(name, c), commonPrefix(name, best)
	if pc != pb {
		return pc > pb
	}
	if len(c) != len(best) {
		return len(c) > len(best)
	}
	return c < best
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// typeText is a type as Go writes it.
func typeText(t *itype) string {
	if t == nil {
		return "unknown type"
	}
	if t.cat == nilT {
		return "untyped nil"
	}
	if t.cat == valueT && t.rtype != nil {
		return t.rtype.String()
	}
	if id := t.id(); id != "" {
		return strings.TrimPrefix(id, "main.")
	}
	if rt := t.TypeOf(); rt != nil {
		return rt.String()
	}
	return t.str
}

// exprText writes an expression back as source, as far as messages need.
func exprText(n *node) string {
	if n.typ != nil && n.typ.cat == nilT && n.kind != callExpr {
		return "nil"
	}
	switch n.kind {
	case identExpr:
		return n.ident
	case basicLit:
		if n.rval.IsValid() {
			if s, ok := constValueString(n.rval); ok {
				return s
			}
		}
	case selectorExpr:
		return exprText(n.child[0]) + "." + exprText(n.child[1])
	case callExpr:
		args := make([]string, 0, len(n.child)-1)
		for _, c := range n.child[1:] {
			args = append(args, exprText(c))
		}
		return exprText(n.child[0]) + "(" + strings.Join(args, ", ") + ")"
	case indexExpr:
		return exprText(n.child[0]) + "[" + exprText(n.child[1]) + "]"
	case parenExpr:
		return "(" + exprText(n.child[0]) + ")"
	case starExpr:
		return "*" + exprText(n.child[0])
	case compositeLitExpr:
		if n.typ != nil {
			return typeText(n.typ) + "{…}"
		}
		return exprText(n.child[0]) + "{…}"
	case funcLit:
		return "func literal"
	}
	return "expression"
}

func constValueString(v reflect.Value) (string, bool) {
	if !v.CanInterface() {
		return "", false
	}
	switch x := v.Interface().(type) {
	case fmt.Stringer:
		return x.String(), true
	case string:
		return `"` + x + `"`, true
	}
	return "", false
}

// isCallable reports whether values of type t can be called.
func isCallable(t *itype) bool {
	switch t.cat {
	case funcT, builtinT, genericT, nilT:
		return true
	case linkedT:
		return t.val == nil || isCallable(t.val)
	case valueT:
		return t.rtype == nil || t.rtype.Kind() == reflect.Func
	}
	if rt := t.TypeOf(); rt != nil {
		return rt.Kind() == reflect.Func
	}
	return true
}
