package dsl

import (
	"strings"
	"testing"
)

func TestSplitCell(t *testing.T) {
	src := "import \"fmt\"\n\n// doc\nfunc f() int { return 1 }\nx := f()\nvar y = x\nfunc() { fmt.Println(x) }()\ntype T int; const c = 2\nfunc (t T) M() {}\nfmt.Println(y)"
	chunks, pkg, err := splitCell(src)
	if err != nil || pkg != "" {
		t.Fatal(err, pkg)
	}
	var kinds []string
	for _, c := range chunks {
		kinds = append(kinds, c.Kind.String())
	}
	if got := strings.Join(kinds, " "); got != "import decl stmt decl stmt" {
		t.Errorf("kinds = %s", got)
	}
	if chunks[2].Line != 5 || chunks[2].Col != 1 || !strings.HasPrefix(chunks[2].Text, "x := f()") {
		t.Errorf("statement chunk at %d:%d: %q", chunks[2].Line, chunks[2].Col, chunks[2].Text)
	}
	if !strings.Contains(chunks[1].Text, "// doc") {
		t.Errorf("the doc comment is not in the declaration chunk: %q", chunks[1].Text)
	}
}

func TestSplitPackageClause(t *testing.T) {
	chunks, pkg, err := splitCell("package main\n\nfunc main() {}\n")
	if err != nil || pkg != "main" {
		t.Fatal(err, pkg)
	}
	if strings.Contains(joinChunks(chunks), "package") {
		t.Errorf("the package clause was kept: %q", joinChunks(chunks))
	}
}

func joinChunks(cs []chunk) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.Text)
	}
	return b.String()
}

// FuzzSplit checks that splitting never panics, that chunks partition the
// cell (same length; same text outside a blanked package clause) and that
// their positions are right; and that IsComplete never panics either.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"x := 1", "import \"fmt\"\nfmt.Println(1)", "func f() {}\nf()", "func (t T) M() {}",
		"package main\nfunc main() {}", "for i := range 3 {\n}", "s := `raw\nstring`", "}", "{{{",
		"type T struct{ A int }; var t T; t.A", "/* c */ x := 1 // tail", "import (\n\t\"a\"\n\t\"b\"\n)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		isComplete(src)
		chunks, pkg, err := splitCell(src)
		if err != nil {
			return
		}
		joined := joinChunks(chunks)
		if len(joined) != len(src) {
			t.Fatalf("chunks have %d bytes, the cell %d", len(joined), len(src))
		}
		if pkg == "" && joined != src {
			t.Fatalf("chunks %q do not partition %q", joined, src)
		}
		for _, c := range chunks {
			line, col := lineCol(src, c.Offset)
			if line != c.Line || col != c.Col || src[c.Offset:c.Offset+len(c.Text)] != c.Text && pkg == "" {
				t.Fatalf("chunk at offset %d: %d:%d, want %d:%d", c.Offset, c.Line, c.Col, line, col)
			}
		}
	})
}
