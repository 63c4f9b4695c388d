package dsl_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/dsl"
)

func TestComplete(t *testing.T) {
	s := newSession(t)
	run(t, s, "import \"strings\"\n\ntype Point struct{ X, Y int }\n\nfunc (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }\n\n// distance is a session function.\nfunc distance(a, b int) int { return a - b }\n\npt := Point{1, 2}\ncounter := 3")
	cases := []struct {
		code      string
		want      []string // must be among the matches
		wantStart int
	}{
		{"dis", []string{"distance", "display", "displayWithID"}, 0},
		{"x := coun", []string{"counter"}, 5},
		{"strings.Has", []string{"HasPrefix", "HasSuffix"}, 8},
		{"testlib.Sq", []string{"Square"}, 8},
		{"pt.", []string{"X", "Y", "Norm"}, 3},
		{"fo", []string{"for"}, 0},
		{"import \"encoding/js", []string{"encoding/json"}, 8},
		{"import (\n\t\"net/ht", []string{"net/http"}, 11},
		{"slices.So", []string{"Sort", "SortFunc"}, 7},
		{"import \"math\"\nmath.Sq", []string{"Sqrt"}, 19},
		// Packages the session replaces some symbols of keep the others.
		{"time.Dur", []string{"Duration"}, 5},
		{"os.Getw", []string{"Getwd"}, 3},
	}
	for _, c := range cases {
		got := s.Complete(c.code, len(c.code))
		for _, w := range c.want {
			if !slices.Contains(got.Matches, w) {
				t.Errorf("Complete(%q): %v lacks %q", c.code, got.Matches, w)
			}
		}
		if got.Start != c.wantStart || got.End != len(c.code) {
			t.Errorf("Complete(%q): range [%d,%d), want [%d,%d)", c.code, got.Start, got.End, c.wantStart, len(c.code))
		}
		for _, m := range got.Matches {
			if strings.HasPrefix(m, "_rl") {
				t.Errorf("Complete(%q) offers the hidden %q", c.code, m)
			}
		}
	}
}

func TestInspect(t *testing.T) {
	s := newSession(t)
	run(t, s, "// distance is a session function.\nfunc distance(a, b int) int { return a - b }\n\nlimit := 12")
	cases := map[string]string{
		"testlib.Square(2)":  "func Square(x int) int\n\nSquare returns x*x.",
		"distance(1, 2)":     "// distance is a session function.\nfunc distance(a, b int) int { return a - b }\n\n(declared in cell 1)",
		"limit":              "limit := 12\n\nint = 12\n\n(declared in cell 1)",
		"strings.ToUpper":    "func strings.ToUpper(string) string",
		"slices.Sort(x)":     "func Sort[E _rl_ordered](x []E)\n\nSort sorts x in increasing order.",
		"display(1)":         "// display shows v",
		"import \"strings\"": "",
	}
	for code, want := range cases {
		cursor := strings.IndexAny(code, "(") // on the name
		if cursor < 0 {
			cursor = len(code)
		}
		if code == "strings.ToUpper" {
			code = "import \"strings\"\n" + code
			cursor = len(code)
		}
		b, ok := s.Inspect(code, cursor)
		switch {
		case want == "" && ok:
			t.Errorf("Inspect(%q) = %q, want nothing", code, b.Text())
		case want != "" && (!ok || !strings.HasPrefix(b.Text(), want)):
			t.Errorf("Inspect(%q) = %q, %v; want prefix %q", code, b.Text(), ok, want)
		}
	}
}

