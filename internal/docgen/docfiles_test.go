package docgen

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docFileName is a file name or a pattern of names in a doc.go: show*.go,
// github_com-routelab-routelab-{lab,engine}.go, typecheck.go.
var docFileName = regexp.MustCompile(`[A-Za-z0-9_{},*-]+\.go\b`)

// Every library package of more than one file has a doc.go, and it names
// each of the package's files, alone or in a group (show*.go, or
// name-{a,b}.go), so a reader knows where to look. Commands and the
// vendored interpreter aside.
func TestDocGoNamesEveryFile(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		switch d.Name() {
		case "third_party", "testdata", ".git", "node_modules":
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(dir, 0)
		if err != nil || pkg.Name == "main" || len(pkg.GoFiles) < 2 {
			return nil
		}
		rel, _ := filepath.Rel(root, dir)
		doc, err := os.ReadFile(filepath.Join(dir, "doc.go"))
		if err != nil {
			t.Errorf("%s: %d files and no doc.go", rel, len(pkg.GoFiles))
			return nil
		}
		var patterns []string
		for _, n := range docFileName.FindAllString(string(doc), -1) {
			patterns = append(patterns, expandBraces(n)...)
		}
		for _, f := range pkg.GoFiles {
			if f != "doc.go" && !namedBy(f, patterns) {
				t.Errorf("%s/doc.go does not name %s", rel, f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// expandBraces turns a-{b,c}.go into a-b.go and a-c.go.
func expandBraces(p string) []string {
	i, j := strings.Index(p, "{"), strings.Index(p, "}")
	if i < 0 || j < i {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[i+1:j], ",") {
		out = append(out, expandBraces(p[:i]+alt+p[j+1:])...)
	}
	return out
}

func namedBy(file string, patterns []string) bool {
	for _, p := range patterns {
		if ok, _ := filepath.Match(p, file); ok {
			return true
		}
	}
	return false
}

func TestExpandBraces(t *testing.T) {
	got := strings.Join(expandBraces("x-{a,b}-{c,d}.go"), " ")
	if want := "x-a-c.go x-a-d.go x-b-c.go x-b-d.go"; got != want {
		t.Errorf("expandBraces = %q, want %q", got, want)
	}
	if !namedBy("show_live.go", []string{"show*.go"}) || namedBy("shown.txt", []string{"show*.go"}) {
		t.Error("namedBy does not match globs as filepath.Match does")
	}
}
