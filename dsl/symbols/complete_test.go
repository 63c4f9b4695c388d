package symbols_test

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
)

// membersOf lists what Go lets a selector name on a value of type t, by
// reflect: exported fields (promoted ones included) and methods.
func membersOf(t reflect.Type) []string {
	var out []string
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() == reflect.Struct {
		for _, f := range reflect.VisibleFields(st) {
			if f.IsExported() {
				out = append(out, f.Name)
			}
		}
	}
	ms := t
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		ms = reflect.PointerTo(t)
	}
	for i := 0; i < ms.NumMethod(); i++ {
		out = append(out, ms.Method(i).Name)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// The cases of completion after a dot, with the real lab package.
func TestCompleteLabMembers(t *testing.T) {
	s := newSession(t)
	exec(t, s, `scn := lab.Straggler()
res := lab.Compare(lab.Steady().Seeds(1).Measure(1), lab.Adaptive())
func busy() *lab.Scenario { return scn.Rate(250) }`)
	scenario := membersOf(reflect.TypeFor[*lab.Scenario]())
	comparison := membersOf(reflect.TypeFor[*lab.Comparison]())
	replica := membersOf(reflect.TypeFor[lab.Replica]())
	for _, m := range [][]string{{"At", "Rate", "Seeds"}, {"Chart", "Policies", "Policy", "Summary"}, {"Outstanding", "ServiceEWMA"}} {
		all := append(append(slices.Clone(scenario), comparison...), replica...)
		for _, name := range m {
			if !slices.Contains(all, name) {
				t.Fatalf("the oracle lacks %s", name)
			}
		}
	}
	cases := []struct {
		name, code string
		want       []string
	}{
		{"built-in scenario", "lab.Straggler().", scenario},
		{"chain on a variable", "scn.Rate(175).", scenario},
		{"variable", "scn.", scenario},
		{"partial name", "scn.Ra", []string{"Rate"}},
		{"chart of a result", "res.Chart().", membersOf(reflect.TypeFor[*lab.Figure]())},
		{"comparison", "lab.Compare(scn, lab.Adaptive()).", comparison},
		{"local run", "r := lab.Run(scn, lab.Adaptive(), 1)\nr.", membersOf(reflect.TypeFor[*lab.RunResult]())},
		{"cell func", "busy().", scenario},
		{"policy parameter", "p := lab.Policy(\"x\", func(r lab.Replica) float64 {\n\treturn r.", replica},
		{"range over the view", "lab.Picker(\"p\", func(v *lab.View) int {\n\tfor _, r := range v.Eligible {\n\t\tr.", replica},
		{"index of a result", `res.Runs("adaptive")[0].`, membersOf(reflect.TypeFor[*engine.RunResult]())},
		{"summary", `res.Summary("adaptive").MedianP9`, []string{"MedianP90", "MedianP95", "MedianP99"}},
		{"engine type", "import \"github.com/routelab/routelab/engine\"\nvar v engine.View\nv.", membersOf(reflect.TypeFor[engine.View]())},
		{"hooks literal", "lab.Hooks{}.", membersOf(reflect.TypeFor[lab.Hooks]())},

		{"variable shadowed by a local", "scn := 3\nscn.", nil},
		{"package shadowed by a local", "lab := \"x\"\nlab.", nil},
		{"inside a string", `name := "scn.`, nil},
		{"inside a comment", "// scn.", nil},
		{"unknown function", "lab.Nope().", nil},
		{"no result", `res.Save("x.html").`, nil},
	}
	for _, c := range cases {
		if got := s.Complete(c.code, len(c.code)).Matches; !slices.Equal(got, c.want) {
			t.Errorf("%s: Complete(%q) = %q\nwant %q", c.name, c.code, got, c.want)
		}
	}
}

// Inspect on methods of variables and chains gives the documentation
// index's entry; on cell-declared funcs and methods their own doc comments.
func TestInspectLabMembers(t *testing.T) {
	s := newSession(t)
	exec(t, s, `scn := lab.Straggler()
res := lab.Compare(lab.Steady().Seeds(1).Measure(1), lab.Adaptive())

// tracker counts picks.
type tracker struct{ n int }

// bump counts one pick.
func (t *tracker) bump() int { t.n++; return t.n }

// pick sends every request to the first eligible replica.
func pick(v *lab.View) int { return v.Eligible[0].ID }

tr := &tracker{}`)
	labDocs, experimentDocs := symbols.LabDocs(), symbols.ExperimentDocs()
	cases := []struct {
		name, code, at, want string
	}{
		{"method of a variable", "scn.Rate(175)", "Rate", labDocs["Scenario.Rate"]},
		{"method of a chain", "lab.Straggler().Rate(175)", "Rate", labDocs["Scenario.Rate"]},
		{"promoted method", `res.Policy("adaptive")`, "Policy", experimentDocs["Comparison.Policy"]},
		{"method of a method's result", `res.Chart().Save("x.svg")`, "Save", labDocs["Figure.Save"]},
		{"method of a cell type", "tr.bump()", "bump", "// bump counts one pick.\nfunc (t *tracker) bump() int { t.n++; return t.n }\n\n(declared in cell 1)"},
		{"cell func", "pick(nil)", "pick", "// pick sends every request to the first eligible replica.\nfunc pick(v *lab.View) int { return v.Eligible[0].ID }\n\n(declared in cell 1)"},
		{"shadowed", "scn := 3\nscn.Rate", "Rate", ""},
		{"in a comment", "// scn.Rate", "Rate", ""},
	}
	for _, c := range cases {
		if c.want == "" && c.name != "shadowed" && c.name != "in a comment" {
			t.Fatalf("%s: no documentation to compare with", c.name)
		}
		cursor := strings.LastIndex(c.code, c.at) + 1
		b, ok := s.Inspect(c.code, cursor)
		if got := b.Text(); got != c.want || ok != (c.want != "") {
			t.Errorf("%s: Inspect(%q, %d) = %q, %v\nwant %q", c.name, c.code, cursor, got, ok, c.want)
		}
	}
}
