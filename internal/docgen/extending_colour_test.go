package docgen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// paletteFixed names the built-ins whose registry style fixes a marker and
// a dash, the ones DefaultPalette draws alike in every figure.
func paletteFixed() []string {
	var names []string
	for _, e := range engine.BuiltinPolicies() {
		if e.Style.Marker != "" {
			names = append(names, e.Name)
		}
	}
	slices.Sort(names)
	return names
}

// constInt reads an integer constant declared in a Go file.
func constInt(t *testing.T, file, name string) int {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if id.Name == name && i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						if v, err := strconv.Atoi(lit.Value); err == nil {
							return v
						}
					}
				}
			}
		}
	}
	t.Fatalf("%s: no integer constant %s", file, name)
	return 0
}

var (
	colourOnly  = regexp.MustCompile(`Only ((?:[\w-]+, )*[\w-]+ and [\w-]+) fix a marker and a dash`)
	colourGap   = regexp.MustCompile(`ΔE(?:00)? ≥ (\d+)`)
	colourItem  = regexp.MustCompile(`(?s)- \[ \] \*\*Colour\*\*:.*?\n- \[ \]`)
	colourWords = regexp.MustCompile(`, | and `)
)

// The Colour item of the contributors' guide says which built-ins fix a
// marker and a dash and how far apart colours must be. Both are read from
// the code: the names from the registry's styles, the threshold from
// categoricalGap, the constant the palette tests compare with. Some
// built-in must fix neither, since the page says the others name only a
// colour.
func TestExtendingPageColourClaims(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(extendingPage)))
	if err != nil {
		t.Fatal(err)
	}
	item := colourItem.FindString(string(data))
	if item == "" {
		t.Fatalf("%s: no \"- [ ] **Colour**:\" item followed by another", extendingPage)
	}
	item = strings.Join(strings.Fields(item), " ")

	m := colourOnly.FindStringSubmatch(item)
	if m == nil {
		t.Fatalf("%s: the Colour item does not say \"Only a, b and c fix a marker and a dash\":\n%s", extendingPage, item)
	}
	said := colourWords.Split(m[1], -1)
	slices.Sort(said)
	fixed := paletteFixed()
	if !slices.Equal(said, fixed) {
		t.Errorf("%s: the Colour item says %v fix a marker and a dash; the registry (engine.BuiltinPolicies) fixes them for %v", extendingPage, said, fixed)
	}
	builtins := engine.PolicyNames()
	hashed := 0
	for _, name := range builtins {
		if !slices.Contains(fixed, name) {
			hashed++
		}
	}
	for _, name := range fixed {
		if !slices.Contains(builtins, name) {
			t.Errorf("the registry fixes a style for %q, which is not a registered policy (engine.PolicyNames)", name)
		}
	}
	if hashed == 0 {
		t.Errorf("%s: the Colour item says the other built-ins name only a colour, but every one of %v fixes a marker and a dash", extendingPage, builtins)
	}

	gap := constInt(t, filepath.Join(root, "plot", "palette_test.go"), "categoricalGap")
	gaps := colourGap.FindAllStringSubmatch(item, -1)
	if len(gaps) == 0 {
		t.Errorf("%s: the Colour item states no ΔE00 threshold", extendingPage)
	}
	for _, g := range gaps {
		if n, _ := strconv.Atoi(g[1]); n != gap {
			t.Errorf("%s: the Colour item asks for ΔE00 ≥ %d; the palette tests (categoricalGap, plot/palette_test.go) check ≥ %d", extendingPage, n, gap)
		}
	}
}

// extendingTestName is a code span that is exactly a test, benchmark, fuzz
// target or example function's name.
var extendingTestName = regexp.MustCompile("`((?:Test|Benchmark|Fuzz|Example)\\w*)`")

// Every test the contributors' guide names (`TestPaletteColorsDistinct`,
// `FuzzRun`, …) is declared in a _test.go file of the repository (outside
// third_party): a renamed test leaves no checklist pointing at nothing.
func TestExtendingPageTestNamesExist(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(extendingPage)))
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "third_party" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil {
				declared[fn.Name.Name] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, m := range extendingTestName.FindAllStringSubmatchIndex(string(data), -1) {
		name := string(data[m[2]:m[3]])
		named++
		if !declared[name] {
			line := 1 + strings.Count(string(data[:m[0]]), "\n")
			t.Errorf("%s:%d: `%s` is declared in no _test.go file", extendingPage, line, name)
		}
	}
	if named < 20 {
		t.Errorf("%s: found %d test names in code spans, want at least 20 (is the pattern broken?)", extendingPage, named)
	}
}
