package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func testJudge() judge {
	return judge{
		refusal: regexp.MustCompile(routelabRefusal),
		paths:   strings.NewReplacer("/goroot/test/", "", "/goroot", "$GOROOT"),
		limit:   10 * time.Second,
	}
}

func TestRunVerdicts(t *testing.T) {
	tests := []struct {
		name   string
		o      outcome
		want   string // the .out file
		v      verdict
		reason string
	}{
		{"expected output", outcome{Output: "ok\n"}, "ok\n", pass, ""},
		{"no .out, no output", outcome{}, "", pass, ""},
		{"CRLF is LF", outcome{Output: "ok\r\n"}, "ok\n", pass, ""},
		{"other output", outcome{Output: "ok\nBUG\n"}, "ok\n", wrong, `output line 2: got "BUG", want ""`},
		{"missing output", outcome{Output: ""}, "a\n", wrong, `output line 1: got "", want "a"`},
		{"compile error", outcome{Exit: 1, Output: "routelab: fixedbugs/a.go: CompileError: 3:4: undefined: x\n   3 | x\n"},
			"", refused, "routelab: CompileError: 3:4: undefined: x"},
		{"compiler panic", outcome{Exit: 1, Output: "routelab: a.go: CompileError: the interpreter failed on this code (nil); please report it\n"},
			"", crash, "routelab: CompileError: the interpreter failed on this code (nil); please report it"},
		{"run-time error", outcome{Exit: 1, Output: "started\nroutelab: a.go: RuntimeError: 5:2: runtime error: index out of range [3] with length 0\n"},
			"started\n", loud, "routelab: RuntimeError: 5:2: runtime error: index out of range [3] with length 0"},
		{"the program's own panic", outcome{Exit: 1, Output: "routelab: a.go: Panic: 2:15: boom\n"}, "", loud, "routelab: Panic: 2:15: boom"},
		{"exit status only", outcome{Exit: 3}, "", loud, "exit status 3"},
		{"non-zero exit, expected output", outcome{Exit: 1, Output: "x\n"}, "x\n", loud, "exit status 1"},
		{"goroutine dump", outcome{Exit: 2, Output: "panic: boom [recovered]\n\ngoroutine 17 [running]:\nmain.main()\n\t/goroot/src/x.go:3 +0x1d\n"},
			"", crash, "goroutine dump after panic: boom [recovered]"},
		{"fatal error", outcome{Exit: 2, Output: "fatal error: all goroutines are asleep - deadlock!\n"}, "", crash, "fatal error: all goroutines are asleep - deadlock!"},
		{"crash words the program prints", outcome{Output: "nil type\n"}, "nil type\n", pass, ""},
		{"signal", outcome{Exit: -1, State: "signal: segmentation fault", Output: "x\n"}, "", crash, "killed (signal: segmentation fault): x"},
		{"time-out", outcome{TimedOut: true, Exit: -1, State: "signal: killed"}, "", timeout, "no end within 10s"},
		{"a refusal line with exit 0 is output", outcome{Output: "routelab: a.go: CompileError: 1:1: x\n"}, "", wrong,
			`output line 1: got "routelab: a.go: CompileError: 1:1: x", want ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, reason := testJudge().runVerdict(tt.o, tt.want)
			if v != tt.v || reason != tt.reason {
				t.Errorf("runVerdict = %s, %q; want %s, %q", v, reason, tt.v, tt.reason)
			}
		})
	}
}

func TestErrorcheckVerdicts(t *testing.T) {
	lines := map[int]bool{7: true}
	tests := []struct {
		name string
		o    outcome
		v    verdict
	}{
		{"refused at the ERROR line", outcome{Exit: 1, Output: "routelab: /tmp/x/a.go: CompileError: 7:9: cannot use \"s\"\n"}, refused},
		{"refused at another line", outcome{Exit: 1, Output: "routelab: a.go: CompileError: 3:1: unsupported\n"}, refusedElsewhere},
		{"refused without a line", outcome{Exit: 1, Output: "routelab: a.go: CompileError: package p: cells are package main\n"}, refusedElsewhere},
		{"ran", outcome{}, accepted},
		{"ran and failed", outcome{Exit: 1, Output: "routelab: a.go: RuntimeError: 8:1: boom\n"}, accepted},
		{"crashed", outcome{Exit: 2, Output: "fatal error: stack overflow\n"}, crash},
		{"refused, quoting a crash marker from the source", outcome{Exit: 1, Output: "routelab: a.go: CompileError: 7:7: initialization cycle: a refers to itself\n   7 | const a = a // ERROR \"definition loop\"\n     |       ^\n"}, refused},
		{"a crash marker in the message itself", outcome{Exit: 1, Output: "routelab: a.go: CompileError: 7:7: constant definition loop\n"}, crash},
		{"timed out", outcome{TimedOut: true}, timeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v, reason := testJudge().errorcheckVerdict(tt.o, lines); v != tt.v {
				t.Errorf("errorcheckVerdict = %s (%s), want %s", v, reason, tt.v)
			}
		})
	}
}

// Another interpreter's refusal line is found by its own pattern, and its
// position is read after the file name.
func TestRefusalOfAnotherInterpreter(t *testing.T) {
	j := testJudge()
	j.refusal = regexp.MustCompile(`^yaegirun: compile error: `)
	o := outcome{Exit: 1, Output: "yaegirun: compile error: /tmp/x/fixedbugs/a.go:7:3: undefined: y\n"}
	if v, reason := j.errorcheckVerdict(o, map[int]bool{7: true}); v != refused {
		t.Errorf("errorcheckVerdict = %s (%s), want refused", v, reason)
	}
}

func TestTidyReasons(t *testing.T) {
	j := testJudge()
	long := strings.Repeat("x", 300)
	tests := []struct{ in, want string }{
		{"routelab: /goroot/test/fixedbugs/a.go: Panic: at /goroot/src/fmt/print.go:3", "routelab: Panic: at $GOROOT/src/fmt/print.go:3"},
		{"panic at 0xc000123456 in\tgoroutine 42", "panic at 0x… in goroutine N"},
		{"2026/12/01 21:50:51 nil type", "nil type"},
		{long, strings.Repeat("x", maxReason-1) + "…"},
	}
	for _, tt := range tests {
		if got := j.tidy(tt.in); got != tt.want {
			t.Errorf("tidy(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRegressionRules(t *testing.T) {
	runs := []struct {
		old, new verdict
		worse    bool
	}{
		{pass, pass, false},
		{pass, refused, true},
		{pass, loud, true},
		{loud, refused, false},
		{refused, loud, false},
		{loud, wrong, true},
		{wrong, crash, true},
		{crash, timeout, true},
		{crash, loud, false},
		{timeout, pass, false},
	}
	for _, tt := range runs {
		if got := runWorse(tt.old, tt.new); got != tt.worse {
			t.Errorf("runWorse(%s, %s) = %v", tt.old, tt.new, got)
		}
	}
	errorchecks := []struct {
		old, new verdict
		worse    bool
	}{
		{refused, refused, false},
		{refused, refusedElsewhere, true},
		{refusedElsewhere, accepted, true},
		{accepted, crash, true},
		{crash, timeout, true},
		{accepted, refused, false},
		{crash, accepted, false},
	}
	for _, tt := range errorchecks {
		if got := errorcheckWorse(tt.old, tt.new); got != tt.worse {
			t.Errorf("errorcheckWorse(%s, %s) = %v", tt.old, tt.new, got)
		}
	}
}

func TestTableRoundTripAndCompare(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.tsv")
	old := []result{{Path: "b.go", Verdict: pass}, {Path: "a.go", Verdict: loud, Reason: "routelab: Panic: x"}, {Path: "gone.go", Verdict: wrong}}
	if err := writeTable(path, old); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := tableHeader + "\na.go\tloud\troutelab: Panic: x\nb.go\tpass\t\ngone.go\twrong\t\n"; string(data) != want {
		t.Errorf("table\n%s\nwant\n%s", data, want)
	}
	rows, err := readTable(path)
	if err != nil || len(rows) != 3 || rows["a.go"].Reason != "routelab: Panic: x" {
		t.Fatalf("readTable = %v, %v", rows, err)
	}
	fresh := []result{{Path: "a.go", Verdict: pass}, {Path: "b.go", Verdict: timeout}, {Path: "new.go", Verdict: pass}}
	c := compare(rows, fresh, func(string) bool { return true }, runWorse)
	if len(c.Regressions) != 1 || c.Regressions[0].Path != "b.go" || len(c.Changes) != 1 || c.Changes[0].Path != "a.go" ||
		len(c.Added) != 1 || len(c.Removed) != 1 || c.Removed[0].Path != "gone.go" {
		t.Errorf("compare = %+v", c)
	}
	merged := merge(rows, fresh[:1], func(p string) bool { return p == "a.go" })
	if len(merged) != 3 {
		t.Errorf("merge kept %+v", merged)
	}
}

// An errorcheck copy says package main on the same line, unless the
// package clause is the error the test is about.
func TestMainCopy(t *testing.T) {
	dir := t.TempDir()
	h := harness{testDir: filepath.Join(dir, "test"), scratch: filepath.Join(dir, "scratch")}
	for name, src := range map[string]string{"p.go": "// errorcheck\n\npackage p\n\nvar x int = \"s\" // ERROR \"x\"\n", "blank1.go": "// errorcheck\n\npackage _ // ERROR \"invalid package name\"\n"} {
		if err := os.MkdirAll(filepath.Join(h.testDir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(h.testDir, "sub", name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{"p.go": "package main\n", "blank1.go": "package _ // ERROR"} {
		src, _ := os.ReadFile(filepath.Join(h.testDir, "sub", name))
		path, err := h.mainCopy(program{Rel: "sub/" + name, ErrorLines: errorLines(string(src))})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if !strings.Contains(string(got), want) || strings.Count(string(got), "\n") != strings.Count(string(src), "\n") {
			t.Errorf("copy of %s:\n%s", name, got)
		}
	}
}

// The checked-in tables are what -update writes: sorted, with known
// verdicts.
func TestCheckedInTablesAreWellFormed(t *testing.T) {
	known := map[string][]verdict{
		"verdicts.tsv":   {pass, refused, loud, wrong, crash, timeout},
		"errorcheck.tsv": {refused, refusedElsewhere, accepted, crash, timeout},
	}
	for file, verdicts := range known {
		path := filepath.Join("testdata", file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := readTable(path)
		if err != nil {
			t.Fatal(err)
		}
		var results []result
		for _, r := range rows {
			if !slices.Contains(verdicts, r.Verdict) {
				t.Errorf("%s: %s has the verdict %q", file, r.Path, r.Verdict)
			}
			results = append(results, r)
		}
		again := filepath.Join(t.TempDir(), file)
		if err := writeTable(again, results); err != nil {
			t.Fatal(err)
		}
		if rewritten, _ := os.ReadFile(again); string(rewritten) != string(data) {
			t.Errorf("%s is not as writeTable writes it (sorted, one row a program)", file)
		}
	}
}
