package interp_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Tests of routelab's patches (see ../ROUTELAB.md). Each input is evaluated
// as a REPL input, in order, in one interpreter: the way notebook cells run.

type step struct {
	src  string
	want string // fmt %v of the result, or the error text when err is set
	err  bool
}

func runSteps(t *testing.T, opts interp.Options, steps []step) {
	t.Helper()
	i := interp.New(opts)
	if err := i.Use(stdlib.Symbols()); err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		v, err := evalStep(i, s.src)
		switch {
		case s.err && err == nil:
			t.Errorf("%q: got %v, want an error containing %q", s.src, v, s.want)
		case s.err && !strings.Contains(err.Error(), s.want):
			t.Errorf("%q: error %q, want it to contain %q", s.src, err, s.want)
		case !s.err && err != nil:
			t.Errorf("%q: error %v, want %s", s.src, err, s.want)
		case !s.err && s.want != "" && fmt.Sprint(v) != s.want:
			t.Errorf("%q = %v, want %s", s.src, v, s.want)
		}
	}
}

// evalStep is Eval with the compiler's own panics turned into errors.
func evalStep(i *interp.Interpreter, src string) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	rv, err := i.Eval(src)
	if err != nil || !rv.IsValid() || !rv.CanInterface() {
		return nil, err
	}
	return rv.Interface(), nil
}

func TestRoutelabCommaOKAtTopLevel(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `m := map[string]int{"a": 1}`},
		{src: `v, ok := m["a"]`},
		{src: `v`, want: "1"},
		{src: `ok`, want: "true"},
		{src: `w, found := m["zz"]`},
		{src: `w`, want: "0"},
		{src: `found`, want: "false"},
		{src: `var x interface{} = 3`},
		{src: `n, isInt := x.(int)`},
		{src: `n * 2`, want: "6"},
		{src: `isInt`, want: "true"},
		{src: `s, isStr := x.(string)`},
		{src: `len(s)`, want: "0"},
		{src: `isStr`, want: "false"},
		{src: `ch := make(chan int, 1)`},
		{src: `ch <- 4`},
		{src: `r, open := <-ch`},
		{src: `r`, want: "4"},
		{src: `open`, want: "true"},
		{src: `func sum() int { return v + n + r }`},
		{src: `sum()`, want: "8"},
		// In a block of the global scope, which global analysis skips.
		{src: `func two() (int, error) { return 7, nil }`},
		{src: `if true { y, err := two(); v = y; _ = err }`},
		{src: `v`, want: "7"},
		{src: `for _, k := range []string{"a", "q"} { w, ok := m[k]; if !ok { v = w } }`},
		{src: `v`, want: "0"},
	})
}

// A failed comma-ok lookup or assertion yields the zero value, also when the
// variable held something before (yaegi kept the previous value).
func TestRoutelabCommaOKZeroOnFailure(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `func lookups() []int {
	m := map[int]int{1: 10, 3: 30}
	var out []int
	for k := 1; k <= 3; k++ {
		v, _ := m[k]
		out = append(out, v)
	}
	return out
}`},
		{src: `lookups()`, want: "[10 0 30]"},
		{src: `func asserts() []int {
	xs := []interface{}{1, "a", 3}
	var out []int
	for _, x := range xs {
		n, _ := x.(int)
		out = append(out, n)
	}
	return out
}`},
		{src: `asserts()`, want: "[1 0 3]"},
	})
}

func TestRoutelabGenericCallAtTopLevel(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `func first[T any](xs []T) T { return xs[0] }`},
		{src: `y := first([]int{4, 5})`},
		{src: `y + 1`, want: "5"},
		{src: `func biggest[T int | float64](x T, ys ...T) T { for _, v := range ys { if v > x { x = v } }; return x }`},
		{src: `a := biggest(3, 7, 2)`},
		{src: `a * 2`, want: "14"},
		// Untyped constants of mixed kinds take the widest default type.
		{src: `b := biggest(1, 2.5)`},
		{src: `b`, want: "2.5"},
		{src: `var f float64 = 4`},
		// A typed argument binds the type parameter before untyped ones.
		{src: `c := biggest(1, f)`},
		{src: `c / 8`, want: "0.5"},
		{src: `func keys[K comparable, V any](m map[K]V) []K { var r []K; for k := range m { r = append(r, k) }; return r }`},
		{src: `ks := keys(map[string]int{"x": 1})`},
		{src: `ks`, want: "[x]"},
		// Type parameters bound by name, not by order of appearance.
		{src: `func pick[A, B any](b B, a A) A { return a }`},
		{src: `p := pick("s", 9)`},
		{src: `p + 1`, want: "10"},
		// Core type inference: S ~[]E binds E.
		{src: `import "slices"`},
		{src: `c2 := slices.Clone([]string{"p", "q"})`},
		{src: `c2`, want: "[p q]"},
		{src: `func inside() []string { return slices.Clone([]string{"r"}) }`},
		{src: `inside()`, want: "[r]"},
		{src: `i := slices.Index(c2, "q")`},
		{src: `i`, want: "1"},
	})
}

