package dsl_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/routelab/routelab/dsl/internal/testlib"
)

// Variables gives back what a script declared at its top level, in the
// order written, with values of compiled types as those types: a host can
// read a script's results without the script calling it.
func TestVariablesReadBackAScript(t *testing.T) {
	s := newSession(t)
	src := "zeta := testlib.NewReport(\"z\", 3)\nvar alpha = 2\nfunc helper() int { return 1 }\ntype T struct{ A int }\nvar (\n\tmid = T{A: 4}\n\tlast, _ = testlib.Pair()\n)\nfor i := 0; i < 2; i++ {\n\tinner := i\n\t_ = inner\n}\n"
	var out, errs bytes.Buffer
	if err := s.RunScript(context.Background(), src, &out, &errs); err != nil {
		t.Fatal(err)
	}
	run(t, s, "alpha = 5")
	vars := s.Variables()
	var names []string
	for _, v := range vars {
		names = append(names, v.Name)
	}
	if got := strings.Join(names, " "); got != "zeta alpha mid last" {
		t.Fatalf("variables %q, want zeta alpha mid last (declaration order, no locals)", got)
	}
	if r, ok := vars[0].Value.Interface().(*testlib.Report); !ok || r.Title != "z" || r.Rows != 3 {
		t.Errorf("zeta is %#v, want the compiled *testlib.Report", vars[0].Value.Interface())
	}
	if got := vars[1].Value.Interface(); got != 5 {
		t.Errorf("alpha is %v, want its value now, 5", got)
	}
	if got := vars[3].Value.Interface(); got != 7 {
		t.Errorf("last is %v, want 7", got)
	}
}
