package docgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// extendingPage is the contributors' guide: checklists that name files,
// functions and registries, which drift as soon as the code moves. This
// test keeps every reference on it true.
const extendingPage = "docs/extending.md"

// extendingPackages are the packages (directories at the repository root)
// whose pkg.Name identifiers the page's code spans are checked against.
var extendingPackages = []string{"engine", "lab", "plot", "dsl", "kernel", "display", "live"}

// extendingFileExts make a code span with a slash a file path even when its
// first element is not at the repository's root (so a misspelt directory
// is caught too).
var extendingFileExts = []string{".go", ".md", ".json", ".py", ".ipynb", ".cells", ".csv", ".txt",
	".mod", ".sum", ".js", ".svg", ".sh", ".html"}

var (
	// extendingFence is a fenced code block's opening or closing line.
	extendingFence = regexp.MustCompile("^ {0,3}(```|~~~)")
	// extendingSpan is an inline code span; it may continue on the next line.
	extendingSpan = regexp.MustCompile("`([^`]+)`")
	// extendingIdent is pkg.Name, for an exported Name, not preceded by
	// anything that would make pkg part of a longer name or a path.
	extendingIdent = regexp.MustCompile(`(?:^|[^\w./-])(` + strings.Join(extendingPackages, "|") + `)\.([A-Z]\w*)`)
	// extendingPlaceholder marks a path element that stands for others:
	// <kind>, *.cells, TestRoutelab….
	extendingPlaceholder = regexp.MustCompile(`[<>*?\[\]{}$…]`)
)

// extendingRef is one reference of the page: a repository path, or a
// top-level identifier of one of extendingPackages.
type extendingRef struct {
	line      int    // 1-based line where the code span starts
	span      string // the code span as written (line breaks as spaces)
	path      string // slash-separated, relative to the root; "" for an identifier
	pkg, name string
}

func (r extendingRef) String() string {
	if r.path != "" {
		return fmt.Sprintf("%d path %s", r.line, r.path)
	}
	return fmt.Sprintf("%d ident %s.%s", r.line, r.pkg, r.name)
}

// extendingRefs lists the references in doc's code spans, outside fenced
// code blocks. top holds the names at the repository's root.
//
// A span is a path when it has a slash and no space (a span with spaces is
// a command, whose paths may be relative to another directory) and either
// its first element is at the root or its last element has a file
// extension. Import paths (a first element like github.com), absolute
// paths and URLs are not repository paths. A leading ./ and a trailing /...
// (a package pattern) are dropped, and the path is cut before its first
// placeholder element, so plot/testdata/<kind>.golden.json checks
// plot/testdata. Every pkg.Name in a span is an identifier, whatever else
// the span holds; Type.Method and names of other packages are not checked.
func extendingRefs(doc string, top map[string]bool) []extendingRef {
	lines := strings.Split(doc, "\n")
	inFence := false
	for i, l := range lines {
		fence := extendingFence.MatchString(l)
		if fence || inFence {
			lines[i] = ""
		}
		if fence {
			inFence = !inFence
		}
	}
	text := strings.Join(lines, "\n")
	var refs []extendingRef
	for _, m := range extendingSpan.FindAllStringSubmatchIndex(text, -1) {
		line := 1 + strings.Count(text[:m[0]], "\n")
		span := strings.Join(strings.Fields(text[m[2]:m[3]]), " ")
		if p, ok := extendingPath(span, top); ok {
			refs = append(refs, extendingRef{line: line, span: span, path: p})
		}
		for _, id := range extendingIdent.FindAllStringSubmatch(span, -1) {
			refs = append(refs, extendingRef{line: line, span: span, pkg: id[1], name: id[2]})
		}
	}
	return refs
}