func TestRoutelabUndefinedNames(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `busy := scm.Rate(175)`, err: true, want: "1:36: undefined: scm"},
		{src: `z := 1 + yy`, err: true, want: "1:37: undefined: yy"},
		// The placeholder of the failed input does not linger as a type.
		{src: `yy := 3`},
		{src: `z := 1 + yy`},
		{src: `z`, want: "4"},
		{src: `u := strings.ToUpper("a")`, err: true, want: "undefined: strings"},
		{src: `k := f2(3)`, err: true, want: "undefined: f2"},
	})
}

// A failed compilation changes nothing: the function or method it declared
// is not half-defined afterwards.
func TestRoutelabFailedCompilationChangesNothing(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `func broken() int { return 1 }`},
		{src: `func broken() int { return undefinedThing }`, err: true, want: "undefined: undefinedThing"},
		{src: `broken()`, want: "1"},
		{src: `x := 5`},
		{src: `x := "str" + undefinedY`, err: true, want: "undefined: undefinedY"},
		{src: `x`, want: "5"},
		{src: `type Q struct{ a int }`},
		{src: `func (q Q) Get() int { return q.a + nope }`, err: true, want: "undefined: nope"},
		{src: `Q{3}.Get()`, err: true, want: "Get undefined (type Q has no field or method Get)"},
		{src: `func (q Q) Get() int { return q.a }`},
		{src: `Q{3}.Get()`, want: "3"},
	})
}

// Globals sees what is declared after a failed compilation (a policy file
// whose helper used math before math was imported declared "no variable").
func TestRoutelabGlobalsAfterFailedCompilation(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols()); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`func f() float64 { return math.Sqrt(4) }`); err == nil {
		t.Fatal("math used without an import compiled")
	}
	for _, src := range []string{`import "math"`, `func f() float64 { return math.Sqrt(4) }`, `var kept = f()`} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if v, ok := i.Globals()["kept"]; !ok || v.Interface() != 2.0 {
		t.Errorf("Globals()[kept] = %v, %v; want 2, true", v, ok)
	}
}

func TestRoutelabRedefinitionBindsLate(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `func cost() int { return 1 }`},
		{src: `f := func() int { return cost() }`},
		{src: `func caller() int { return cost() * 10 }`},
		{src: `v := cost`},
		{src: `type T struct{}`},
		{src: `func (T) M() int { return cost() + 100 }`},
		{src: `func (t T) N() int { return t.M() }`},
		{src: `var s interface{ M() int } = T{}`},
		{src: `func cost() int { return 2 }`},
		{src: `f()`, want: "2"},       // a closure naming cost
		{src: `caller()`, want: "20"}, // a function naming cost
		{src: `v()`, want: "1"},       // a function value keeps its version
		{src: `T{}.N()`, want: "102"}, // a method naming cost
		{src: `func (T) M() int { return 7 }`},
		{src: `T{}.N()`, want: "7"}, // a method naming a redefined method
		{src: `s.M()`, want: "7"},   // through an interface
		{src: `T.M(T{})`, want: "7"},
		// A value taken after a redefinition by code compiled before it is
		// the new version (a stateful policy's hooks, lab.Hooks{Pick: p.pick}).
		{src: `import "strings"`},
		{src: `func price() int { return 1 }`},
		{src: `func bound() func() int { return T{}.M }`},
		{src: `func named() func() int { return price }`},
		{src: `func hooks() struct{ F func() int } { return struct{ F func() int }{F: T{}.M} }`},
		{src: `func both() []func() int { return []func() int{T{}.M, price} }`},
		{src: `func (T) R(r rune) rune { return r + 1 }`},
		{src: `func apply() string { return strings.Map(T{}.R, "ab") }`},
		{src: `apply()`, want: "bc"},
		{src: `named()()`, want: "1"},
		{src: `func (T) M() int { return 8 }`},
		{src: `func (T) R(r rune) rune { return r + 2 }`},
		{src: `func price() int { return 3 }`},
		{src: `bound()()`, want: "8"},
		{src: `named()()`, want: "3"},
		{src: `hooks().F()`, want: "8"},
		{src: `both()[0]() + 10*both()[1]()`, want: "38"},
		{src: `apply()`, want: "cd"},
		{src: `func (T) M() int { return 7 }`},
		// A new signature is a new function: earlier callers keep the old.
		{src: `func cost() string { return "x" }`},
		{src: `caller()`, want: "20"},
		{src: `cost()`, want: "x"},
		{src: `func (T) M() string { return "bad" }`, err: true, want: "method M already declared with another signature"},
		{src: `func fact(n int) int { if n == 0 { return 1 }; return n * fact(n-1) }`},
		{src: `func fact(n int) int { if n <= 1 { return 1 }; return 2 * n * fact(n-1) }`},
		{src: `fact(3)`, want: "24"},
	})
}

