package interp

import (
	"reflect"
	"strconv"
	"unsafe"
)

// routelab patch: a call allocates the slots of its frame at once. yaegi made
// every local variable and temporary of a function a reflect.New of its own
// at each call (a dozen allocations for a small function); a function's slots
// are now the fields of one struct type, built on its first call, so a call
// allocates one value and takes its fields.

// frameLayout is the struct type of a function's frame slots.
type frameLayout struct {
	types []reflect.Type // the slot types it was built for
	typ   reflect.Type   // nil when reflect cannot build the struct
	reuse bool           // a frame of the function may keep its slots from call to call
}

// slotLayout returns the layout of types, the frame types of def.
func slotLayout(def *node, types []reflect.Type) *frameLayout {
	if def.origin != nil {
		// A method value's copy of its method's node (getMethod): the
		// layout is the method's, built once, not once per method value.
		def = def.origin
	}
	if v, ok := def.interp.layouts.Load(def); ok {
		if l := v.(*frameLayout); sameTypes(l.types, types) {
			return l
		}
	}
	l := &frameLayout{types: types, typ: slotStruct(types)}
	l.reuse = l.typ != nil && slotsStayInFrame(def, types)
	def.interp.layouts.Store(def, l)
	return l
}

// sameTypes reports whether a and b are the same slice.
func sameTypes(a, b []reflect.Type) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// slotStruct returns a struct type with a field per type, or nil.
func slotStruct(types []reflect.Type) (t reflect.Type) {
	defer func() {
		if recover() != nil {
			t = nil
		}
	}()
	fields := make([]reflect.StructField, len(types))
	for i, ft := range types {
		fields[i] = reflect.StructField{Name: "F" + strconv.Itoa(i), Type: ft}
	}
	return reflect.StructOf(fields)
}

// initSlots sets data[i], for i from start on, to a new zero value of
// types[i], settable and addressable, skipping the slots already set.
func initSlots(def *node, types []reflect.Type, data []reflect.Value, start int) {
	initSlotsOf(slotLayout(def, types), data, start)
}

// initSlotsOf is initSlots with the layout of the frame's types.
func initSlotsOf(l *frameLayout, data []reflect.Value, start int) {
	types := l.types
	if l.typ == nil {
		for i := start; i < len(types); i++ {
			if !data[i].IsValid() {
				data[i] = reflect.New(types[i]).Elem()
			}
		}
		return
	}
	block := reflect.New(l.typ).Elem()
	for i := start; i < len(types); i++ {
		if !data[i].IsValid() {
			data[i] = block.Field(i)
		}
	}
}

// routelab patch: `x := v` reuses the storage of x when nothing can hold on
// to it. yaegi gave the variables of every define statement new storage at
// each execution, so that a closure or a pointer taking an earlier value
// keeps it; that is an allocation per variable in every loop iteration and
// call. Storage is reused for a variable of a basic type without methods
// (its address can only be taken by & or a closure) in a function with
// neither a function literal nor an & operator.

// freshOnDefine reports whether the define statement n must give the
// variable c new storage each time it runs.
func freshOnDefine(n, c *node) bool {
	t := c.typ
	if t == nil || len(t.method) > 0 {
		return true
	}
	rt := t.TypeOf()
	if rt == nil || rt.NumMethod() > 0 || reflect.PointerTo(rt).NumMethod() > 0 {
		return true
	}
	switch rt.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
	default:
		return true
	}
	fun := n.anc
	for fun != nil && fun.kind != funcDecl && fun.kind != funcLit {
		fun = fun.anc
	}
	if fun == nil || len(fun.child) < 4 {
		return true
	}
	// The tree of a generic function's instance can refer back to itself.
	seen := map[*node]bool{}
	shared := false
	fun.child[3].Walk(func(m *node) bool {
		if m.kind == funcLit || m.action == aAddr {
			shared = true
		}
		if seen[m] {
			return false
		}
		seen[m] = true
		return !shared
	}, nil)
	return shared
}

// bindReceiver returns the receiver src of a method value, for a receiver
// parameter of type param: its address for a pointer receiver, else a copy
// of it. Go evaluates the receiver where the method value is taken (`f :=
// s.M`, `go s.M()`, `defer s.M()`); yaegi read it at each call, so later
// changes to s showed through (routelab patch).
func bindReceiver(src reflect.Value, param reflect.Type) reflect.Value {
	for {
		vs, ok := src.Interface().(valueInterface)
		if !ok {
			break
		}
		src = vs.value
	}
	sk, dk := src.Kind(), param.Kind()
	switch {
	case sk == reflect.Ptr && dk != reflect.Ptr:
		src = src.Elem()
	case sk != reflect.Ptr && dk == reflect.Ptr:
		return src.Addr()
	case sk == reflect.Ptr:
		return src
	}
	c := reflect.New(src.Type()).Elem()
	c.Set(src)
	return c
}

