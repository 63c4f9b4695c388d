package interp_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestRoutelabDefineXOfUndefinedPackage: a two-result definition at the
// top level whose function's package is not imported is "undefined: pkg"
// (a session imports the package on that error and compiles again), and
// after the import the same input runs.
func TestRoutelabDefineXOfUndefinedPackage(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols()); err != nil {
		t.Fatal(err)
	}
	_, err := i.Eval(`a, b := strconv.Atoi("3")`)
	if err == nil || !strings.HasSuffix(err.Error(), "undefined: strconv") {
		t.Fatalf(`a, b := strconv.Atoi("3") without the import: %v, want "undefined: strconv"`, err)
	}
	if _, err := i.Eval(`import "strconv"`); err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval("a, b := strconv.Atoi(\"3\")\na + 1")
	if err != nil || v.Interface() != 4 {
		t.Fatalf("after the import: %v, %v; want 4", v, err)
	}
}