func TestRoutelabStackOverflow(t *testing.T) {
	src := `func rec(n int) int { if n == 0 { return 0 }; return rec(n-1) + 1 }
func inf(n int) int { return inf(n+1) + 1 }
var rc func(int) int
var rinf func(int) int
func init() {
	rc = func(n int) int { if n == 0 { return 0 }; return rc(n-1) + 1 }
	rinf = func(n int) int { return rinf(n+1) + 1 }
}
type R struct{}
func (r R) Deeper(n int) int { return r.Deeper(n+1) + 1 }`
	for _, call := range []string{"inf(0)", "rinf(0)", "R{}.Deeper(0)"} {
		t.Run(call, func(t *testing.T) {
			var stderr strings.Builder
			i := interp.New(interp.Options{MaxCallDepth: 2000, Stderr: &stderr})
			if _, err := i.Eval(src); err != nil {
				t.Fatal(err)
			}
			_, err := i.Eval(call)
			var p interp.Panic
			if !errors.As(err, &p) {
				t.Fatalf("%s: error %v, want an interp.Panic", call, err)
			}
			if so, ok := p.Value.(interp.StackOverflow); !ok || so.Depth != 2000 {
				t.Fatalf("%s: panic value %v, want StackOverflow{2000}", call, p.Value)
			}
			// The interpreter stays usable, and recursion within the bound works.
			if v, err := i.Eval("rec(1900) + rc(1900)"); err != nil || v.Int() != 3800 {
				t.Errorf("after the overflow: rec(1900) + rc(1900) = %v, %v", v, err)
			}
		})
	}
}

// The default bound lets 10,000 levels of recursion through, named or
// through a closure, and stops unbounded recursion well before the Go
// stack's limit.
func TestRoutelabDefaultDepth(t *testing.T) {
	i := interp.New(interp.Options{Stderr: &strings.Builder{}})
	if _, err := i.Eval(`func rec(n int) int { if n == 0 { return 0 }; return rec(n-1) + 1 }
var rc func(int) int
func init() { rc = func(n int) int { if n == 0 { return 0 }; return rc(n-1) + 1 } }`); err != nil {
		t.Fatal(err)
	}
	if v, err := i.Eval("rec(10000) + rc(10000)"); err != nil || v.Int() != 20000 {
		t.Fatalf("rec(10000) + rc(10000) = %v, %v", v, err)
	}
	start := time.Now()
	_, err := i.Eval("rec(-1)")
	var p interp.Panic
	if !errors.As(err, &p) {
		t.Fatalf("rec(-1): %v, want a StackOverflow panic", err)
	}
	if so, ok := p.Value.(interp.StackOverflow); !ok || so.Depth != interp.DefaultMaxCallDepth {
		t.Fatalf("rec(-1): panic %v", p.Value)
	}
	t.Logf("unbounded named recursion stopped after %v", time.Since(start))
}