func TestIsComplete(t *testing.T) {
	s := newSession(t)
	cases := []struct{ code, status, indent string }{
		{"x := 1", "complete", ""},
		{"", "complete", ""},
		{"func f() {", "incomplete", "\t"},
		{"for i := range 3 {\n\tif i > 1 {", "incomplete", "\t\t"},
		{"x := (1 +", "incomplete", "\t"},
		{"x := 1 +", "incomplete", "\t"},
		{"s := `raw", "incomplete", ""},
		{"/* open comment", "incomplete", ""},
		{"x := )", "invalid", ""},
		{"s := \"unterminated", "invalid", ""},
		{"x := := 2", "invalid", ""},
		{"fmt.Println(\"a\",", "incomplete", "\t"},
	}
	for _, c := range cases {
		status, indent := s.IsComplete(c.code)
		if status != c.status || indent != c.indent {
			t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", c.code, status, indent, c.status, c.indent)
		}
	}
}

// typedSession is a session whose earlier cell declared types, funcs and
// variables of cell and compiled types, for the tests of typed completion.
func typedSession(t testing.TB) *dsl.Session {
	s := newSession(t)
	code := `import "strings"

type Point struct{ X, Y int }

// Norm is the squared length.
func (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }

func (p *Point) Scale(k int) { p.X *= k; p.Y *= k }

// mkReport makes a report of n rows.
func mkReport(n int) *testlib.Report { return testlib.NewReport("r", n) }

func origin() Point { return Point{} }

rep := testlib.NewReport("t", 2)
pt := Point{1, 2}
pts := []Point{pt}
byName := map[string]*testlib.Report{"a": rep}
var sb strings.Builder
counter := 3`
	if _, err := s.Execute(context.Background(), code, &recorder{}); err != nil {
		t.Fatal(err)
	}
	return s
}

// After a dot, completion offers exactly the members of the operand's type
// (never keywords or builtins), and nothing when the type is unknown or
// the dot is inside a string or comment.
func TestCompleteMembers(t *testing.T) {
	s := typedSession(t)
	report := []string{"HTML", "Rows", "String", "Title"}
	point := []string{"Norm", "Scale", "X", "Y"}
	cases := []struct {
		name, code string
		want       []string
	}{
		{"library call", `testlib.NewReport("a", 1).`, report},
		{"session variable", "rep.", report},
		{"partial name", "rep.Ti", []string{"Title"}},
		{"session func result", "mkReport(3).", report},
		{"local variable", "r := testlib.NewReport(\"x\", 1)\nr.", report},
		{"local after a statement on one line", "r := mkReport(1); r.", report},
		{"cell type value", "pt.", point},
		{"cell func result", "origin().", point},
		{"index of a slice of a cell type", "pts[0].", point},
		{"index of a map", `byName["a"].`, report},
		{"composite literal", "Point{}.", point},
		{"address of a literal", "(&Point{}).", point},
		{"new", "new(Point).", point},
		{"compiled composite literal", "testlib.Report{}.", report},
		{"pointer local", "x := &Point{1, 2}\nx.", point},
		{"parameter", "func f(r *testlib.Report) string {\n\treturn r.", report},
		{"local in a func literal", "testlib.Call(func() int {\n\tq := testlib.NewReport(\"q\", 1)\n\treturn len(q.", report},
		{"range value", "for _, p := range pts {\n\tp.", point},
		{"range over a map", "for k, v := range byName {\n\t_ = k\n\tv.", report},
		{"comma-ok", "v, ok := byName[\"a\"]\n_ = ok\nv.", report},
		{"second result", "a, b := testlib.Pair()\nb.", nil},
		{"interface literal", "var n interface{ Norm() int } = pt\nn.", []string{"Norm"}},
		{"compiled variable", "sb.Wr", []string{"Write", "WriteByte", "WriteRune", "WriteString"}},
		{"standard chain", `strings.NewReplacer("a", "b").Re`, []string{"Replace"}},
		{"conversion", "time.Duration(3).Sec", []string{"Seconds"}},
		{"typed constant arithmetic", "d := 2 * time.Second\nd.Mi", []string{"Microseconds", "Milliseconds", "Minutes"}},
		{"error", "err := fmt.Errorf(\"x\")\nerr.", []string{"Error"}},
		{"type declared in the cell", "type Box struct{ W int }\nfunc (b Box) Area() int { return b.W }\nbx := Box{}\nbx.", []string{"Area", "W"}},
		{"embedding", "type Wrapped struct {\n\t*testlib.Report\n\tN int\n}\nw := Wrapped{}\nw.", []string{"HTML", "N", "Report", "Rows", "String", "Title"}},
		{"defined from a compiled type", "type Rep testlib.Report\nvar rr Rep\nrr.", []string{"Rows", "Title"}},
		{"alias of a compiled type", "type RA = testlib.Report\nvar ra RA\nra.", report},
		{"method of a cell type in a chain", "type C struct{}\nfunc (C) Rep() *testlib.Report { return nil }\nC{}.Rep().", report},

		{"string result", "rep.String().", nil},
		{"int variable", "counter.", nil},
		{"unknown name", "nosuch.", nil},
		{"unknown call", "nosuch().", nil},
		{"unknown member", "pt.Nope.", nil},
		{"after a number", "x := 1.", nil},
		{"inside a string", `s := "rep.`, nil},
		{"inside a raw string", "s := `\nrep.", nil},
		{"inside a line comment", "// see rep.", nil},
		{"dot at the end of a line comment", "x := 1 // rep.", nil},
		{"inside a block comment", "/* rep.", nil},
		{"after a string", `"rep".`, nil},
		{"name in a string after a stray bracket", "x := )\ns := \"fo", nil},
		{"name in a comment", "// fo", nil},
		{"session variable shadowed by a local", "rep := 5\nrep.", nil},
		{"package shadowed by a local", "testlib := 3\ntestlib.", nil},
		{"package shadowed by a parameter", "func g(strings int) {\n\tstrings.", nil},
		{"variable shadowed in a block", "for _, rep := range []int{1} {\n\trep.", nil},
	}
	for _, c := range cases {
		got := s.Complete(c.code, len(c.code))
		if !slices.Equal(got.Matches, c.want) {
			t.Errorf("%s: Complete(%q) = %q, want %q", c.name, c.code, got.Matches, c.want)
		}
		start := strings.LastIndexAny(c.code, ". /\n\"`") + 1
		if got.Start != start || got.End != len(c.code) {
			t.Errorf("%s: Complete(%q) replaces [%d,%d), want [%d,%d)", c.name, c.code, got.Start, got.End, start, len(c.code))
		}
	}
}

