package interp

import (
	"fmt"
	"reflect"
)

// routelab patch: the run-time errors of interpreted operations are Go's:
// values that satisfy runtime.Error and say what Go's say ("runtime error:
// index out of range [5] with length 3", "interface conversion: interface
// {} is string, not int"). reflect's panics are strings that name neither
// the index nor the length, and a failed type assertion panicked with the
// interpreter's compile error type.

// bound is an integer operand of an index or slice expression, with whether
// its type is signed (an unsigned one is never negative and prints as such).
type bound struct {
	x      int64
	signed bool
}

// boundOf is the bound the integer value v stands for.
func boundOf(v reflect.Value) bound {
	switch v.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return bound{int64(v.Uint()), false}
	}
	return bound{vInt(v), true}
}

func (i bound) negative() bool { return i.signed && i.x < 0 }

// within reports whether 0 <= i < n.
func (i bound) within(n int) bool {
	if i.signed {
		return i.x >= 0 && i.x < int64(n)
	}
	return uint64(i.x) < uint64(n)
}

// exceeds reports whether i is negative or greater than n.
func (i bound) exceeds(n int) bool {
	if i.signed {
		return i.x < 0 || i.x > int64(n)
	}
	return uint64(i.x) > uint64(n)
}

func (i bound) String() string {
	if i.signed {
		return fmt.Sprint(i.x)
	}
	return fmt.Sprint(uint64(i.x))
}

// boundsError is Go's run-time error for an index or a slice bound out of
// range. format has a %s for the failing index and, unless it is negative,
// a %d for the length, capacity or other bound it was checked against.
type boundsError struct {
	format string
	x      bound
	y      int
}

func (e boundsError) Error() string {
	if e.x.negative() {
		return "runtime error: " + fmt.Sprintf(e.format, e.x)
	}
	return "runtime error: " + fmt.Sprintf(e.format, e.x, e.y)
}

// RuntimeError makes boundsError a runtime.Error, as Go's own is.
func (boundsError) RuntimeError() {}

// indexAt is v[i] for an array, slice or string v, failing as Go does.
func indexAt(v reflect.Value, i bound) reflect.Value {
	n := v.Len()
	if !i.within(n) {
		if i.negative() {
			panic(boundsError{"index out of range [%s]", i, n})
		}
		panic(boundsError{"index out of range [%s] with length %d", i, n})
	}
	return v.Index(int(i.x))
}

// sliceLimit is what the high or max bound of a slice of v is checked
// against: the capacity of a slice, the length of an array or string.
func sliceLimit(v reflect.Value) (int, string) {
	if v.Kind() == reflect.Slice {
		return v.Cap(), "capacity"
	}
	return v.Len(), "length"
}

// sliceAt is v[lo:hi], failing as Go does.
func sliceAt(v reflect.Value, lo, hi bound) reflect.Value {
	limit, what := sliceLimit(v)
	switch {
	case hi.exceeds(limit):
		if hi.negative() {
			panic(boundsError{"slice bounds out of range [:%s]", hi, limit})
		}
		panic(boundsError{"slice bounds out of range [:%s] with " + what + " %d", hi, limit})
	case lo.exceeds(int(hi.x)):
		if lo.negative() {
			panic(boundsError{"slice bounds out of range [%s:]", lo, 0})
		}
		panic(boundsError{"slice bounds out of range [%s:%d]", lo, int(hi.x)})
	}
	return v.Slice(int(lo.x), int(hi.x))
}

// slice3At is v[lo:hi:max], failing as Go does.
func slice3At(v reflect.Value, lo, hi, max bound) reflect.Value {
	limit, what := sliceLimit(v)
	switch {
	case max.exceeds(limit):
		if max.negative() {
			panic(boundsError{"slice bounds out of range [::%s]", max, limit})
		}
		panic(boundsError{"slice bounds out of range [::%s] with " + what + " %d", max, limit})
	case hi.exceeds(int(max.x)):
		if hi.negative() {
			panic(boundsError{"slice bounds out of range [:%s:]", hi, 0})
		}
		panic(boundsError{"slice bounds out of range [:%s:%d]", hi, int(max.x)})
	case lo.exceeds(int(hi.x)):
		if lo.negative() {
			panic(boundsError{"slice bounds out of range [%s::]", lo, 0})
		}
		panic(boundsError{"slice bounds out of range [%s:%d:]", lo, int(hi.x)})
	}
	return v.Slice3(int(lo.x), int(hi.x), int(max.x))
}