// Many concurrent calls of one closure are not mistaken for recursion.
func TestRoutelabConcurrentClosureCallsAreNotRecursion(t *testing.T) {
	runSteps(t, interp.Options{MaxCallDepth: 50}, []step{
		{src: `import "sync"`},
		{src: `func run() int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	release := make(chan struct{})
	n := 0
	work := func() { defer wg.Done(); <-release; mu.Lock(); n++; mu.Unlock() }
	for k := 0; k < 200; k++ {
		wg.Add(1)
		go work()
	}
	close(release)
	wg.Wait()
	return n
}`},
		{src: `run()`, want: "200"},
	})
}

// A panic is located at the statement that panicked in each frame.
func TestRoutelabPanicPositions(t *testing.T) {
	var stderr strings.Builder
	i := interp.New(interp.Options{Stderr: &stderr})
	if _, err := i.Eval("func f(xs []int) int {\n\tn := len(xs)\n\treturn xs[n]\n}\nfunc g() int {\n\ta := 1\n\treturn f(nil) + a\n}"); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval("g()"); err == nil {
		t.Fatal("g() did not panic")
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "3:") || !strings.Contains(lines[0], "main.f") ||
		!strings.HasPrefix(lines[1], "7:") || !strings.Contains(lines[1], "main.g") {
		t.Errorf("panic report:\n%s\nwant main.f at line 3, then main.g at line 7", stderr.String())
	}
}

// Internal compiler failures no longer print through the log package.
func TestRoutelabNoLogOutput(t *testing.T) {
	var stderr strings.Builder
	i := interp.New(interp.Options{Stderr: &stderr})
	for _, src := range []string{`m := map[string]int{}`, `v, ok := m["a"]`, `func g[T any](x T) T { return x }`, `y := g(2)`} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %q", stderr.String())
	}
}

func TestRoutelabAllocationBound(t *testing.T) {
	runSteps(t, interp.Options{MaxAllocBytes: 1 << 30}, []step{
		{src: `a := make([]int64, 1<<40)`, err: true, want: "make: 8.0 TiB is more than one allocation may take here (1.0 GiB)"},
		{src: `b := make([]byte, 10, 1<<40)`, err: true, want: "make: 1.0 TiB"},
		{src: `m := make(map[int]int, 1<<40)`, err: true, want: "make: 16.0 TiB"},
		{src: `c := make(chan int, 1<<40)`, err: true, want: "make: 8.0 TiB"},
		{src: `var big [1 << 40]byte`, err: true, want: "array of 1099511627776 uint8 is larger than one allocation may be here (1.0 GiB)"},
		{src: `s := make([]byte, 1<<20)`},
		{src: `t := make([]byte, 1<<29)`},
		{src: `s = append(s, t...)`},
		{src: `s = append(s, t...)`, err: true, want: "append: 1.2 GiB"},
		{src: `len(s)`, want: "537919488"},
	})
	// Growing one element at a time stops at the bound, recoverably.
	runSteps(t, interp.Options{MaxAllocBytes: 1 << 20}, []step{
		{src: `func grow() (n int) {
	defer func() { recover() }()
	var xs []int64
	for { xs = append(xs, 1); n = len(xs) }
}`},
		{src: `n := grow()`},
		{src: `n > 1<<16 && n <= 1<<17`, want: "true"},
	})
}

// An unimported package in a type is an undefined name, wherever the type
// is (yaegi crashed with a nil pointer dereference or an internal panic).
func TestRoutelabUndefinedPackageInType(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `func f(r *engine.RunResult) int { return 1 }`, err: true, want: "1:24: undefined: engine"},
		{src: `var zz map[strings.Builder]int`, err: true, want: "1:25: undefined: strings"},
		{src: `type S struct { b strings.Builder }`, err: true, want: "1:32: undefined: strings"},
		{src: `func g() { var x fmt.Stringer; _ = x }`, err: true, want: "1:31: undefined: fmt"},
		{src: `x := []strings.Builder{}`, err: true, want: "1:35: undefined: strings"},
		{src: `var y interface{} = 3`},
		{src: `_, ok := y.(fmt.Stringer)`, err: true, want: "1:40: undefined: fmt"},
		{src: `f2 := func(a sort.Interface) {}`, err: true, want: "1:41: undefined: sort"},
		{src: `import "strings"`},
		{src: `type S struct { b strings.Builder }`},
		{src: `S{}.b.Len()`, want: "0"},
	})
}

