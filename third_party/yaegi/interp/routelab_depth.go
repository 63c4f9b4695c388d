package interp

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"unsafe"
)

// routelab patch: a bound on nested interpreted calls. Unbounded recursion in
// interpreted code used to grow the Go stack to its 1 GB limit, where the
// runtime ends the process ("fatal error: stack overflow"), which no recover
// can stop. A call nested deeper than the bound panics with StackOverflow,
// which interpreted and compiled code can recover like any panic.

// DefaultMaxCallDepth is the bound when Options.MaxCallDepth is 0. Measured
// on Go 1.26 (amd64): a level of recursion through a named function takes
// about 0.7 KB of Go stack, through a function value (a closure) about
// 6.5 KB, so the bound is reached within about 15 MB and 130 MB of stack.
const DefaultMaxCallDepth = 20000

// StackOverflow is the panic value of an interpreted call nested more than
// Depth calls deep.
type StackOverflow struct {
	Depth int
}

func (e StackOverflow) Error() string {
	return fmt.Sprintf("stack overflow: more than %d nested calls (unbounded recursion?)", e.Depth)
}

// enterValueCall counts a call of the interpreted function def made through
// a function value (a closure, or a function passed to compiled code), whose
// frame does not link to its caller's, and returns the counter exitValueCall
// must decrease (nil when calls are not bounded). Calls of one function in
// progress at once are either nested (recursion) or concurrent (goroutines);
// only when the Go stack is deep as well is it recursion, which is what the
// check of the stack depth tells. The counters live beside the nodes, not in
// them: a method value copies its method's node (getMethod) while another
// goroutine may be counting a call of it.
func enterValueCall(def *node) *atomic.Int32 {
	if def.origin != nil {
		def = def.origin // a method bound to a receiver: count the method's calls
	}
	max := def.interp.maxDepth
	if max <= 0 {
		return nil
	}
	c := def.interp.callCounter(def)
	if c.Add(1) > max && stackDeeperThan(int(max)) {
		c.Add(-1)
		panic(StackOverflow{Depth: int(max)})
	}
	return c
}

// valueCallCounter is the counter enterCountedCall counts def's calls
// with, nil when calls are not bounded: what enterValueCall looks up at
// each call, looked up once by a function value.
func valueCallCounter(def *node) callBound {
	if def.origin != nil {
		def = def.origin
	}
	if def.interp.maxDepth <= 0 {
		return callBound{}
	}
	return callBound{def.interp.callCounter(def), def.interp.maxDepth}
}

// callBound is a function's count of calls in progress and its bound.
type callBound struct {
	c   *atomic.Int32
	max int32
}

// enterCountedCall is enterValueCall with the counter already looked up.
func enterCountedCall(b callBound) *atomic.Int32 {
	if b.c == nil {
		return nil
	}
	if b.c.Add(1) > b.max && stackDeeperThan(int(b.max)) {
		b.c.Add(-1)
		panic(StackOverflow{Depth: int(b.max)})
	}
	return b.c
}

// exitValueCall ends a call enterValueCall counted.
func exitValueCall(counted *atomic.Int32) {
	if counted != nil {
		counted.Add(-1)
	}
}

// callCounter is the count of def's calls in progress through function
// values.
func (interp *Interpreter) callCounter(def *node) *atomic.Int32 {
	if c, ok := interp.valueCalls.Load(def); ok {
		return c.(*atomic.Int32)
	}
	c, _ := interp.valueCalls.LoadOrStore(def, new(atomic.Int32))
	return c.(*atomic.Int32)
}

// stackDeeperThan reports whether the calling goroutine has more than n
// frames on its stack (each level of interpreted recursion takes several).
func stackDeeperThan(n int) bool {
	var pc [1]uintptr
	return runtime.Callers(n, pc[:]) > 0
}

// panicStack is debug.Stack() for a Panic, except for a StackOverflow: the
// stack then holds tens of thousands of frames, and writing it out took
// longer than the recursion itself.
func panicStack(v any) []byte {
	if _, deep := v.(StackOverflow); deep {
		return nil
	}
	return debug.Stack()
}

// closurePointer identifies a closure instance (not only its code, which
// all closures of one function literal share).
func closurePointer(f bltn) uintptr {
	if f == nil {
		return 0
	}
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&f)))
}