// lvalueExec returns the code that evaluates the destination n of a receive
// in a select clause (`case x.a = <-c:`, `case *f() = <-c:`), or nil for a
// variable. The select skips the clause's assignment statement, so that
// code never ran and the value went to a temporary (routelab patch); it
// runs once the clause is chosen, as Go evaluates it then.
func lvalueExec(n *node) bltn {
	if n.kind == identExpr {
		return nil
	}
	n.tnext = nil
	return getExec(n.start)
}

func runLvalue(exec bltn, f *frame) {
	for exec != nil {
		exec = exec(f)
	}
}

// methodExprType returns the type of method expression T.M for a method of
// type ft whose receiver has type recv: ft with recv as its first argument.
func methodExprType(recv, ft reflect.Type) reflect.Type {
	in := make([]reflect.Type, 0, ft.NumIn()+1)
	in = append(in, recv)
	for i := 0; i < ft.NumIn(); i++ {
		in = append(in, ft.In(i))
	}
	out := make([]reflect.Type, ft.NumOut())
	for i := range out {
		out[i] = ft.Out(i)
	}
	return reflect.FuncOf(in, out, ft.IsVariadic())
}

// isMethodExprValue reports whether n is a method expression T.M of an
// interpreted method, whose value is a function of the receiver and the
// method's arguments.
func isMethodExprValue(n *node) bool {
	d, ok := n.val.(*node)
	return ok && n.kind == selectorExpr && n.recv == nil && d.kind == funcDecl && isMethod(d) && len(n.typ.arg) > len(d.typ.arg)
}

// methodExprReceiver returns the receiver, of type rt, of method def called
// as method expression T.M with first argument arg: the field at path of
// arg (a promoted method), its address for a pointer receiver, or the value
// a pointer points to for a value receiver ((*T).M).
func methodExprReceiver(arg reflect.Value, path []int, rt reflect.Type, def *node) reflect.Value {
	for _, i := range path {
		if arg.Kind() == reflect.Ptr {
			if arg.IsNil() {
				panic(nilDerefError{})
			}
			arg = arg.Elem()
		}
		arg = arg.Field(i)
		if vi, ok := arg.Interface().(valueInterface); ok {
			arg = vi.value
		}
	}
	switch {
	case arg.Type() == rt || rt.Kind() == reflect.Interface:
	case arg.Kind() == reflect.Ptr && rt.Kind() != reflect.Ptr:
		if arg.IsNil() {
			panic(nilReceiverError(def, true))
		}
		arg = arg.Elem()
	case arg.Kind() != reflect.Ptr && rt.Kind() == reflect.Ptr:
		if arg.CanAddr() {
			arg = arg.Addr()
		} else {
			p := reflect.New(arg.Type())
			p.Elem().Set(arg)
			arg = p
		}
	}
	return arg
}

// hasNamedResults reports whether function declaration or literal def
// names its results.
func hasNamedResults(def *node) bool {
	ft := def.child[2]
	if len(ft.child) < 3 {
		return false
	}
	for _, c := range ft.child[2].child {
		if len(c.child) > 1 {
			return true
		}
	}
	return false
}

// routelab patch: a call of a method of the program by name (`x.M(a)`) runs
// the method in a frame of its own, the receiver in its first parameter
// slot, as a function call does. yaegi made a method value at each call (a
// copy of the method's node and a reflect.MakeFunc) and called it through
// reflect, several times slower than a function call.

// directMethodCall reports whether the call n calls a method of the program
// bound to a receiver, which call runs directly: c0 is the selector that
// getMethod evaluates to the bound receiver.
func directMethodCall(n *node) bool {
	if n == nil || n.kind != callExpr || n.action != aCall || len(n.child) == 0 {
		return false
	}
	if n.anc != nil && (n.anc.kind == deferStmt || n.anc.kind == goStmt) {
		return false
	}
	c0 := n.child[0]
	if c0.kind != selectorExpr || c0.action != aGetMethod || c0.recv == nil || c0.findex == notInFrame {
		return false
	}
	def, ok := c0.val.(*node)
	return ok && def.kind == funcDecl && len(def.child) == 4 && def.child[3] != nil
}

