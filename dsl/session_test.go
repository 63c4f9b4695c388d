package dsl_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlibsym"
)

// Bad input of every kind leaves the session usable, with its variables.
func TestBadInputKeepsSession(t *testing.T) {
	s := newSession(t)
	run(t, s, "keep := 7")
	cases := map[string]string{
		"syntax":                     "x := (",
		"type":                       `y := "a" + 1`,
		"undefined":                  "nope()",
		"runtime panic":              "var p *struct{ A int }\n_ = p.A",
		"explicit panic":             `panic("boom")`,
		"panic in callback":          `testlib.Call(func() int { panic("inside a callback") })`,
		"nil map in callback":        `testlib.Call(func() int { var m map[int]int; m[1] = 1; return 0 })`,
		"compiled error":             `testlib.Route(3, 2, func(i int) int { return 5 })`,
		"unsupported":                "for v := range func(yield func(int) bool) {} { _ = v }",
		"type redefinition conflict": "type keep int",
		"empty":                      "",
		"comment only":               "// nothing",
		"lone brace":                 "}",
		"bad import":                 `import "nonexistent/pkg"`,
	}
	for name, code := range cases {
		rec := &recorder{}
		_, err := s.Execute(context.Background(), code, rec)
		if err != nil {
			var de *display.Error
			if !asDisplayError(err, &de) || de.Name == "" || len(de.Traceback) == 0 {
				t.Errorf("%s: error %v is not a complete *display.Error", name, err)
			}
		}
		if got := run(t, s, "keep"); got != "7" {
			t.Fatalf("after %s: keep = %s", name, got)
		}
	}
}

func asDisplayError(err error, de **display.Error) bool {
	e, ok := err.(*display.Error)
	*de = e
	return ok
}

func TestPanicInCallbackIsReported(t *testing.T) {
	s := newSession(t)
	de := fail(t, s, `testlib.Call(func() int { panic("inside a callback") })`)
	if de.Name != dsl.PanicError || !strings.Contains(de.Value, "inside a callback") {
		t.Errorf("got %s: %s", de.Name, de.Value)
	}
}

