package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden and docs/cli.md from the current output")

// The specification's model, frozen: every output below must keep its bytes
// through any change that does not mean to change the model. -update
// rewrites the files; golden_invariants_test.go checks what they say.

// specScenarios and specHeterogeneities are the specification's conditions,
// named here rather than read from the registry, so a new built-in scenario
// cannot change what is frozen.
var (
	specScenarios       = []string{"steady", "burst", "straggler", "failure"}
	specHeterogeneities = []string{"default", "high"}
)

// goldenCase is one command line and the file holding its standard output.
type goldenCase struct {
	file string
	args []string
}

func compareCases() []goldenCase {
	var out []goldenCase
	for _, scn := range specScenarios {
		for _, h := range specHeterogeneities {
			base := "compare-" + scn + "-" + h
			args := []string{"compare", "--scenario", scn, "--heterogeneity", h}
			out = append(out,
				goldenCase{base + ".json", append(args[:len(args):len(args)], "--json")},
				goldenCase{base + ".txt", args})
		}
	}
	return out
}

// tableCases are the CSV outputs and a small sweep (the writers of every
// record kind), and a comparison on one worker.
func tableCases() []goldenCase {
	sweep := []string{"sweep", "--scenario", "burst", "--rates", "100,250", "--seeds", "3"}
	return []goldenCase{
		{"compare-straggler-default.csv", []string{"compare", "--scenario", "straggler", "--csv"}},
		{"compare-straggler-default.summary.csv", []string{"compare", "--scenario", "straggler", "--csv-summary"}},
		{"sweep-burst.json", append(sweep[:len(sweep):len(sweep)], "--json")},
		{"sweep-burst.csv", append(sweep[:len(sweep):len(sweep)], "--csv")},
		{"sweep-burst.txt", sweep},
		// One worker gives the bytes of every core.
		{"compare-failure-high.json", []string{"compare", "--scenario", "failure", "--heterogeneity", "high", "--json", "--workers", "1"}},
	}
}

func studyCases() []goldenCase {
	file := filepath.Join("..", "..", "examples", "study.json")
	return []goldenCase{
		{"study.json", []string{"study", file, "--json"}},
		{"study.txt", []string{"study", file}},
	}
}

// servingCases freeze the serving model the same way, beside the
// specification's: a comparison of the built-in routers on two of its
// scenarios.
func servingCases() []goldenCase {
	return []goldenCase{
		{"compare-chat.json", []string{"compare", "--scenario", "chat", "--json"}},
		{"compare-kv-pressure.json", []string{"compare", "--scenario", "kv-pressure", "--json"}},
	}
}

func TestGoldenCompare(t *testing.T) { checkGoldens(t, compareCases()) }

func TestGoldenServing(t *testing.T) { checkGoldens(t, servingCases()) }

func TestGoldenTables(t *testing.T) { checkGoldens(t, tableCases()) }

func TestGoldenStudy(t *testing.T) { checkGoldens(t, studyCases()) }

func checkGoldens(t *testing.T, cases []goldenCase) {
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			out, stderr, code := runCLI(t, c.args...)
			if code != 0 {
				t.Fatalf("routelab %s: exit %d: %s", strings.Join(c.args, " "), code, stderr)
			}
			path := goldenPath(c.file)
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := readGolden(t, c.file)
			if out != want {
				t.Fatalf("routelab %s differs from %s at %s (run with -update if the change is intended)",
					strings.Join(c.args, " "), path, firstDifference(out, want))
			}
		})
	}
}

func goldenPath(file string) string { return filepath.Join("testdata", "golden", file) }

func readGolden(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(goldenPath(file))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// firstDifference describes the first line where got and want differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("the end: got %d lines, want %d", len(g), len(w))
}