// setReceiver sets the receiver parameter dst of a method to the receiver
// src, as bindReceiver binds it: its address for a pointer receiver, else
// a copy of its value.
func setReceiver(dst, src reflect.Value) {
	for {
		vs, ok := src.Interface().(valueInterface)
		if !ok {
			break
		}
		src = vs.value
	}
	sk, dk := src.Kind(), dst.Kind()
	switch {
	case sk == reflect.Ptr && dk != reflect.Ptr:
		dst.Set(src.Elem())
	case sk != reflect.Ptr && dk == reflect.Ptr:
		dst.Set(src.Addr())
	default:
		dst.Set(src)
	}
}

// doneCase is the select case of the frame's cancellation channel; frames
// share it through a pointer (routelab patch: it was a 56-byte copy in
// every frame, one per call).
func (f *frame) doneCase() reflect.SelectCase {
	if f.done == nil {
		return reflect.SelectCase{}
	}
	return *f.done
}

// allocFrame returns a frame with length data slots; a frame of up to 32
// slots and its slots are one allocation of their exact size (routelab
// patch: they were two at every call, then one of 4, 8, 16 or 32 slots).
func allocFrame(length int) *frame {
	if length == 0 {
		// No slots: a pointer to the empty array would point past its
		// allocation, which the race detector's checkptr refuses.
		return &frame{data: []reflect.Value{}}
	}
	if length < len(frameAllocs) {
		return frameAllocs[length](length)
	}
	return &frame{data: make([]reflect.Value, length)}
}

var frameAllocs = [...]func(int) *frame{
	nil, // allocFrame makes frames without slots itself
	frameWith[[1]reflect.Value],
	frameWith[[2]reflect.Value],
	frameWith[[3]reflect.Value],
	frameWith[[4]reflect.Value],
	frameWith[[5]reflect.Value],
	frameWith[[6]reflect.Value],
	frameWith[[7]reflect.Value],
	frameWith[[8]reflect.Value],
	frameWith[[9]reflect.Value],
	frameWith[[10]reflect.Value],
	frameWith[[11]reflect.Value],
	frameWith[[12]reflect.Value],
	frameWith[[13]reflect.Value],
	frameWith[[14]reflect.Value],
	frameWith[[15]reflect.Value],
	frameWith[[16]reflect.Value],
	frameWith[[17]reflect.Value],
	frameWith[[18]reflect.Value],
	frameWith[[19]reflect.Value],
	frameWith[[20]reflect.Value],
	frameWith[[21]reflect.Value],
	frameWith[[22]reflect.Value],
	frameWith[[23]reflect.Value],
	frameWith[[24]reflect.Value],
	frameWith[[25]reflect.Value],
	frameWith[[26]reflect.Value],
	frameWith[[27]reflect.Value],
	frameWith[[28]reflect.Value],
	frameWith[[29]reflect.Value],
	frameWith[[30]reflect.Value],
	frameWith[[31]reflect.Value],
	frameWith[[32]reflect.Value],
}

// frameWith allocates a frame with the array A of reflect.Values.
func frameWith[A any](length int) *frame {
	b := new(struct {
		f frame
		d A
	})
	b.f.data = unsafe.Slice((*reflect.Value)(unsafe.Pointer(&b.d)), length)
	return &b.f
}

// routelab patch: a function called by name runs in the frame of the
// previous call made from the same frame, when nothing kept that one: a
// frame is an allocation of a few hundred bytes, and a recursive function
// made one per call (fib(30), 2.7 million calls, allocated 1 GB). A frame is
// kept by a closure made in it (it stores into the frame), a function or
// method value taken in it (its calls' frames derive from it) and a
// goroutine started from it; the slots are new at each call (a pointer or
// an interface may hold them), only the frame and its slice are reused. The
// frame that runs a call is its goroutine's own, so its spare is too; the
// global frame, which a new input may run while a goroutine of an earlier
// one calls from it, keeps none.

// calleeFrame returns a frame of length slots for a call made from f.
func (f *frame) calleeFrame(length int) *frame {
	nf := f.spare
	if nf == nil || cap(nf.data) < length {
		return newFrame(f, length, f.runid())
	}
	f.spare = nil
	nf.data = nf.data[:length]
	nf.setrunid(f.runid())
	nf.anc, nf.root, nf.done, nf.depth = f, f.root, f.done, f.depth+1
	return nf
}

