package symbols_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
)

// The mistakes a newcomer makes in cells, each answered by an error that
// names the offending identifier or type and the line, in the cell's own
// terms. They run one after the other in one session, as in a notebook: a
// mistake must not cost the session anything (the last check).

// mistakeSetup declares what the mistakes below misuse.
const mistakeSetup = `scn := lab.Straggler()
res := lab.Compare(scn.Seeds(2), lab.RoundRobin())
func f(a int) int { return a }
type P struct{ A int }
q := []int{1, 2, 3}
m := map[string]int{}
var arr [3]int
ch := make(chan int, 1)
kept := 42`

var mistakes = []struct {
	cell  string
	name  string   // the error's name
	line  int      // where the message must point (0: not positioned)
	names []string // what the message must name
}{
	// Typos and undefined names.
	{"busy := scm.Rate(175)", "CompileError", 1, []string{"undefined: scm", "did you mean scn?"}},
	{"x := 1 + yy", "CompileError", 1, []string{"undefined: yy"}},
	{"lab.Compare(scn, lab.Adaptve())", "CompileError", 1, []string{"lab.Adaptve", "did you mean lab.Adaptive?"}},
	{"lab.Polcy(\"p\", nil)", "CompileError", 1, []string{"lab.Polcy", "did you mean lab.Policy?"}},
	{"lab.straggler()", "CompileError", 1, []string{"lab.straggler", "did you mean lab.Straggler?"}},
	{"lab.Straggler().Rat(150)", "CompileError", 1, []string{"Rat undefined", "*lab.Scenario", "did you mean Rate?"}},
	{"scn.seeds(3)", "CompileError", 1, []string{"scn.seeds undefined (type *lab.Scenario has no field or method seeds, but does have method Seeds)", "did you mean scn.Seeds?"}},
	{"sd := scn.seeds", "CompileError", 1, []string{"scn.seeds undefined", "but does have method Seeds"}},
	{"lab.Hooks{Pik: nil}", "CompileError", 1, []string{"unknown field Pik", "lab.Hooks", "did you mean Pick?"}},
	{"res.Chartt()", "CompileError", 1, []string{"res.Chartt undefined", "*lab.Comparison", "did you mean res.Chart?"}},
	{"undefinedFunc(3)", "CompileError", 1, []string{"undefined: undefinedFunc"}},
	{"for i := 0; i < 3; i++ {\n\tj = i\n}", "CompileError", 2, []string{"undefined: j"}},
	{"go undefinedG()", "CompileError", 1, []string{"undefined: undefinedG"}},
	{"var t T2", "CompileError", 1, []string{"undefined: T2"}},
	{"Println(\"x\")", "CompileError", 1, []string{"undefined: Println", "fmt.Println"}},
	{"fmt.Printn(\"x\")", "CompileError", 1, []string{"fmt.Printn", "did you mean fmt.Println?"}},
	{"strings.ToUpperr(\"a\")", "CompileError", 1, []string{"strings.ToUpperr"}},
	{"kep + 1", "CompileError", 1, []string{"undefined: kep", "did you mean kept?"}},
	// Packages.
	{"r := engine.Run", "CompileError", 1, []string{"undefined: engine", `import "github.com/routelab/routelab/engine"`}},
	{"func area(r *engine.RunResult) int { return 0 }", "CompileError", 1, []string{"undefined: engine"}},
	{"import \"nosuchpkg\"", "CompileError", 1, []string{`"nosuchpkg"`}},
	{"import \"github.com/foo/bar\"", "CompileError", 1, []string{`"github.com/foo/bar"`}},
	// Types.
	{"var s string = 5", "CompileError", 1, []string{"5", "string"}},
	{"var i int = \"x\"", "CompileError", 1, []string{`"x"`, "int"}},
	{"f(\"x\")", "CompileError", 1, []string{`"x"`, "int"}},
	{"func g(a int) string { return a }", "CompileError", 1, []string{"a", "int", "string"}},
	{"q[\"a\"]", "CompileError", 1, []string{`"a"`, "int"}},
	{"m[1] = 2", "CompileError", 1, []string{"1", "string"}},
	{"var e error = \"oops\"", "CompileError", 1, []string{`"oops"`, "error"}},
	{"ch <- \"s\"", "CompileError", 1, []string{`"s"`, "int"}},
	{"P{} + 1", "CompileError", 1, []string{"P", "int"}},
	{"\"a\" * 2", "CompileError", 1, []string{"string", "int"}},
	{"var ff float64 = 1\nff % 2", "CompileError", 2, []string{"%", "float64"}},
	{"sort.Ints([]string{\"b\"})", "CompileError", 1, []string{"[]string", "[]int"}},
	{"time.Sleep(\"1s\")", "CompileError", 1, []string{`cannot use "1s" (untyped string constant) as time.Duration value in argument to time.Sleep`}},
	{"strconv.Atoi(5)", "CompileError", 1, []string{"5", "string"}},
	{"errors.New(5)", "CompileError", 1, []string{"5", "string"}},
	{"append(q, \"x\")", "CompileError", 1, []string{`"x"`, "int"}},
	{"len(5)", "CompileError", 1, []string{"5", "len"}},
	{"x := 3\nif x {\n}", "CompileError", 2, []string{"non-boolean condition in if statement"}},
	{"z := 4\nz.(int)", "CompileError", 2, []string{"int"}},
	{"for i := range 3.5 {\n\t_ = i\n}", "CompileError", 1, []string{"3.5"}},
	{"m2 := map[string]int{\"a\": \"b\"}", "CompileError", 1, []string{`"b"`, "int"}},
	// Fields and methods.
	{"p := P{B: 2}", "CompileError", 1, []string{"B"}},
	{"P{1, 2}", "CompileError", 1, []string{"struct literal"}},
	{"w := lab.Replica{Idd: 1}", "CompileError", 1, []string{"Idd"}},
	{"q.Len()", "CompileError", 1, []string{"q.Len undefined", "[]int"}},
	{"var z int\nz.Foo()", "CompileError", 2, []string{"z.Foo undefined", "int"}},
	// Calls.
	{"f(1, 2)", "CompileError", 1, []string{"too many arguments in call to f"}},
	{"f()", "CompileError", 1, []string{"not enough arguments in call to f"}},
	{"k := 3\nk()", "CompileError", 2, []string{"cannot call k (variable of type int): int is not a function"}},
	{"lab.Policy(\"p\")", "CompileError", 1, []string{"lab.Policy"}},
	{"lab.Run(scn, lab.RoundRobin())", "CompileError", 1, []string{"lab.Run"}},
	{"scn.Rate()", "CompileError", 1, []string{"not enough arguments in call to scn.Rate"}},
	{"lab.Run(scn, lab.RoundRobin(), \"1\")", "CompileError", 1, []string{`"1"`, "int"}},
	{"lab.Compare(\"straggler\", lab.RoundRobin())", "CompileError", 1, []string{"*lab.Scenario"}},
	{"lab.Policy(\"p\", func(r lab.Replica) int { return r.Outstanding })", "CompileError", 1, []string{"value of type func(r lab.Replica) int", "as func(r lab.Replica) float64 value in argument to lab.Policy"}},
	{"lab.Stateful(\"s\", func() lab.Hooks { return nil })", "CompileError", 1, []string{"cannot use nil as lab.Hooks value in return statement"}},
	{"var hk lab.Hooks = nil", "CompileError", 1, []string{"nil", "lab.Hooks"}},
	{"none := nil", "CompileError", 1, []string{"use of untyped nil"}},
	// Statements.
	{"func h() int {\n}", "CompileError", 2, []string{"missing return"}},
	{"func h2() int { return }", "CompileError", 1, []string{"return"}},
	{"var a, b = 1", "CompileError", 1, []string{"2 variables but 1 value"}},
	{"var y int\ny := 2", "CompileError", 2, []string{":="}},
	{"func dup() {}\nfunc dup() {}", "CompileError", 2, []string{"dup"}},
	{"return 5", "CompileError", 1, []string{"return"}},
	{"break", "CompileError", 1, []string{"break"}},
	{"if true {\n\tcontinue\n}", "CompileError", 2, []string{"continue"}},
	{"defer fmt.Println()", "CompileError", 1, []string{"defer"}},
	{"arr[5] = 1", "CompileError", 1, []string{"index 5", "[0:3]"}},
	{"1/0", "CompileError", 1, []string{"division by zero"}},
	// Syntax.
	{"x :=", "CompileError", 1, []string{"expected operand"}},
	{"fmt.Println(\"a\"", "CompileError", 1, []string{"missing ','"}},
	{"\"unterminated", "CompileError", 1, []string{"string literal not terminated"}},
	// Redefinitions that cannot be.
	{"type P struct{ A, B int }", "CompileError", 1, []string{"type P", "cell 1"}},
	{"P := 3", "CompileError", 1, []string{"P"}},
	// Run-time errors.
	{"var mm map[int]int\nmm[1] = 1", "RuntimeError", 2, []string{"nil map"}},
	{"var nilp *P\nnilp.A", "RuntimeError", 2, []string{"nil pointer"}},
	{"var fn func()\nfn()", "RuntimeError", 2, []string{"nil"}},
	{"n := 0\n1 / n", "RuntimeError", 2, []string{"divide by zero"}},
	{"s := []int{}\ns[0]", "RuntimeError", 2, []string{"index out of range [0] with length 0"}},
	{"panic(\"boom\")", "Panic", 1, []string{"boom"}},
	// Misusing lab: a builder refuses a bad value in the cell that gives it.
	{"lab.NewScenario(\"x\").Rate(-5)", "ValueError", 1, []string{"Rate", "-5"}},
	{"lab.Steady().At(-1, lab.Fail(1))", "ValueError", 1, []string{"At", "seconds", "-1"}},
	{"lab.Steady().Seeds(0)", "ValueError", 1, []string{"Seeds", "0"}},
	{"lab.Steady().At(2, lab.Slow(7, 2))", "ValueError", 1, []string{"replica", "7"}},
	{"lab.LatencyAware(lab.C(0.9))", "ValueError", 1, []string{"lab.C(0.9)", "latency-aware"}},
	{"lab.Compare(scn)", "ValueError", 1, []string{"policies"}},
	{"lab.Compare(scn, lab.RoundRobin(), lab.RoundRobin())", "ValueError", 1, []string{"round-robin", "distinct"}},
	{"lab.Run(scn, lab.RoundRobin(), 0)", "ValueError", 1, []string{"seed", "0"}},
	{"lab.Compare(scn, lab.Policy(\"nan\", func(r lab.Replica) float64 { return 0.0 / 0.0 }))", "CompileError", 1, []string{"division by zero"}},
}

