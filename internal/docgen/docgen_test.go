package docgen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/docmark"
)

// The committed docs say what the code gives: every generated part and
// file, and every part has an owner. Run go generate ./internal/docgen
// after changing a constant, a policy, a scenario or the imports.
func TestDocsMatchCode(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the study and an SVG figure (a few seconds)")
	}
	g := New(context.Background(), filepath.Join("..", ".."))
	drifts, err := g.Check()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range drifts {
		t.Errorf("%s\n(run go generate ./internal/docgen)", d)
	}
}

// Every part docgen can render is used by some document, so the registry
// holds nothing stale.
func TestEveryPartIsUsed(t *testing.T) {
	g := New(context.Background(), filepath.Join("..", ".."))
	docs, err := g.Documents()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, path := range docs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, owner := range Owners {
			names, err := docmark.Names(string(data), owner)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, n := range names {
				used[n] = true
			}
		}
	}
	for _, n := range PartNames() {
		if !used[n] {
			t.Errorf("part %s is generated but no document shows it", n)
		}
	}
}

// A changed constant is caught: the constants table rendered from a
// modified copy of the engine's values differs from the committed one.
// (The note of issue 13 shows the same with a scratch copy of the engine.)
func TestAChangedConstantDrifts(t *testing.T) {
	g := New(context.Background(), filepath.Join("..", ".."))
	table, err := g.Render("model.constants")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table, "| waiting-queue capacity per replica | 50 |") {
		t.Fatalf("the table does not show the queue cap of %d:\n%s", engine.DefaultQueueCap, table)
	}
	doc := "<!-- gen model.constants -->\n" + strings.Replace(table, "| 50 |", "| 64 |", 1) + "<!-- /gen -->\n"
	drifts, err := docmark.Check("model.md", doc, "model", g.Render)
	if err != nil || len(drifts) != 1 {
		t.Fatalf("a table with the wrong cap gave drifts %v, %v", drifts, err)
	}
}

func TestTableHasAHeaderAndOneRowPerEntry(t *testing.T) {
	got := table([]string{"a", "b"}, [][]string{{"1", "2"}, {"3", "4"}})
	want := "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n"
	if got != want {
		t.Errorf("table gave %q, want %q", got, want)
	}
}

func TestPoliciesAndScenariosComeFromTheRegistries(t *testing.T) {
	g := New(context.Background(), ".")
	pol, _ := g.Render("model.policies")
	for _, n := range engine.PolicyNames() {
		if !strings.Contains(pol, "| `"+n+"` | "+engine.PolicyAbout(n)+" |") {
			t.Errorf("the policy table has no row for %s:\n%s", n, pol)
		}
	}
	scn, _ := g.Render("model.scenarios")
	for _, n := range engine.ScenarioNames() {
		if !strings.Contains(scn, "| `"+n+"` | "+engine.ScenarioAbout(n)+" |") {
			t.Errorf("the scenario table has no row for %s:\n%s", n, scn)
		}
	}
	if !strings.Contains(scn, "5s: replica 1 ×5 slower; 10s: restore replica 1") {
		t.Errorf("the straggler's events are not shown as the engine prints them:\n%s", scn)
	}
}

// The import graph's picture: every package is a box, every arrow one the
// reduction keeps, and an import implied by a longer chain is left out.
func TestImportGraphDrawing(t *testing.T) {
	graph := importGraph{
		"engine": nil, "display": nil, "plot": {"engine"},
		"lab": {"engine", "plot", "display"}, "cmd": {"lab", "engine", "display"},
	}
	edges := graph.reduced()
	var got []string
	for _, e := range edges {
		got = append(got, e[0]+"→"+e[1])
	}
	want := "cmd→lab,lab→display,lab→plot,plot→engine"
	if strings.Join(got, ",") != want {
		t.Errorf("reduced edges %v, want %s", got, want)
	}
	depth := graph.layers()
	if depth["engine"] != 0 || depth["plot"] != 1 || depth["lab"] != 2 || depth["cmd"] != 3 || depth["display"] != 1 {
		t.Errorf("columns %v", depth)
	}
	svg := string(drawImportGraph(graph))
	if n := strings.Count(svg, "<rect x="); n != len(graph) {
		t.Errorf("%d boxes for %d packages", n, len(graph))
	}
	if n := strings.Count(svg, "marker-end="); n != len(edges) {
		t.Errorf("%d arrows for %d edges", n, len(edges))
	}
	for p := range graph {
		if !strings.Contains(svg, ">"+p+"</text>") {
			t.Errorf("no label for %s", p)
		}
	}
}

// The real graph keeps the layering the README states: the engine imports
// nothing of routelab but the shared leaves under internal/, which import
// nothing of it, and nothing imports the command.
func TestRealImportGraphIsLayered(t *testing.T) {
	graph, err := readImportGraph(context.Background(), filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if imps := graph["engine"]; len(imps) > 1 || len(imps) == 1 && imps[0] != "internal" {
		t.Errorf("engine imports %v", imps)
	}
	if imps := graph["internal"]; len(imps) != 0 {
		t.Errorf("the shared leaves under internal/ import %v (the documentation tool is not part of the binary, and a leaf imports nothing of routelab)", imps)
	}
	for p, imps := range graph {
		for _, q := range imps {
			if q == "cmd/routelab" {
				t.Errorf("%s imports the command", p)
			}
		}
	}
	if _, ok := graph["dsl"]; !ok {
		t.Errorf("the graph has no dsl: %v", graph)
	}
}