// typeAssertionError is Go's run-time error for a failed type assertion
// or interface conversion (Go's is a *runtime.TypeAssertionError, whose
// fields a program cannot set).
type typeAssertionError struct{ msg string }

func (e *typeAssertionError) Error() string { return e.msg }

// RuntimeError makes typeAssertionError a runtime.Error, as Go's own is.
func (*typeAssertionError) RuntimeError() {}

// assertionFailed is the panic value of a failed type assertion, its
// message formatted as Go's.
func assertionFailed(format string, a ...any) *typeAssertionError {
	return &typeAssertionError{"interface conversion: " + fmt.Sprintf(format, a...)}
}

// runtimeError is one of Go's other run-time errors with its message.
type runtimeError string

func (e runtimeError) Error() string { return "runtime error: " + string(e) }

// RuntimeError makes runtimeError a runtime.Error, as Go's own is.
func (runtimeError) RuntimeError() {}

// goTypeName is t as Go's run-time messages name it, qualified by its
// package ("main.T", "interface {}", "*errors.errorString").
func goTypeName(t *itype) string {
	if t == nil {
		return "nil"
	}
	if t.cat == valueT && t.rtype != nil {
		return t.rtype.String()
	}
	if t.cat == interfaceT && len(t.field) == 0 && t.name == "" {
		return "interface {}"
	}
	if id := t.id(); id != "" {
		return id
	}
	if rt := t.TypeOf(); rt != nil {
		return rt.String()
	}
	return t.str
}

// missingMethod is the first method, in Go's order (by name), of the set
// want that have lacks, or "".
func missingMethod(have, want methodSet) string {
	missing := ""
	for name := range want {
		if _, ok := have[name]; !ok && (missing == "" || name < missing) {
			missing = name
		}
	}
	return missing
}

// missingMethodOf is the first method of the set want that the compiled
// type rt lacks, or "".
func missingMethodOf(rt reflect.Type, want methodSet) string {
	missing := ""
	for name := range want {
		if _, ok := rt.MethodByName(name); !ok && (missing == "" || name < missing) {
			missing = name
		}
	}
	return missing
}

// assertionError is the error of a failed x.(T): static is the type of x,
// dynamic the name of the type of its value ("" when x is nil), missing
// the method that type lacks when T is an interface.
func assertionError(static, asserted *itype, dynamic, missing string) *typeAssertionError {
	as := goTypeName(asserted)
	switch {
	case dynamic == "" && isInterface(asserted):
		return assertionFailed("interface is nil, not %s", as)
	case dynamic == "":
		return assertionFailed("%s is nil, not %s", goTypeName(static), as)
	case isInterface(asserted):
		return assertionFailed("%s is not %s: missing method %s", dynamic, as, missing)
	}
	return assertionFailed("%s is %s, not %s", goTypeName(static), dynamic, as)
}

// arrayLength is the length of the array type t or of the array t points
// to, the types a slice converts to.
func arrayLength(t reflect.Type) (int, bool) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Array {
		return 0, false
	}
	return t.Len(), true
}

// genShiftCount is the value of the shift count n, which panics as Go
// does when it is negative (converted to uint64, it shifted everything
// out).
func genShiftCount(n *node) func(*frame) (reflect.Value, uint64) {
	value := genValueUint(n)
	switch n.typ.TypeOf().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(f *frame) (reflect.Value, uint64) {
			v, u := value(f)
			if int64(u) < 0 {
				panic(runtimeError("negative shift amount"))
			}
			return v, u
		}
	}
	return value
}

// checkMakeSlice panics as Go's make([]T, length, capacity) does when the
// length is negative or above the capacity (reflect.MakeSlice: "negative
// len", "len > cap").
func checkMakeSlice(length, capacity bound) {
	switch {
	case length.negative() || !length.signed && length.x < 0:
		panic(runtimeError("makeslice: len out of range"))
	case capacity.negative() || !capacity.signed && capacity.x < 0 || length.x > capacity.x:
		panic(runtimeError("makeslice: cap out of range"))
	}
}
