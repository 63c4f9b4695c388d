package dsl_test

import "testing"

// A cell may give a predeclared type's name to a constant (Go's test
// rename.go): the types the cell's rewrites write out for its variables and
// constants must not then name the constant (x := (int)(e) called 15).
func TestShadowedPredeclaredTypeNames(t *testing.T) {
	s := newSession(t)
	run(t, s, "const (\n\tint = 15\n\tx   = 2\n)")
	if got := run(t, s, "n := int + x\nn"); got != "17" {
		t.Errorf("n = %s, want 17", got)
	}
	if got := run(t, s, "var f = 1.5\nf"); got != "1.5" {
		t.Errorf("f = %s, want 1.5", got)
	}
}