// forbidden are words of the interpreter's internals that no message may
// show.
var forbidden = []string{"yaegi internal", "nil type", "definition loop", "CFG post-order", "reflect:", "intT", "stringT", "_rl_", "1000000"}

func TestMistakesAreNamed(t *testing.T) {
	if len(mistakes) < 50 {
		t.Fatalf("the corpus has %d wrong cells; keep at least 50", len(mistakes))
	}
	s := newSession(t)
	exec(t, s, mistakeSetup)
	for _, c := range mistakes {
		var k sink
		_, err := s.Execute(context.Background(), c.cell, &k)
		var de *display.Error
		if !errors.As(err, &de) {
			t.Errorf("%q: err = %v, want a %s", c.cell, err, c.name)
			continue
		}
		text := de.Name + ": " + de.Value + "\n" + strings.Join(de.Traceback, "\n") + "\n" + k.out.String()
		if de.Name != c.name {
			t.Errorf("%q: %s, want a %s\n%s", c.cell, de.Name, c.name, text)
		}
		if c.line > 0 && !strings.HasPrefix(de.Value, fmt.Sprintf("%d:", c.line)) {
			t.Errorf("%q: message %q does not point at line %d", c.cell, de.Value, c.line)
		}
		for _, n := range c.names {
			if !strings.Contains(de.Value, n) {
				t.Errorf("%q: message %q does not name %q", c.cell, de.Value, n)
			}
		}
		for _, w := range forbidden {
			if strings.Contains(text, w) {
				t.Errorf("%q: the error shows %q:\n%s", c.cell, w, text)
			}
		}
	}
	if b, _ := exec(t, s, "kept + f(1)"); b.Text() != "43" {
		t.Errorf("after the mistakes, kept + f(1) = %s, want 43", b.Text())
	}
}
