package dsl

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// Variable is a top-level variable that cells declared, with its value.
type Variable struct {
	Name  string
	Value reflect.Value
}

// Variables returns the top-level variables cells have declared, in the
// order of their (latest) declarations, with their values now. A host reads
// back what a script defined this way — the console offers the policies a
// file declares — without the script calling the host. It waits for a
// running cell to end.
func (s *Session) Variables() []Variable {
	s.exec.Lock()
	defer s.exec.Unlock()
	globals := s.in.Globals()
	var out []Variable
	for _, sym := range s.syms.variables() {
		if v, ok := globals[sym.Name]; ok && v.IsValid() {
			out = append(out, Variable{Name: sym.Name, Value: v})
		}
	}
	return out
}

// variables are the declared variables, in declaration order (cell, line,
// column), without blanks and the hidden prelude helpers.
func (t *symtab) variables() []*symbol {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []*symbol
	for n, s := range t.syms {
		if s.Kind == symVar && n != "_" && !strings.HasPrefix(n, "_rl") {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b *symbol) int {
		return cmp.Or(cmp.Compare(a.Cell, b.Cell), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return out
}