// break, continue and return outside what they belong to are compile
// errors (they were accepted and did nothing, or crashed the compiler).
func TestRoutelabBranchesOutsideTheirStatement(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `break`, err: true, want: "1:28: break is not in a loop, switch, or select"},
		{src: `if true { continue }`, err: true, want: "continue is not in a loop"},
		{src: `func f() { break }`, err: true, want: "break is not in a loop"},
		{src: `return`, err: true, want: "return is not in a function"},
		{src: `for i := 0; i < 3; i++ { func() { continue }() }`, err: true, want: "continue is not in a loop"},
		{src: `n := 0`},
		{src: `for i := 0; i < 5; i++ { if i == 3 { break }; if i == 1 { continue }; n += i }`},
		{src: `n`, want: "2"},
		{src: `switch n { case 2: n = 7; break; n = 9 }`},
		{src: `n`, want: "7"},
		{src: `func g(x int) int { switch { case x > 0: break }; for { if x > 3 { break }; x++ }; return x }`},
		{src: `g(1)`, want: "4"},
		{src: `ch := make(chan int, 1)`},
		{src: `ch <- 1`},
		{src: `select { case v := <-ch: n = v; break; n = 0 }`},
		{src: `n`, want: "1"},
	})
}

// Messages name the expression and the types as Go does.
func TestRoutelabMessages(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `import "strings"`},
		{src: `var b strings.Builder`},
		{src: `b.Lenn()`, err: true, want: "b.Lenn undefined (type strings.Builder has no field or method Lenn)"},
		{src: `q := []int{1}`},
		{src: `q.Len()`, err: true, want: "q.Len undefined (type []int has no field or method Len)"},
		{src: `strings.Uper("a")`, err: true, want: "undefined: strings.Uper"},
		{src: `func g(a int) string { return a }`, err: true, want: "cannot use a (type int) as type string in return statement"},
		{src: `k := 3`},
		{src: `k()`, err: true, want: "invalid operation: cannot call non-function k (value of type int)"},
		{src: `var a, c = 1`, err: true, want: "assignment mismatch: 2 variables but 1 value"},
		{src: `ch := make(chan int, 1)`},
		{src: `ch <- "s"`, err: true, want: `cannot convert "s" to int`},
		{src: `var e error = "oops"`, err: true, want: `cannot use "oops" (type string) as type error`},
	})
}

func TestRoutelabMoreMessages(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `func f(a int) int { return a }`},
		{src: `f(1, 2)`, err: true, want: "too many arguments in call to f"},
		{src: `x := 3`},
		{src: `if x {}`, err: true, want: "non-boolean condition x (type int) in if statement"},
		{src: `len(5)`, err: true, want: "invalid argument: 5 (type untyped int) for built-in len"},
		{src: `var arr [3]int`},
		{src: `arr[5] = 1`, err: true, want: "invalid argument: index 5 out of bounds [0:3]"},
		{src: `for i := range 3.5 { _ = i }`, err: true, want: "cannot range over 3.5 (type untyped float)"},
	})
}

// A selector that names nothing suggests what it is most likely a typo of;
// a compiled type's unexported field cannot be reached (reading it panicked
// in reflect at run time).
func TestRoutelabSuggestions(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `import ("fmt"; "strings"; "time")`},
		{src: `strings.ToUpperr("a")`, err: true, want: "undefined: strings.ToUpperr (package \"strings\" has no symbol ToUpperr) (did you mean strings.ToUpper?)"},
		{src: `fmt.Printn("a")`, err: true, want: "(did you mean fmt.Println?)"},
		{src: `strings.Qqqqq()`, err: true, want: "has no symbol Qqqqq)"},
		{src: `var sb strings.builder`, err: true, want: "(did you mean strings.Builder?)"},
		{src: `type P struct{ Alpha int }`},
		{src: `func (P) Score() int { return 1 }`},
		{src: `p := P{}`},
		{src: `p.Scor()`, err: true, want: "p.Scor undefined (type P has no field or method Scor) (did you mean p.Score?)"},
		{src: `p.alpha`, err: true, want: "(did you mean p.Alpha?)"},
		{src: `P{alpha: 1}`, err: true, want: "unknown field alpha in struct literal of type P (did you mean Alpha?)"},
		{src: `var b strings.Builder`},
		{src: `b.Writestring("x")`, err: true, want: "(did you mean b.WriteString?)"},
		{src: `b.buf`, err: true, want: "b.buf undefined (cannot refer to unexported field buf)"},
		{src: `x := b.buf`, err: true, want: "b.buf undefined (cannot refer to unexported field buf)"},
		{src: `func f(b *strings.Builder) int { return len(b.buf) }`, err: true, want: "cannot refer to unexported field buf"},
		{src: `time.Time{wall: 1}`, err: true, want: "unknown field wall in struct literal of type time.Time"},
		{src: `p.Score() + len(b.String())`, want: "1"},
	})
}

