package interp

import "reflect"

// routelab patch: the clauses of a type switch match as in Go. A case type
// matches when the dynamic type of the guard's value is identical to it, or,
// for an interface type, when the dynamic type implements it; nil matches a
// nil interface value only. yaegi compared type strings, so an interface case
// (any, error, a source interface) never matched a value without an assigned
// variable, and a type parameter instantiated with an interface type picked
// a later case.

// tsCase is one type of a type switch clause, prepared at compile time.
type tsCase struct {
	typ     *itype
	isNil   bool
	iface   bool
	methods methodSet    // the interface's methods, for an interface case
	bin     reflect.Type // a binary interface type, checked with Implements
	rtype   reflect.Type // the runtime type of a concrete case
}

func newTSCase(typ *itype) tsCase {
	c := tsCase{typ: typ}
	if typ.cat == nilT {
		c.isNil = true
		return c
	}
	if isInterface(typ) {
		c.iface = true
		c.methods = typ.methods()
		if isInterfaceBin(typ) {
			c.bin = typ.TypeOf()
		}
		return c
	}
	c.rtype = typ.TypeOf()
	return c
}

// dynamicValue unwraps the interpreter's representations of an interface
// value: it returns the innermost valueInterface that names a concrete
// source type (nil when there is none), that type, and the concrete value,
// invalid for a nil interface.
func dynamicValue(v reflect.Value) (*valueInterface, *itype, reflect.Value) {
	var vi *valueInterface
	var t *itype
	for v.IsValid() {
		if v.Kind() == reflect.Interface {
			if v.IsNil() {
				return vi, t, reflect.Value{}
			}
			v = v.Elem()
			continue
		}
		if v.Type() != valueInterfaceType {
			break
		}
		w := v.Interface().(valueInterface)
		if w.node != nil && w.node.typ != nil && t == nil && w.node.typ.cat != nilT && !isInterface(w.node.typ) {
			vi, t = &w, w.node.typ
		}
		v = w.value
	}
	return vi, t, v
}

// matches tells whether a value of dynamic type dt (nil when it is not a
// source type) and concrete value v matches the case.
func (c tsCase) matches(dt *itype, v reflect.Value) bool {
	if c.isNil || !v.IsValid() {
		return c.isNil && !v.IsValid()
	}
	if c.iface {
		if len(c.methods) == 0 {
			return true
		}
		if dt != nil && dt.cat != valueT {
			return hasMethods(dt, c.methods)
		}
		if c.bin != nil {
			return v.Type().Implements(c.bin)
		}
		return (&itype{cat: valueT, rtype: v.Type()}).methods().contains(c.methods)
	}
	if dt != nil {
		return dt.id() == c.typ.id()
	}
	// A value stored without its source type (one without methods) matches
	// by its runtime type.
	return c.rtype != nil && v.Type() == c.rtype
}

func typeSwitchCase(n *node, tnext bltn) {
	fnext := getExec(n.fnext)
	sn := n.anc.anc // switch node
	cases := make([]tsCase, len(n.child)-1)
	for i := range cases {
		cases[i] = newTSCase(n.child[i].typ)
	}
	srcValue := genValue(sn.child[1].lastChild().child[0])
	assign := len(sn.child[1].child) == 2
	var destValue func(*frame) reflect.Value
	if assign {
		destValue = genValue(n.lastChild().child[0])
	}

	if len(cases) == 0 {
		// The default clause: the variable has the guard's value.
		n.exec = func(f *frame) bltn {
			if assign {
				setTSVar(destValue(f), srcValue(f))
			}
			return tnext
		}
		return
	}

	n.exec = func(f *frame) bltn {
		v := srcValue(f)
		vi, dt, cv := dynamicValue(v)
		for _, c := range cases {
			if !c.matches(dt, cv) {
				continue
			}
			if assign {
				d := destValue(f)
				if len(cases) > 1 || c.isNil {
					setTSVar(d, v)
				} else {
					setTSCaseVar(f, d, c, v, vi, cv)
				}
			}
			return tnext
		}
		return fnext
	}
}

// setTSVar stores the guard's value v in a clause's variable of the guard's type.
func setTSVar(d, v reflect.Value) {
	if !v.IsValid() {
		d.Set(reflect.Zero(d.Type()))
		return
	}
	if v.Type().AssignableTo(d.Type()) {
		d.Set(v)
		return
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			d.Set(reflect.Zero(d.Type()))
			return
		}
		setTSVar(d, v.Elem())
		return
	}
	d.Set(v.Convert(d.Type()))
}

// setTSCaseVar stores in the variable of a clause with one type the value
// matched, as a value of that type.
func setTSCaseVar(f *frame, d reflect.Value, c tsCase, v reflect.Value, vi *valueInterface, cv reflect.Value) {
	dt := d.Type()
	switch {
	case !c.iface:
		if cv.Type().AssignableTo(dt) {
			d.Set(cv)
		} else {
			d.Set(cv.Convert(dt))
		}
	case dt == valueInterfaceType:
		if vi != nil {
			d.Set(reflect.ValueOf(*vi))
		} else {
			d.Set(reflect.ValueOf(valueInterface{&node{kind: basicLit, typ: valueTOf(cv.Type())}, cv}))
		}
	case dt.Kind() == reflect.Interface && dt.NumMethod() == 0:
		// An empty interface keeps the interpreter's representation.
		if vi != nil {
			d.Set(reflect.ValueOf(*vi))
		} else {
			d.Set(cv)
		}
	case cv.Type().Implements(dt):
		d.Set(cv)
	case vi != nil:
		// A source type's value in a binary interface: its methods wrapped.
		held := &node{kind: identExpr, interp: vi.node.interp, typ: vi.node.typ, rval: reflect.ValueOf(*vi), pos: vi.node.pos}
		d.Set(genInterfaceWrapper(held, dt)(f))
	default:
		setTSVar(d, v)
	}
}