// What follows the cursor does not count, and a shadowing local ends with
// its block: after it, the session variable is seen again.
func TestCompleteCursorContext(t *testing.T) {
	s := typedSession(t)
	report := []string{"HTML", "Rows", "String", "Title"}
	cases := []struct {
		code   string
		cursor int
		want   []string
	}{
		{"x := rep.\nrep := 5", len("x := rep."), report},
		{"x := rep.Ti + 1", len("x := rep.Ti"), []string{"Title"}},
		{"for _, rep := range []int{1} {\n\t_ = rep\n}\nrep.", -1, report},
		{"s := \"rep.\"\nrep.", -1, report},
	}
	for _, c := range cases {
		if c.cursor < 0 {
			c.cursor = len(c.code)
		}
		if got := s.Complete(c.code, c.cursor).Matches; !slices.Equal(got, c.want) {
			t.Errorf("Complete(%q, %d) = %q, want %q", c.code, c.cursor, got, c.want)
		}
	}
}

// Inspect on a member of a variable or chain shows its signature and doc:
// from the documentation index for compiled types, from reflect when there
// is none, from the declaration for cell types.
func TestInspectMembers(t *testing.T) {
	s := typedSession(t)
	cases := []struct {
		name, code, at, want string
	}{
		{"method of a variable", "rep.HTML()", "HTML", "func (r *Report) HTML() string\n\nHTML renders the report."},
		{"method of a chain", `testlib.NewReport("a", 1).String()`, "String", "func (r *Report) String() string\n\nString is the report's text form."},
		{"method of a session func's result", "mkReport(2).HTML", "HTML", "func (r *Report) HTML() string\n\nHTML renders the report."},
		{"field", "rep.Title", "Title", "Title string\n\nfield of testlib.Report"},
		{"method without an index", "sb.Len()", "Len", "func (*strings.Builder) Len() int"},
		{"method of a session type", "pt.Norm()", "Norm", "// Norm is the squared length.\nfunc (p Point) Norm() int { return p.X*p.X + p.Y*p.Y }\n\n(declared in cell 1)"},
		{"method of a type declared in the cell", "type Box struct{ W int }\n\n// Area is the area.\nfunc (b Box) Area() int { return b.W }\nBox{}.Area()", "Area()", "func (b Box) Area() int\n\nArea is the area."},
		{"field of a cell type", "pt.X", "X", "X, Y int"},
		{"package member", "testlib.Square(2)", "Square", "func Square(x int) int\n\nSquare returns x*x."},

		{"in a string", `s := "rep.HTML`, "HTML", ""},
		{"shadowed", "rep := 5\nrep.HTML", "HTML", ""},
		{"unknown member", "rep.Nope", "Nope", ""},
		{"unknown operand", "nosuch.HTML", "HTML", ""},
	}
	for _, c := range cases {
		cursor := strings.LastIndex(c.code, c.at) + 1
		b, ok := s.Inspect(c.code, cursor)
		if got := b.Text(); got != c.want || ok != (c.want != "") {
			t.Errorf("%s: Inspect(%q, %d) = %q, %v; want %q", c.name, c.code, cursor, got, ok, c.want)
		}
	}
}

