package interp

import (
	"fmt"
	"math"
	"reflect"
)

// routelab patch: a bound on single allocations by interpreted code. An
// allocation larger than the machine can give (make([]int64, 1<<40)) made
// the Go runtime end the whole process ("fatal error: runtime: out of
// memory"); with Options.MaxAllocBytes set, it panics with a
// MemoryLimitError, which the program can recover, and the interpreter
// goes on.

// MemoryLimitError is the panic value of an allocation larger than
// Options.MaxAllocBytes.
type MemoryLimitError struct {
	Op    string // "make", "append" or "array"
	Bytes uint64 // what the operation would allocate (at least)
	Limit int64
}

func (e MemoryLimitError) Error() string {
	return fmt.Sprintf("%s: %s is more than one allocation may take here (%s)", e.Op, byteSize(e.Bytes), byteSize(uint64(e.Limit)))
}

// checkAlloc panics when count elements of size bytes exceed the bound.
// Negative counts are left to reflect, which reports them.
func checkAlloc(n *node, op string, count int64, size uintptr) {
	limit := n.interp.maxAlloc
	if limit <= 0 || count <= 0 || size == 0 {
		return
	}
	if total, ok := mulBytes(uint64(count), uint64(size)); !ok || total > uint64(limit) {
		if !ok {
			total = ^uint64(0)
		}
		panic(MemoryLimitError{Op: op, Bytes: total, Limit: limit})
	}
}

// checkAppend checks an append of add elements to s that needs a new array,
// with the capacity append will give it.
func checkAppend(n *node, s reflect.Value, add int) {
	if s.Len() > math.MaxInt-add {
		// Go's error for a length beyond int (reflect: "slice overflow").
		panic(runtimeError("growslice: len out of range"))
	}
	if needed := s.Len() + add; n.interp.maxAlloc > 0 && needed > s.Cap() {
		checkAlloc(n, "append", int64(grownCap(needed, s.Cap())), s.Type().Elem().Size())
	}
}

// grownCap is the capacity the Go runtime gives a slice of capacity old
// that must hold needed elements (before rounding to a size class).
func grownCap(needed, old int) int {
	if needed > 2*old {
		return needed
	}
	if old < 256 {
		return 2 * old
	}
	c := old
	for c < needed {
		c += (c + 3*256) >> 2
	}
	return c
}

// checkArraySize refuses array types larger than the bound at compile time.
func (interp *Interpreter) checkArraySize(n *node, elem *itype, length int) error {
	if interp.maxAlloc <= 0 || length <= 0 {
		return nil
	}
	if interp.sizingArrays[n] {
		// The element type contains this array type (type A *[10]B; type B
		// A): it is being checked already, from its outer occurrence.
		return nil
	}
	if interp.sizingArrays == nil {
		interp.sizingArrays = map[*node]bool{}
	}
	interp.sizingArrays[n] = true
	defer delete(interp.sizingArrays, n)
	rt := elem.TypeOf()
	if rt == nil {
		return nil
	}
	if total, ok := mulBytes(uint64(length), uint64(rt.Size())); !ok || total > uint64(interp.maxAlloc) {
		return n.cfgErrorf("array of %d %s is larger than one allocation may be here (%s)", length, rt, byteSize(uint64(interp.maxAlloc)))
	}
	return nil
}

func mulBytes(a, b uint64) (uint64, bool) {
	if a != 0 && b > ^uint64(0)/a {
		return 0, false
	}
	return a * b, true
}

func byteSize(b uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, i := float64(b), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", b)
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}