// inGenericInstance tells whether n is in a function instantiated from a
// generic one (or a method of an instantiated generic type).
func inGenericInstance(n *node) bool {
	for a := n.anc; a != nil; a = a.anc {
		if a.kind == funcDecl && len(a.param) > 0 {
			return true
		}
	}
	return false
}

// hasMethods tells whether the source type t has the methods of an
// interface, with their signatures (as typeAssert checks them: a method's
// signature may show its receiver as the first parameter).
func hasMethods(t *itype, want methodSet) bool {
	have := t.methodSet()
	for name, sig := range want {
		got, ok := have[name]
		if !ok {
			return false
		}
		if got == sig {
			continue
		}
		if got, err := stripReceiverFromArgs(got); err != nil || got != sig {
			return false
		}
	}
	return true
}

// mixedInterfaceComparison tells whether == or != compares a value of a
// source interface type with one of a concrete type or of another source
// interface type.
func mixedInterfaceComparison(t0, t1 *itype) bool {
	if t0 == nil || t1 == nil || t0.cat == nilT || t1.cat == nilT {
		return false
	}
	i0, i1 := isInterfaceSrc(t0), isInterfaceSrc(t1)
	if i0 && i1 {
		return true
	}
	if i0 == i1 {
		return false
	}
	if i0 {
		return !isInterface(t1)
	}
	return !isInterface(t0)
}

// ifaceConcreteEqual compares an interface value with a concrete one as Go
// does: they are equal when the interface holds a value of the concrete
// operand's type, equal to it. routelab patch: yaegi compared the
// interpreter's representations, and a value of a source type with methods,
// held in a valueInterface, was never equal to the same value outside of one
// (i != t with i fooer and t myint, both myint(0), was true).
func ifaceConcreteEqual(n *node) {
	tnext := getExec(n.tnext)
	var fnext bltn
	if n.fnext != nil {
		fnext = getExec(n.fnext)
	}
	ci, cc := n.child[0], n.child[1]
	if !isInterfaceSrc(operandType(ci)) {
		ci, cc = cc, ci
	}
	iv, cv := genValue(ci), genValue(cc)
	ct := operandType(cc)
	c := newTSCase(ct)
	want := n.action == aEqual
	dest := genValue(n)
	both := isInterfaceSrc(ct)
	n.exec = func(f *frame) bltn {
		_, dt, v := dynamicValue(iv(f))
		r := false
		if both {
			_, dt1, w := dynamicValue(cv(f))
			r = sameDynamic(dt, v, dt1, w)
		} else if c.matches(dt, v) {
			w := cv(f)
			if w.Kind() == reflect.Interface {
				w = w.Elem()
			}
			if v.Type() != w.Type() && v.Type().ConvertibleTo(w.Type()) {
				v = v.Convert(w.Type())
			}
			r = v.Interface() == w.Interface()
		}
		r = r == want
		dest(f).SetBool(r)
		if fnext != nil && !r {
			return fnext
		}
		return tnext
	}
}

// sameDynamic tells whether two interface values, unwrapped by dynamicValue,
// are equal: both nil, or of the same dynamic type with equal values.
func sameDynamic(t0 *itype, v0 reflect.Value, t1 *itype, v1 reflect.Value) bool {
	if !v0.IsValid() || !v1.IsValid() {
		return v0.IsValid() == v1.IsValid()
	}
	src0, src1 := t0 != nil && t0.cat != valueT, t1 != nil && t1.cat != valueT
	switch {
	case src0 && src1:
		if t0.id() != t1.id() {
			return false
		}
	case src0 != src1:
		return false
	case v0.Type() != v1.Type():
		return false
	}
	if v0.Type() != v1.Type() {
		return false
	}
	return v0.Interface() == v1.Interface()
}

// operandType is the type of an operand of a comparison as its value holds
// it: a conversion of a concrete value to an interface (interface{ M() }(x))
// keeps the concrete value, and its type is the concrete type.
func operandType(n *node) *itype {
	if t := n.typ; n.action == aConvert && t != nil && isInterfaceSrc(t) && t.val != nil && !isInterface(t.val) {
		return t.val
	}
	return n.typ
}

// caseEqual tells whether the tag of an expression switch equals a case's
// value when one of them is an interface: Go compares the dynamic types and
// values (routelab patch: yaegi converted the interface to the case's type,
// a reflect.Value.Convert panic for `switch x { case "hello": }` with x an
// interface{}). t0 and t1 are the static types of the operands; a concrete
// one is its own dynamic type.
func caseEqual(t0 *itype, tag reflect.Value, t1 *itype, v reflect.Value) bool {
	n0, v0 := dynamicTypeName(t0, tag)
	n1, v1 := dynamicTypeName(t1, v)
	if !v0.IsValid() || !v1.IsValid() {
		return v0.IsValid() == v1.IsValid()
	}
	return n0 == n1 && v0.Type() == v1.Type() && v0.Interface() == v1.Interface()
}

// dynamicTypeName is the name of the dynamic type of v, of static type t,
// and its concrete value.
func dynamicTypeName(t *itype, v reflect.Value) (string, reflect.Value) {
	if t != nil && !t.untyped && !isInterface(t) && t.cat != valueT && t.cat != nilT {
		_, _, w := dynamicValue(v)
		return t.id(), w
	}
	_, dt, w := dynamicValue(v)
	if dt != nil {
		return dt.id(), w
	}
	if !w.IsValid() {
		return "", w
	}
	return w.Type().String(), w
}
