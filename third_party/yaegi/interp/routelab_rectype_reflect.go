package interp

import (
	"fmt"
	"reflect"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/traefik/yaegi/internal/unsafe2"
)

// recState follows, in a refTypeContext, the defined types whose reflect
// type is being built, to stop at their recursive occurrences.
type recState struct {
	open     map[*itype]*recBuild
	depth    int
	recorded []*itype // the types given a reflect type while depth > 0
}

// recBuild is a defined type whose reflect type is being built.
type recBuild struct {
	stand    reflect.Type // the stand-in for its recursive occurrences, once needed
	slevel   int          // the struct nesting level where it started
	ndefined int          // the number of named structs seen when it started
	start    int          // its first entry in recorded
}

// recKind reports whether the reflect type of a defined type of category
// cat is made of its components by reflect (and could contain itself).
func recKind(cat tcat) bool {
	switch cat {
	case linkedT, ptrT, sliceT, variadicT, arrayT, mapT, chanT, chanSendT, chanRecvT, funcT:
		return true
	}
	return false
}

var standSeq atomic.Int64

// standIn returns a new type with the size and pointer layout of the
// reflect type of t, unlike any other type.
func standIn(t *itype) reflect.Type {
	for t.cat == linkedT && t.val != nil {
		t = t.val
	}
	name := "Rec" + strconv.FormatInt(standSeq.Add(1), 10)
	fields := []reflect.StructField{{Name: name, Type: reflect.TypeOf(unsafe.Pointer(nil))}}
	if t.cat == sliceT || t.cat == variadicT {
		fields = append(fields, reflect.StructField{Name: name + "L", Type: reflect.TypeOf(0)}, reflect.StructField{Name: name + "C", Type: reflect.TypeOf(0)})
	}
	return reflect.StructOf(fields)
}

// recEnter is called by refType for t without a reflect type. If t is a
// recursive occurrence of a defined type being built, it returns its
// stand-in and true. Otherwise it returns the build to pass to recLeave once
// t has its reflect type, or nil.
func recEnter(t *itype, ctx *refTypeContext) (*recBuild, reflect.Type, bool) {
	if t.name == "" || !recKind(t.cat) {
		return nil, nil, false
	}
	if ctx.rec == nil {
		ctx.rec = &recState{open: map[*itype]*recBuild{}}
	}
	if b := ctx.rec.open[t]; b != nil {
		if ctx.slevel > b.slevel && len(ctx.defined) > b.ndefined {
			// Through a named struct: its fields are set once it is built.
			return nil, nil, false
		}
		if b.stand == nil {
			b.stand = standIn(t)
		}
		return nil, b.stand, true
	}
	b := &recBuild{slevel: ctx.slevel, ndefined: len(ctx.defined), start: len(ctx.rec.recorded)}
	ctx.rec.open[t] = b
	ctx.rec.depth++
	return b, nil, false
}

// recRecord notes that t was given a reflect type.
func recRecord(t *itype, ctx *refTypeContext) {
	if ctx.rec != nil && ctx.rec.depth > 0 {
		ctx.rec.recorded = append(ctx.rec.recorded, t)
	}
}

// recLeave is called once t, entered with b, has its reflect type. If t
// occurs in itself, its reflect type was built around a stand-in: the types
// built with the stand-in are forgotten, its components are built again now
// that t has its type, and they replace those of the stand-in in place.
func recLeave(t *itype, ctx *refTypeContext, b *recBuild) {
	st := ctx.rec
	delete(st.open, t)
	st.depth--
	recorded := st.recorded[b.start:]
	if st.depth == 0 {
		st.recorded = st.recorded[:0]
	}
	if b.stand == nil || t.rtype == nil {
		return
	}
	rt := t.rtype
	for _, x := range recorded {
		if x != t && x.rtype != nil && x.rtype != rt && reflectContains(x.rtype, b.stand, map[reflect.Type]bool{}) {
			x.rtype = nil
		}
	}
	t.recursive = true
	u := t
	for u.cat == linkedT && u.val != nil {
		u = u.val
	}
	rctx := &refTypeContext{defined: map[string]*itype{}, refs: map[string][]*itype{}}
	ok := false
	switch u.cat {
	case funcT:
		in := make([]reflect.Type, len(u.arg))
		out := make([]reflect.Type, len(u.ret))
		for i, a := range u.arg {
			in[i] = a.refType(rctx)
		}
		for i, r := range u.ret {
			out[i] = r.refType(rctx)
		}
		ok = unsafe2.SetParams(rt, in, out)
	case mapT:
		ok = unsafe2.SetElem(rt, u.key.refType(rctx), u.val.refType(rctx))
	default:
		ok = unsafe2.SetElem(rt, nil, u.val.refType(rctx))
	}
	if !ok {
		panic(fmt.Errorf("the interpreter cannot represent the recursive type %s (%s)", t.str, rt.Kind()))
	}
}

// reflectContains reports whether x occurs in t.
func reflectContains(t, x reflect.Type, seen map[reflect.Type]bool) bool {
	if t == x {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Ptr, reflect.Slice, reflect.Array, reflect.Chan:
		return reflectContains(t.Elem(), x, seen)
	case reflect.Map:
		return reflectContains(t.Key(), x, seen) || reflectContains(t.Elem(), x, seen)
	case reflect.Func:
		for i := 0; i < t.NumIn(); i++ {
			if reflectContains(t.In(i), x, seen) {
				return true
			}
		}
		for i := 0; i < t.NumOut(); i++ {
			if reflectContains(t.Out(i), x, seen) {
				return true
			}
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if reflectContains(t.Field(i).Type, x, seen) {
				return true
			}
		}
	}
	return false
}
