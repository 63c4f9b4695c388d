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

// undefinedMember reports a selector x.name that names nothing of x's type.
func undefinedMember(n *node, name string) error {
	return n.cfgErrorf("%s.%s undefined (type %s has no field or method %s)", exprText(n.child[0]), name, typeText(n.typ), name)
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
