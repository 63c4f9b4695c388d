package dsl_test

import (
	"slices"
	"strings"
	"testing"
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
