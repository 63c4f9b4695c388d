package dsl

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"unsafe"

	"github.com/routelab/routelab/display"
)

// The prelude (prelude.go) is interpreted Go that every session evaluates
// first; it reaches the session through this compiled package, imported
// under a hidden name.

const (
	runtimePath  = "routelab.dsl/rt"
	runtimeName  = "rt"
	runtimeLocal = "_rl"
)

// richBundle builds the bundle of a value of an interpreted type: display.Of
// for what compiled code sees, plus the MIME entries the prelude found by
// calling the value's own methods (compiled code cannot see methods
// declared in cells). "svg-error" carries a failed SVG method's error.
func richBundle(v any, m map[string]any) display.Bundle {
	b := display.Of(unwrapInterp(v))
	for k, x := range m {
		if k != "svg-error" {
			b[k] = x
		}
	}
	if e, ok := m["svg-error"]; ok {
		b[display.TextPlain] = fmt.Sprintf("%s\n(svg unavailable: %v)", b.Text(), e)
	}
	return b
}

// native reports whether display.Of can see all of v's display methods:
// true for compiled values that have one.
func native(v any) bool {
	switch v.(type) {
	case display.Bundler, display.HTMLer, display.SVGer, display.PNGer, display.Markdowner, display.JSONer, fmt.Stringer, error:
		return true
	}
	return false
}

func (s *Session) runtimeSymbols() map[string]reflect.Value {
	return map[string]reflect.Value{
		"Native":      reflect.ValueOf(native),
		"Show":        reflect.ValueOf(func(v any) { s.show(display.Of(v)) }),
		"ShowRich":    reflect.ValueOf(func(v any, m map[string]any) { s.show(richBundle(v, m)) }),
		"Display":     reflect.ValueOf(func(v any, id string, update bool) { s.displayBundle(display.Of(v), id, update) }),
		"DisplayRich": reflect.ValueOf(func(v any, m map[string]any, id string, update bool) { s.displayBundle(richBundle(v, m), id, update) }),
		"DisplayMIME": reflect.ValueOf(func(mime, data string) {
			s.displayBundle(display.Bundle{mime: data, display.TextPlain: "(" + mime + ")"}, "", false)
		}),
		"Clear":       reflect.ValueOf(clearValue),
		"ClearOutput": reflect.ValueOf(s.clearOutput),
		"Sort":        reflect.ValueOf(func(x any) { sortOrdered(x, true) }),
		"SortKeys":    reflect.ValueOf(func(x any) { sortOrdered(x, false) }),
		"GoPanic":     reflect.ValueOf(s.goroutinePanic),
		"GoLive":      reflect.ValueOf(func(d int) { s.goLive.Add(int64(d)) }),
		"At":          reflect.ValueOf(s.atStatement),
	}
}

// clearValue implements the clear builtin for maps and slices.
func clearValue(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		v.Clear()
	default:
		panic(fmt.Sprintf("clear: argument must be a map or a slice, not %T", x))
	}
}

// sortOrdered sorts a slice of integers, floats or strings in increasing
// order (NaNs first, as slices.Sort). With strict, other element kinds are
// an error; otherwise they are left as they are.
func sortOrdered(x any, strict bool) {
	switch s := x.(type) {
	case []int:
		sort.Ints(s)
		return
	case []float64:
		sort.Float64s(s)
		return
	case []string:
		sort.Strings(s)
		return
	}
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.Slice {
		panic(fmt.Sprintf("slices.Sort: argument must be a slice, not %T", x))
	}
	var less func(a, b reflect.Value) bool
	switch v.Type().Elem().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		less = func(a, b reflect.Value) bool { return a.Int() < b.Int() }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		less = func(a, b reflect.Value) bool { return a.Uint() < b.Uint() }
	case reflect.Float32, reflect.Float64:
		less = func(a, b reflect.Value) bool {
			return a.Float() < b.Float() || (math.IsNaN(a.Float()) && !math.IsNaN(b.Float()))
		}
	case reflect.String:
		less = func(a, b reflect.Value) bool { return a.String() < b.String() }
	default:
		if strict {
			panic(fmt.Sprintf("slices.Sort: cannot order elements of type %s: use slices.SortFunc", v.Type().Elem()))
		}
		return
	}
	sort.SliceStable(x, func(i, j int) bool { return less(v.Index(i), v.Index(j)) })
}

// unwrapInterp returns the value inside yaegi's internal representation of
// an interpreted value with methods stored in an interface, which it passes
// to compiled code as is (fmt would print its internals). Other values are
// returned unchanged.
func unwrapInterp(v any) any {
	rv := reflect.ValueOf(v)
	t := rv.Type()
	if rv.Kind() != reflect.Struct || t.Name() != "valueInterface" || t.PkgPath() != "github.com/traefik/yaegi/interp" ||
		t.NumField() != 2 || t.Field(1).Type != reflect.TypeOf(reflect.Value{}) {
		return v
	}
	c := reflect.New(t).Elem()
	c.Set(rv)
	f := c.Field(1)
	inner := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(reflect.Value)
	if !inner.IsValid() || !inner.CanInterface() {
		return v
	}
	return inner.Interface()
}