// An index out of range fails with Go's run-time error, naming the index
// and the length, for reads and writes, in functions and at the top level.
func TestRoutelabIndexOutOfRange(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `xs := []int{1, 2, 3}`},
		{src: `i := 5`},
		{src: `xs[i]`, err: true, want: "runtime error: index out of range [5] with length 3"},
		{src: `func at(k int) int { return xs[k] }`},
		{src: `at(-1)`, err: true, want: "runtime error: index out of range [-1]"},
		{src: `func set(k int) { xs[k] = 0 }`},
		{src: `set(3)`, err: true, want: "runtime error: index out of range [3] with length 3"},
		{src: `s := "ab"`},
		{src: `s[i]`, err: true, want: "runtime error: index out of range [5] with length 2"},
		{src: `var arr [2]bool`},
		{src: `if arr[i] {}`, err: true, want: "runtime error: index out of range [5] with length 2"},
		{src: `at(2) + int(s[1])`, want: "101"},
	})
}

// nil where no nil fits (a struct, a number, an untyped definition) is a
// compile error as in Go; the compiler used to crash on it (a nil pointer
// dereference, "nil reflect type").
func TestRoutelabNilWhereNoNilFits(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: `import "strings"`},
		{src: `type H struct{ A int }`},
		{src: `func f() H { return nil }`, err: true, want: "cannot use nil as H value in return statement"},
		{src: `func g() (strings.Builder, int) { return nil, 1 }`, err: true, want: "cannot use nil as strings.Builder value in return statement"},
		{src: `func k() int { return nil }`, err: true, want: "cannot use nil as int value in return statement"},
		{src: `func c() H { return H(nil) }`, err: true, want: "cannot convert"},
		{src: `func d() { x := nil; _ = x }`, err: true, want: "use of untyped nil in assignment"},
		{src: `x := nil`, err: true, want: "use of untyped nil"},
		{src: `func ok() (*H, error) { return nil, nil }`},
		{src: `p, err := ok(); p == nil && err == nil`, want: "true"},
	})
}

// A package-level multi-value var initialised by a call (yaegi's own
// ret5.go) still works with global comma-ok symbols.
func TestRoutelabPackageMultiValueVar(t *testing.T) {
	runSteps(t, interp.Options{}, []step{
		{src: "package main\n\nfunc r2() (int, int) { return 1, 2 }\n\nvar a, b int = r2()\n\nvar c = a + b\n\nfunc main() {}"},
		{src: "c", want: "3"},
	})
}

// The standard library's symbol tables are built on the first call of
// stdlib.Symbols, not when the package is initialised: in a fresh process
// (this test binary run again, where nothing has called it) MapTypes,
// built with them, is empty until then; afterwards the tables are whole
// and every call returns the same map.
func TestRoutelabLazyStdlib(t *testing.T) {
	if os.Getenv("ROUTELAB_LAZY_STDLIB_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRoutelabLazyStdlib$", "-test.count=1")
		cmd.Env = append(os.Environ(), "ROUTELAB_LAZY_STDLIB_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "PASS") {
			t.Fatalf("the test in a fresh process: %v\n%s", err, out)
		}
		return
	}
	if n := len(stdlib.MapTypes); n != 0 {
		t.Fatalf("before the first stdlib.Symbols call, MapTypes holds %d functions; want them built on first use", n)
	}
	syms := stdlib.Symbols()
	if len(stdlib.MapTypes) == 0 || !syms["fmt/fmt"]["Println"].IsValid() || !syms["net/http/http"]["Get"].IsValid() || syms["."]["MapTypes"].Len() == 0 {
		t.Fatalf("after stdlib.Symbols: %d packages, %d MapTypes; want the whole standard library", len(syms), len(stdlib.MapTypes))
	}
	if again := stdlib.Symbols(); reflect.ValueOf(again).UnsafePointer() != reflect.ValueOf(syms).UnsafePointer() || len(again) != len(syms) {
		t.Fatal("a second stdlib.Symbols call returned another map")
	}
	if self := syms["github.com/traefik/yaegi/stdlib/stdlib"]["Symbols"]; self.Len() != len(syms) {
		t.Fatalf("the interpreted stdlib.Symbols holds %d packages, want %d", self.Len(), len(syms))
	}
	runSteps(t, interp.Options{}, []step{
		{src: `import "strings"`},
		{src: `strings.ToUpper("lazy")`, want: "LAZY"},
	})
}