// FuzzComplete checks that completion and inspection never panic, whatever
// the cell and the cursor, and that a completion replaces a range of the
// cell that ends at the cursor with matches that start with that range.
func FuzzComplete(f *testing.F) {
	for _, code := range []string{
		"rep.", "testlib.NewReport(\"a\", 1).Ti", "pts[0].", "for _, p := range pts {\n\tp.",
		"func f(r *testlib.Report) string {\n\treturn r.", "x := 1 // rep.", "s := `\nrep.",
		"type A B\ntype B A\nvar a A\na.", "x := x.y.z.", "(&Point{}).", "import \"strings\"\nstrings.",
		"v, ok := byName[\"a\"]\nv.", "a, b := testlib.Pair()\nb.", "new(Point).", "}{)(.",
	} {
		f.Add(code, len(code))
	}
	s := typedSession(f)
	f.Fuzz(func(t *testing.T, code string, cursor int) {
		c := s.Complete(code, cursor)
		end := max(0, min(cursor, len(code)))
		if c.End != end || c.Start < 0 || c.Start > c.End {
			t.Fatalf("Complete(%q, %d) replaces [%d,%d)", code, cursor, c.Start, c.End)
		}
		for _, m := range c.Matches {
			if !strings.HasPrefix(m, code[c.Start:c.End]) {
				t.Fatalf("Complete(%q, %d) offers %q for %q", code, cursor, m, code[c.Start:c.End])
			}
		}
		s.Inspect(code, cursor)
	})
}

// Types that embed each other many times are answered in bounded time (it
// took minutes when every embedding was followed).
func TestCompleteEmbeddingBounded(t *testing.T) {
	s := typedSession(t)
	code := "type A struct{ A; A; A; A; A; A }\nvar a A\na.x"
	start := time.Now()
	s.Complete(code, len(code))
	s.Inspect(code, len(code))
	if d := time.Since(start); d > time.Second {
		t.Errorf("Complete and Inspect of %q took %v", code, d)
	}
}

// BenchmarkCompleteCellTypes completes after a chain through types declared
// in cells, which are parsed again from the session's table at each call.
func BenchmarkCompleteCellTypes(b *testing.B) {
	s := typedSession(b)
	code := "for _, p := range pts {\n\tif p.Norm() > counter {\n\t\tq := &p\n\t\tq."
	if len(s.Complete(code, len(code)).Matches) == 0 {
		b.Fatalf("no completions for %q", code)
	}
	for b.Loop() {
		s.Complete(code, len(code))
	}
}