// Output is streamed while the cell runs, not only when it ends: the cell
// blocks until the sink has received its first line.
func TestOutputStreams(t *testing.T) {
	seen := make(chan struct{})
	probe := dsl.Library{Path: "example.com/probe", Name: "probe", Symbols: map[string]reflect.Value{
		"Wait": reflect.ValueOf(func() {
			select {
			case <-seen:
			case <-time.After(10 * time.Second):
				panic("the first line never reached the sink")
			}
		}),
	}}
	s, err := dsl.New(dsl.Options{Libraries: []dsl.Library{probe}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sink := &signalSink{recorder: &recorder{}, want: "first\n", seen: seen}
	_, err = s.Execute(context.Background(), "import (\n\t\"fmt\"\n\t\"example.com/probe\"\n)\nfmt.Println(\"first\")\nprobe.Wait()\nfmt.Println(\"second\")", sink)
	if err != nil {
		t.Fatal(err)
	}
	if got := sink.stdout(); got != "first\nsecond\n" {
		t.Errorf("stdout = %q", got)
	}
}

type signalSink struct {
	*recorder
	want string
	seen chan struct{}
	done bool
}

func (s *signalSink) Stream(name, text string) {
	s.recorder.Stream(name, text)
	if !s.done && strings.Contains(s.stdout(), s.want) {
		s.done = true
		close(s.seen)
	}
}

func TestBindOverrideMustKeepType(t *testing.T) {
	lib := testlibsym.Library(false)
	lib.Bind = func(h dsl.Host) map[string]reflect.Value {
		return map[string]reflect.Value{"Square": reflect.ValueOf(func(x int64) int64 { return x * x })}
	}
	_, err := dsl.New(dsl.Options{Libraries: []dsl.Library{lib}})
	if err == nil || !strings.Contains(err.Error(), "must have the type of the symbol it replaces, func(int) int") {
		t.Fatalf("got %v", err)
	}
	lib.Bind = func(h dsl.Host) map[string]reflect.Value {
		return map[string]reflect.Value{"Nope": reflect.ValueOf(1)}
	}
	if _, err := dsl.New(dsl.Options{Libraries: []dsl.Library{lib}}); err == nil || !strings.Contains(err.Error(), `"Nope", which is not one of its symbols`) {
		t.Fatalf("got %v", err)
	}
}

// Every override the test library binds has exactly the type of the symbol
// it replaces.
func TestBindOverridesHaveSymbolTypes(t *testing.T) {
	lib := testlibsym.Library(true)
	s := newSession(t)
	for name, v := range lib.Bind(nil) {
		if want := lib.Symbols[name].Type(); v.Type() != want {
			t.Errorf("%s: override %s, symbol %s", name, v.Type(), want)
		}
	}
	if got := run(t, s, `testlib.Square(3)`); got != "9" {
		t.Errorf("Square(3) = %s", got)
	}
}

func TestBadOptions(t *testing.T) {
	for name, opts := range map[string]dsl.Options{
		"no symbols":  {Libraries: []dsl.Library{{Path: "x/y", Name: "y"}}},
		"bad name":    {Libraries: []dsl.Library{{Path: "x/y", Name: "1y", Symbols: map[string]reflect.Value{"A": reflect.ValueOf(1)}}}},
		"shadows std": {Libraries: []dsl.Library{{Path: "strings", Name: "strings", Symbols: map[string]reflect.Value{"A": reflect.ValueOf(1)}}}},
		"bad env":     {Env: []string{"NOEQUALS"}},
		"twice":       {Libraries: []dsl.Library{testlibsym.Library(false), testlibsym.Library(true)}},
	} {
		if _, err := dsl.New(opts); err == nil {
			t.Errorf("%s: New accepted %+v", name, opts)
		}
	}
}

func TestRunScriptPackageMain(t *testing.T) {
	s := newSession(t)
	var out, errs bytes.Buffer
	src := "package main\n\nimport \"fmt\"\n\nfunc helper() int { return 6 * 7 }\n\nfunc main() {\n\tfmt.Println(\"answer\", helper())\n}\n"
	if err := s.RunScript(context.Background(), src, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if out.String() != "answer 42\n" || errs.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", out.String(), errs.String())
	}
}

func TestRunScriptStatements(t *testing.T) {
	s := newSession(t)
	var out, errs bytes.Buffer
	src := "import \"fmt\"\nxs := []int{1, 2, 3}\nfor i := range 2 {\n\tfmt.Println(i, xs[i])\n}\ntestlib.NewReport(\"r\", 1)\n"
	if err := s.RunScript(context.Background(), src, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if want := "0 1\n1 2\nreport \"r\" (1 rows)\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	err := s.RunScript(context.Background(), "x := 1\ny := nope + x\n", &out, &errs)
	de, ok := err.(*display.Error)
	if !ok || de.Name != dsl.CompileError || !strings.HasPrefix(de.Value, "2:") {
		t.Errorf("got %v", err)
	}
}

// A goroutine started by compiled code that runs a panicking interpreted
// callback kills the process: nothing in the interpreter can recover it
// (goroutines that cells start themselves are protected). This documents
// it in a child process.
func TestPanicInLibraryGoroutineKillsProcess(t *testing.T) {
	if os.Getenv("DSL_CRASH_CHILD") == "1" {
		s := newSession(t)
		s.Execute(context.Background(), "import \"time\"\ntestlib.Go(func() { panic(\"from a library goroutine\") })\ntime.Sleep(time.Second)", &recorder{})
		t.Fatal("the process survived")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPanicInLibraryGoroutineKillsProcess$")
	cmd.Env = append(os.Environ(), "DSL_CRASH_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child exited normally:\n%s", out)
	}
	if !strings.Contains(string(out), "from a library goroutine") {
		t.Errorf("the child's output does not show the panic:\n%s", out)
	}
}