// Every routelab test of the interpreter is listed in ROUTELAB.md with the
// change it covers.
func TestRoutelabChangesAreListed(t *testing.T) {
	table, err := os.ReadFile(filepath.Join("..", "ROUTELAB.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("routelab*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	tests := regexp.MustCompile(`(?m)^func (TestRoutelab\w+)\(`).FindAllStringSubmatch(string(src), -1)
	if len(tests) < 10 {
		t.Fatalf("found %d TestRoutelab functions", len(tests))
	}
	for _, m := range tests {
		if m[1] != "TestRoutelabChangesAreListed" && !strings.Contains(string(table), "`"+m[1]+"`") {
			t.Errorf("%s is not in ROUTELAB.md's table: add the change it covers", m[1])
		}
	}
}

// print and println format their operands as Go's runtime does (Go's test
// suite: goprint.go, print.go, ken/string.go).
func TestRoutelabPrintAsGo(t *testing.T) {
	var out strings.Builder
	i := interp.New(interp.Options{Stdout: &out})
	src := `print("abc", "xyz", 1, 1.5, true)
println()
println(42, 1.5, float32(0.1), "s", (chan int)(nil), []int(nil), (map[string]int)(nil), (func())(nil), byte(255), (*int)(nil))
println((interface{})(nil), error(nil), 1+2i, -9223372036854775808)`
	if _, err := i.Eval(src); err != nil {
		t.Fatal(err)
	}
	want := "abcxyz11.5true\n42 1.5 0.1 s 0x0 [0/0]0x0 0x0 0x0 255 0x0\n(0x0,0x0) (0x0,0x0) (1+2i) -9223372036854775808\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// runProgram evaluates src, a main package, and returns what it printed.
func runProgram(t *testing.T, src string) string {
	t.Helper()
	var out strings.Builder
	i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
	if err := i.Use(stdlib.Symbols()); err != nil {
		t.Fatal(err)
	}
	if _, err := evalStep(i, src); err != nil {
		t.Fatalf("%v (output %q)", err, out.String())
	}
	return out.String()
}

func TestRoutelabTypeSwitch(t *testing.T) {
	src := `package main

import "fmt"

type I interface{ M() }
type myint int

func (myint) M() {}

type myfloat float64

func (myfloat) M() {}
func (myfloat) F() float64 { return 0 }

func g(i interface{}) {
	switch i.(type) {
	case any:
		println("any")
	case int:
		println("int")
	}
	switch i.(type) {
	case I:
		println("I")
	default:
		println("other")
	}
	switch x := i.(type) {
	case fmt.Stringer:
		println("Stringer", x.String())
	case I:
		x.M()
		println("I")
	default:
		println("other")
	}
	switch x := i.(type) {
	case interface{}:
		_ = x
		println("any")
	}
}

func f[T any](i interface{}) {
	switch i.(type) {
	case T:
		println("T")
	case int:
		println("int")
	case int32, int16:
		println("int32/int16")
	default:
		println("other")
	}
}

func h[T any](i interface{}) {
	switch x := i.(type) {
	case T:
		println("T", x)
	case interface{ F() T }:
		println("F", x.F())
	default:
		println("other")
	}
}

func main() {
	g(1)
	g(myint(2))
	g(nil)
	f[float64](6.0)
	f[int32](int32(7))
	f[any](8)
	f[interface{ M() }](myint(9))
	f[interface{ M() }](10)
	h[myint](myint(11))
	h[float64](myfloat(12))
	h[int](myfloat(13))
}
`
	want := `any
other
other
any
any
I
I
any
other
other
T
T
T
T
int
T 11
F 0
other
`
	if got := runProgram(t, src); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// An error in the body of a generic function instantiated with explicit type
// arguments is the compilation's error (it was lost, and the call crashed the
// compiler with a nil pointer dereference).
func TestRoutelabGenericInstantiationError(t *testing.T) {
	for _, src := range []string{
		"func f1[T any](x T) int { return x.foo }\nfunc g1() int { return f1[int](1) }",
		"func f2[T, U any](x T) int { return x.foo }\nfunc g2() int { return f2[int, int](1) }",
	} {
		i := interp.New(interp.Options{})
		_, err := evalStep(i, src)
		if err == nil || strings.Contains(err.Error(), "panic") || !strings.Contains(err.Error(), "foo") {
			t.Errorf("%q: error %v, want one that names foo", src, err)
		}
	}
}

// Instances of generic types: made where a function's instance first names
// them as a value (a type switch case), methods with an unnamed receiver,
// one method instance per receiver type, and instances of one generic type
// told apart by their type arguments.
func TestRoutelabGenericTypeInstances(t *testing.T) {
	src := `package main

type setter[T any] interface{ Set(T) }

type fooA[T any] struct{}

func (fooA[T]) Set(T) { println("A.Set") }

type fooB[T any] struct{ x T }

func (fooB[T]) Set(T) { println("B.Set") }

func check[T any](v any) {
	switch v.(type) {
	case fooA[T]:
		println("fooA")
	case fooB[T]:
		println("fooB")
	default:
		println("other")
	}
	var s setter[T] = fooB[T]{}
	s.Set(*new(T))
	s = fooA[T]{}
	s.Set(*new(T))
	_, ok := v.(fooA[int])
	println(ok)
}

func main() {
	check[string](fooA[string]{})
	check[int](fooB[int]{})
	check[int](fooA[string]{})
}
`
	want := "fooA\nB.Set\nA.Set\nfalse\nfooB\nB.Set\nA.Set\nfalse\nother\nB.Set\nA.Set\nfalse\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// An untyped nil argument binds no type parameter: Reduce(s, nil, func(acc
// []int, e int) []int {…}) binds U to []int (it bound it to nil's type, and
// the instance's result had no reflect type).
func TestRoutelabInferenceIgnoresNil(t *testing.T) {
	src := `package main

func Reduce[T, U any](s []T, identity U, acc func(U, T) U) (r U) {
	r = identity
	for _, t := range s {
		r = acc(r, t)
	}
	return r
}

func main() {
	r := Reduce([]int{1, 2, 3}, nil, func(acc []int, e int) []int { return append(acc, e) })
	println(len(r), r[2])
}
`
	if got := runProgram(t, src); got != "3 3\n" {
		t.Errorf("got %q, want %q", got, "3 3\n")
	}
}

// A type assertion in an instance of a generic function that cannot hold
// for its type arguments compiles and fails when it runs, as in Go (it was
// "impossible type assertion" at compile time).
func TestRoutelabAssertionInGenericInstance(t *testing.T) {
	src := `package main

type I interface{ M() }

type holder struct{}

func try[T any](x I) bool {
	_, ok := x.(T)
	return ok
}

func main() {
	println(try[holder](nil), try[string](nil))
}
`
	if got := runProgram(t, src); got != "false false\n" {
		t.Errorf("got %q, want %q", got, "false false\n")
	}
}

// == and != between a source interface value and a concrete value, or two
// source interface values, compare dynamic types and values as Go does.
func TestRoutelabInterfaceComparison(t *testing.T) {
	src := `package main

type myint int

func (x myint) foo() {}

type I interface{ foo() }

func h(x I) interface{ foo() } { return x }

func g[T interface{ comparable; foo() }](i I) bool {
	var t T
	return i != t
}

func main() {
	var a I = myint(6)
	var b interface{ foo() } = myint(6)
	var u myint = 6
	println(a == b, a != b, a == u, a != u, a == myint(7))
	println(h(myint(6)) != interface{ foo() }(myint(6)), b == interface{ foo() }(myint(6)))
	println(g[myint](myint(0)), g[myint](myint(1)))
	var n I
	println(n == b, n != nil)
	if a == u {
		println("if")
	}
}
`
	want := "true false true false false\nfalse true\nfalse true\nfalse false\nif\n"
	if got := runProgram(t, src); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
