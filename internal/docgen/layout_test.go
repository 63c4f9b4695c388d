package docgen

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	// layoutSection is the README's Layout section, up to the next heading.
	layoutSection = regexp.MustCompile(`(?ms)^## Layout\n(.*?)^## `)
	// layoutDir is a directory a row's first cell names: `name/`.
	layoutDir = regexp.MustCompile("`([^`/ ]+)/[^`]*`")
)

// The README's Layout table has a row for every directory at the
// repository's root (.git and what .gitignore names aside, such as the
// routelab-out/ a command run at the root leaves), and names none that is
// not there.
func TestREADMELayoutListsEveryTopLevelDirectory(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := layoutSection.FindSubmatch(data)
	if m == nil {
		t.Fatal("README.md has no \"## Layout\" section followed by another")
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(m[1]), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(line, "|") {
			continue
		}
		for _, d := range layoutDir.FindAllStringSubmatch(cells[1], -1) {
			listed[d[1]] = true
		}
	}
	ignored := map[string]bool{".git": true}
	gitignore, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(gitignore), "\n") {
		ignored[strings.Trim(strings.TrimSpace(l), "/")] = true
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && !ignored[e.Name()] {
			dirs = append(dirs, e.Name())
			if !listed[e.Name()] {
				t.Errorf("README.md's Layout table has no row for %s/", e.Name())
			}
		}
	}
	for d := range listed {
		if !slices.Contains(dirs, d) {
			t.Errorf("README.md's Layout table lists %s/, which is not a directory at the root", d)
		}
	}
}