// extendingPath tells whether a code span is a repository path, and which
// part of it to check.
func extendingPath(span string, top map[string]bool) (string, bool) {
	if !strings.Contains(span, "/") || strings.ContainsAny(span, " \t") || strings.Contains(span, "://") ||
		strings.HasPrefix(span, "/") {
		return "", false
	}
	p := strings.TrimSuffix(strings.TrimPrefix(span, "./"), "/...")
	elems := strings.Split(strings.TrimSuffix(p, "/"), "/")
	first, last := elems[0], elems[len(elems)-1]
	if dot := strings.Index(first, "."); dot > 0 && !top[first] {
		return "", false // an import path: github.com/…, honnef.co/…
	}
	if !top[first] && !slices.Contains(extendingFileExts, path.Ext(last)) {
		return "", false // text/html, math/rand, routelab-out/
	}
	var kept []string
	for _, e := range elems {
		if e == "" || e == "." || e == ".." || extendingPlaceholder.MatchString(e) {
			break
		}
		kept = append(kept, e)
	}
	if len(kept) == 0 {
		return "", false
	}
	return strings.Join(kept, "/"), true
}

// extendingDecls lists the top-level names a package declares in its
// non-test files: funcs (not methods), types, vars and consts.
func extendingDecls(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, id := range s.Names {
							names[id.Name] = true
						}
					}
				}
			}
		}
	}
	return names, nil
}

// Every repository path and every pkg.Name of the contributors' guide
// exists: a renamed file, a moved test or a deleted function fails here
// with the line of the page that names it.
func TestExtendingPageReferencesExist(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(extendingPage)))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	for _, e := range entries {
		top[e.Name()] = true
	}
	refs := extendingRefs(string(data), top)
	decls := map[string]map[string]bool{}
	var paths, idents int
	for _, r := range refs {
		if r.path != "" {
			paths++
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(r.path))); err != nil {
				t.Errorf("%s:%d: `%s` names %s, which does not exist (want a file or directory at that path from the repository root)",
					extendingPage, r.line, r.span, r.path)
			}
			continue
		}
		idents++
		names, ok := decls[r.pkg]
		if !ok {
			if names, err = extendingDecls(filepath.Join(root, r.pkg)); err != nil {
				t.Fatalf("package %s: %v", r.pkg, err)
			}
			decls[r.pkg] = names
		}
		if !names[r.name] {
			t.Errorf("%s:%d: `%s` names %s.%s, which package %s does not declare at top level (want a func, type, var or const of that name in a non-test file of %s/)",
				extendingPage, r.line, r.span, r.pkg, r.name, r.pkg, r.pkg)
		}
	}
	// A page whose spans the extractor no longer sees would pass vacuously.
	if paths < 50 || idents < 30 {
		t.Errorf("%s: found %d paths and %d pkg.Name identifiers in code spans, want at least 50 and 30 (is a code fence left open, or the extractor broken?)",
			extendingPage, paths, idents)
	}
}

func TestExtendingReferenceExtractor(t *testing.T) {
	doc := "Edit `engine/policy.go` and `dsl/testdata/`, see `.ci/run`.\n" +
		"Run `go test ./engine -run X` over `./dsl/...`; not `./...`.\n" +
		"```sh\n" +
		"`engine/inside-a-fence.go`\n" +
		"```\n" +
		"See `plot/testdata/<kind>.golden.json`, `github.com/routelab/routelab/lab`, `text/html`, `nope/x.go`.\n" +
		"Call `lab.Policy(\"p\", func(r lab.Replica) float64 {\n" +
		"return 1 })`, `res.Chart()`, `Scenario.At`, `*engine.RunResult`, `mylab.X`, `lab.fail`.\n" +
		"And `kernel/kernel.go`, `/usr/bin/chromium`, `<name>/main.go`, `https://go.dev/x.go`.\n"
	top := map[string]bool{"engine": true, "dsl": true, "plot": true, "kernel": true, "lab": true, ".ci": true}
	var got []string
	for _, r := range extendingRefs(doc, top) {
		got = append(got, r.String())
	}
	want := []string{
		"1 path engine/policy.go", "1 path dsl/testdata", "1 path .ci/run",
		"2 path dsl",
		"6 path plot/testdata", "6 path nope/x.go",
		"7 ident lab.Policy", "7 ident lab.Replica", "8 ident engine.RunResult",
		"9 path kernel/kernel.go",
	}
	if !slices.Equal(got, want) {
		t.Errorf("extendingRefs found\n  %q\nwant\n  %q", got, want)
	}
}
