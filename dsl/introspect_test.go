package dsl_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlibsym"
)

// A cell that looks at its own frames or at the memory statistics would get
// the interpreter's answer, not Go's: it is refused at the name.
func TestIntrospectionIsRefused(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct{ code, want string }{
		{"import \"runtime\"\n_, file, _, _ := runtime.Caller(0)\nfile", "2:18: runtime.Caller: the interpreter cannot report a cell's own frames; routelab refuses it"},
		{"import rt \"runtime\"\nf := rt.FuncForPC\n_ = f", "2:6: runtime.FuncForPC: a cell's functions have no program counter of their own in the interpreter; routelab refuses it"},
		{"import \"runtime/debug\"\nfunc where() string { return string(debug.Stack()) }", "2:37: debug.Stack: the interpreter cannot report a cell's own frames; routelab refuses it"},
		{"var st runtime.MemStats\nruntime.ReadMemStats(&st)", "2:1: runtime.ReadMemStats: the interpreter's own allocations are counted with a cell's; routelab refuses it"},
	} {
		de := fail(t, s, c.code)
		if de.Name != dsl.CompileError || !strings.HasPrefix(de.Value, c.want) {
			t.Errorf("cell %q: got %s: %s, want %s: %s", c.code, de.Name, de.Value, dsl.CompileError, c.want)
		}
	}
	// The rest of the runtime package is there.
	if got := run(t, s, "runtime.NumCPU() > 0"); got != "true" {
		t.Errorf("runtime.NumCPU() > 0 = %s", got)
	}
}

// A cell the type checker skips (it uses a library without type
// information) fails loudly when it calls one.
func TestIntrospectionFailsUnchecked(t *testing.T) {
	lib := testlibsym.Library(false)
	lib.Types = nil
	s, err := dsl.New(dsl.Options{Libraries: []dsl.Library{lib}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = s.Execute(ctx, "import (\n\t\"runtime\"\n\t\""+testlibsym.Path+"\"\n)\n_ = testlib.Version\n_, _, _, _ = runtime.Caller(0)", &recorder{})
	if err == nil || !strings.Contains(err.Error(), "runtime.Caller: the interpreter cannot report a cell's own frames; routelab refuses it") {
		t.Errorf("got %v, want the refusal", err)
	}
}

// What would show the name of a session's type through reflect, which the
// interpreter's types lack, is refused where the type is known.
func TestCellTypeNamesAreRefused(t *testing.T) {
	s := newSession(t)
	run(t, s, "type foo struct{ bar int }\ntype F[T any] struct{}")
	for _, c := range []struct{ code, want string }{
		{`fmt.Sprintf("%d %T", 1, F[foo]{})`, "1:25: fmt's %T of a value of type main.F[main.foo]"},
		{`fmt.Printf("%5.2f %#v\n", 1.0, []foo{})`, "1:32: fmt's %#v of a value of type []main.foo"},
		{`fmt.Sprintf("%+v", map[string]*foo{})`, "1:20: fmt's %+v of a value of type map[string]*main.foo"},
		{`reflect.TypeOf(&foo{}).String()`, "1:1: reflect's Type.String of a value of type *main.foo"},
		{`reflect.ValueOf(foo{}).Type().Field(0).PkgPath`, "1:1: reflect's Type.Field of a value of type main.foo"},
		// An interface that may hold a session's type (foo, declared in an
		// earlier cell) would give it no name.
		{`var x any = foo{}; _ = reflect.TypeOf(x).Name()`, "1:24: reflect's Type.Name of a value of type any"},
		{`func name(x interface{}) string { return reflect.ValueOf(x).Type().PkgPath() }`, "1:42: reflect's Type.PkgPath of a value of type interface{}"},
	} {
		de := fail(t, s, c.code)
		if de.Name != dsl.CompileError || !strings.HasPrefix(de.Value, c.want+": the interpreter's types have no name or package in reflect; routelab refuses it") {
			t.Errorf("cell %q: got %s: %s, want %s: %s", c.code, de.Name, de.Value, dsl.CompileError, c.want)
		}
	}
	// Values print, and compiled types keep their names.
	run(t, s, "type pub struct{ A int }")
	if got := run(t, s, `reflect.TypeOf(foo{}).Kind() == reflect.Struct && reflect.ValueOf(foo{}).Type().NumField() == 1`); got != "true" {
		t.Errorf("got %s", got)
	}
	if got := run(t, s, `fmt.Sprintf("%v %+v %+v %T %T %%T", foo{1}, 2, pub{3}, 3, time.Second)`); got != `"{1} 2 {A:3} int time.Duration %T"` {
		t.Errorf("got %s", got)
	}
	// An interface no session type implements names its compiled values,
	// and String spells any value's type.
	if got := run(t, s, `var st fmt.Stringer = time.Second; var a any = 1; reflect.TypeOf(st).Name() + " " + reflect.TypeOf(a).String()`); got != `"Duration int"` {
		t.Errorf("got %s", got)
	}
}
