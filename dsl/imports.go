package dsl

import (
	"fmt"
	"go/ast"
	"go/token"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/routelab/routelab/internal/spell"
	"github.com/traefik/yaegi/stdlib"
)

// Standard packages import themselves: a chunk that uses fmt.Println, or
// strings.ToUpper, without importing the package gets the import, as
// goimports would add it. The compiler says which name is undefined; when
// the chunk uses that name as a package (name.Something) and a standard
// package has that name, it is imported and the chunk compiled again.

// stdImport is a standard package chosen for an undefined name.
type stdImport struct {
	name, path string
	note       string // for an ambiguous name: which package was taken
}

// stdPackages maps a package name to the standard packages of that name
// cells can use, shortest path first.
func stdPackages() map[string][]string {
	byName := map[string][]string{}
	for key := range stdlib.Symbols() {
		p, name := path.Dir(key), path.Base(key)
		if strings.Contains(p, "internal") || name == "" {
			continue
		}
		byName[name] = append(byName[name], p)
	}
	for name, paths := range byName {
		sort.Slice(paths, func(i, j int) bool {
			if len(paths[i]) != len(paths[j]) {
				return len(paths[i]) < len(paths[j])
			}
			return paths[i] < paths[j]
		})
		byName[name] = paths
	}
	for p := range genericSources {
		byName[p] = []string{p}
	}
	return byName
}

// resolveImport picks the standard package for name, given the names the
// chunk selects from it: the first (shortest path) that has all of them. A
// choice among several packages of that name comes with a note.
func (s *Session) resolveImport(name string, sels map[string]bool) (stdImport, bool) {
	cands := s.std[name]
	if len(cands) == 0 {
		return stdImport{}, false
	}
	// Without one that has them all (a typo in a selected name), the
	// shortest path: its import makes the compiler name the typo.
	chosen := cands[0]
	for _, p := range cands {
		if s.hasAll(p, sels) {
			chosen = p
			break
		}
	}
	imp := stdImport{name: name, path: chosen}
	if len(cands) > 1 {
		var others []string
		for _, p := range cands {
			if p != chosen {
				others = append(others, strconv.Quote(p))
			}
		}
		imp.note = fmt.Sprintf("note: %s is %q here (imported for you); import %s yourself to use another", name, chosen, strings.Join(others, " or "))
	}
	return imp, true
}

// hasAll reports whether package p has every name of sels.
func (s *Session) hasAll(p string, sels map[string]bool) bool {
	syms, compiled := s.exports[p]
	for sel := range sels {
		if compiled {
			if _, ok := syms[sel]; !ok {
				return false
			}
		} else if _, ok := s.sourceDoc(p, sel); !ok {
			return false
		}
	}
	return true
}

// autoImport imports a standard package for the running chunk and the rest
// of the session.
func (s *Session) autoImport(imp stdImport, rw *rewriter) error {
	if err := s.evalSource(fmt.Sprintf("import %s %q", imp.name, imp.path)); err != nil {
		return err
	}
	s.syms.addImport(imp.name, imp.path)
	rw.imports[imp.name] = imp.path
	return nil
}

// selectorBases maps each identifier used as x in x.Sel within n to the
// names selected from it.
func selectorBases(n ast.Node) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if out[id.Name] == nil {
					out[id.Name] = map[string]bool{}
				}
				out[id.Name][sel.Sel.Name] = true
			}
		}
		return true
	})
	return out
}

var undefinedMsg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`undefined: ([\p{L}_][\p{L}\p{N}_]*)$`) })

// undefinedName is the name of an "undefined: name" compile error.
func undefinedName(err error) string {
	if m := undefinedMsg().FindStringSubmatch(err.Error()); m != nil {
		return m[1]
	}
	return ""
}

// hint completes a message about an undefined name: the import to add for
// a package of the session's libraries, or the declared name it is closest
// to.
func (s *Session) hint(msg string) string { return s.hintFor(msg, false) }

// hintFor is hint for a name used as a package (name.X) or not: only a
// name used as a package is offered the standard package nearest to it.
func (s *Session) hintFor(msg string, asPackage bool) string {
	m := undefinedMsg().FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	name := m[1]
	if cell, ok := s.failedDecls[name]; ok && cell < s.cells {
		return fmt.Sprintf("%s: %s, which declared it, failed", msg, s.cellName(cell))
	}
	if p, ok := s.packageNames()[name]; ok {
		return fmt.Sprintf("%s (import %q)", msg, p)
	}
	if q := s.qualified(name); q != "" {
		return fmt.Sprintf("%s (did you mean %s?)", msg, q)
	}
	if near := closest(name, s.visibleNames(asPackage)); near != "" {
		return fmt.Sprintf("%s (did you mean %s?)", msg, near)
	}
	return msg
}

// hintPackages are where an unqualified exported name most likely comes
// from, in order.
var hintPackages = []string{"fmt", "math", "strings", "strconv", "sort", "time", "errors", "os"}

// qualified names an exported name of a common standard package or of a
// pre-imported library, as pkg.Name, or "".
func (s *Session) qualified(name string) string {
	if !ast.IsExported(name) {
		return ""
	}
	for _, p := range append(append([]string(nil), hintPackages...), s.preImported...) {
		if _, ok := s.exports[p][name]; ok {
			return s.packageName(p) + "." + name
		}
	}
	return ""
}

// visibleNames are the names a cell can use: the session's declarations
// and its imports, with packages the standard package names.
func (s *Session) visibleNames(packages bool) []string {
	names := s.syms.names()
	if packages {
		for name := range s.std {
			names = append(names, name)
		}
	}
	return names
}

// closest returns the name of names nearest to name by edit distance (at
// most 1 for short names, 2 otherwise), or "".
func closest(name string, names []string) string {
	limit := 1
	if len([]rune(name)) < 3 {
		return "" // every short name is near another
	}
	if len(name) > 4 {
		limit = 2
	}
	best, bestD := "", limit+1
	sort.Strings(names)
	for _, n := range names {
		if n == name || strings.HasPrefix(n, "_rl") || !token.IsIdentifier(n) {
			continue
		}
		// On a tie, a name the typed one lacks letters of (Printn: Println,
		// not Print or Printf): letters are dropped more often than mistyped.
		if d := spell.Distance(name, n); d < bestD || (d == bestD && !subsequence(name, best) && subsequence(name, n)) {
			best, bestD = n, d
		}
	}
	return best
}

// subsequence reports whether a's runes appear in b in order.
func subsequence(a, b string) bool {
	ra := []rune(a)
	for _, r := range b {
		if len(ra) > 0 && ra[0] == r {
			ra = ra[1:]
		}
	}
	return len(ra) == 0
}

// packageNames maps the name of every package of the session's libraries
// to its import path.
func (s *Session) packageNames() map[string]string {
	out := map[string]string{}
	for p, name := range s.names {
		if _, std := stdlib.Symbols()[p+"/"+name]; !std && p != runtimePath && name != "" {
			out[name] = p
		}
	}
	return out
}

// stdIndex is stdPackages, computed once: it is derived from the standard
// library's symbol tables, which do not change.
var stdIndex = sync.OnceValue(stdPackages)