// reuseFor readies the frame of an earlier call of a function value, which
// nothing held after it returned, for a call of the same function from f.
// Its slots are cleared: the call gets new ones.
func (nf *frame) reuseFor(f *frame) {
	clear(nf.data)
	nf.deferred, nf.recovered = nil, nil
	nf.setrunid(f.runid())
	nf.anc, nf.root, nf.done, nf.depth = f, f.root, f.done, f.depth+1
}

// deferredFunc returns the function value of a deferred call made in f of a
// declared function or method. The value made for it refers to f only until
// the call runs, when f returns, so it does not keep f from being reused (a
// function literal's body may make closures that refer to f).
func deferredFunc(value func(*frame) reflect.Value, f *frame) reflect.Value {
	captured := f.captured.Load()
	v := copyValue(value(f))
	f.captured.Store(captured)
	return v
}

// releaseCallee keeps nf, the frame of a call from f that has returned, for
// f's next call, unless something holds it.
func (f *frame) releaseCallee(nf *frame) {
	if f.anc == nil || nf.captured.Load() || nf.debug != nil || f.debug != nil {
		return
	}
	// The slots go, so that the frame holds no value alive.
	clear(nf.data)
	if nf.inBlock {
		nf.blocks[0].block.SetZero()
		nf.inBlock = false
	}
	nf.deferred, nf.recovered = nil, nil
	f.spare = nf
}

// A call's slots are new at each call: a closure, a pointer, a slice of an
// array or an interface value may hold them after the call. They are kept
// in the frame for the next call when the function's slots are numbers,
// booleans, strings and arrays of those, of types without methods, and
// neither a function literal, an & operator nor a slice expression in the
// function can take them: its values then leave the frame only as copies.

// initCallSlots sets the slots of nf, the frame of a call of def, that the
// caller did not set (its results).
func (nf *frame) initCallSlots(def *node) {
	l := slotLayout(def, def.types)
	if !l.reuse {
		initSlotsOf(l, nf.data, 0)
		return
	}
	slots := nf.slotBlock(l).slots
	nf.inBlock = true
	for i, v := range nf.data {
		if !v.IsValid() {
			nf.data[i] = slots[i]
		}
	}
}

// slotBlock is a struct of a frame's slots, of layout, and its fields.
type slotBlock struct {
	layout *frameLayout
	block  reflect.Value
	slots  []reflect.Value
}

// maxBlocks is how many layouts a frame keeps slots for: a function that
// calls a few others in turn reuses the slots of each.
const maxBlocks = 4

// slotBlock moves the slots of layout l to nf.blocks[0], made if nf has
// none; released frames have their blocks zeroed.
func (nf *frame) slotBlock(l *frameLayout) *slotBlock {
	bs := nf.blocks
	for i := range bs {
		if bs[i].layout == l {
			if i > 0 {
				b := bs[i]
				copy(bs[1:i+1], bs[:i])
				bs[0] = b
			}
			return &bs[0]
		}
	}
	b := slotBlock{layout: l, block: reflect.New(l.typ).Elem(), slots: make([]reflect.Value, len(l.types))}
	for i := range b.slots {
		b.slots[i] = b.block.Field(i)
	}
	if len(bs) < maxBlocks {
		bs = append(bs, slotBlock{})
	}
	copy(bs[1:], bs[:len(bs)-1])
	bs[0] = b
	nf.blocks = bs
	return &bs[0]
}

// slotsStayInFrame reports whether no value of def's frame, with slots of
// the given types, can be referred to once a call of def has returned.
func slotsStayInFrame(def *node, types []reflect.Type) bool {
	for _, t := range types {
		if !plainSlotType(t) {
			return false
		}
	}
	if def.kind != funcDecl || len(def.child) < 4 || def.child[3] == nil {
		return false
	}
	// The tree of a generic function's instance can refer back to itself.
	seen := map[*node]bool{}
	stays := true
	def.Walk(func(m *node) bool {
		switch {
		case seen[m]:
			return false
		case m.kind == funcLit || m.action == aAddr || m.kind == sliceExpr:
			stays = false
		case hasSourceMethods(m.typ):
			// A value of a type with methods of the program is wrapped,
			// slot and all, in an interface value.
			stays = false
		}
		seen[m] = true
		return stays
	}, nil)
	return stays
}

// plainSlotType reports whether t is a basic type or an array of one,
// without methods.
func plainSlotType(t reflect.Type) bool {
	if t.NumMethod() > 0 {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	case reflect.Array:
		return plainSlotType(t.Elem())
	}
	return false
}
