package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/internal/jupytertest"
)

// jupyterCell is a cell for cells.py, and jupyterCellResult what came back.
type jupyterCell struct {
	Code       string   `json:"code"`
	AllowStdin bool     `json:"allow_stdin"`
	Input      []string `json:"input,omitempty"`
}

type jupyterCellResult struct {
	Code       string   `json:"code"`
	Status     string   `json:"status"`
	EName      string   `json:"ename"`
	EValue     string   `json:"evalue"`
	Stdout     string   `json:"stdout"`
	Stderr     string   `json:"stderr"`
	Results    []string `json:"results"`
	Errors     []string `json:"errors"`
	Prompts    []string `json:"prompts"`
	Unanswered int      `json:"unanswered"`
}

// runJupyterCells runs cells on the installed routelab kernel through
// jupyter_client (kernel/testdata/jupyter/cells.py).
func runJupyterCells(t *testing.T, cells []jupyterCell) []jupyterCellResult {
	t.Helper()
	py := jupytertest.PythonWith(t, "jupyter_client")
	j := installKernel(t)
	in, err := json.Marshal(cells)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join(jupyterDir, "cells.py"), "routelab")
	cmd.Env, cmd.Stdin = j.env, bytes.NewReader(in)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cells.py: %v\n%s\n%s", err, out, stderr.String())
	}
	var got []jupyterCellResult
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(cells) {
		t.Fatalf("cells.py printed %d results (%v) for %d cells:\n%s", len(got), err, len(cells), out)
	}
	return got
}

// The magics through a real Jupyter client: %time, %%time, %who, %whos,
// %env, and an unknown magic's UsageError, which leaves the session usable.
func TestMagicsThroughJupyterClient(t *testing.T) {
	cells := []jupyterCell{
		{Code: "rate := 175.0\nscn := lab.Straggler()"},
		{Code: "%time res := lab.Compare(scn.Seeds(2), lab.LeastQueue())"},
		{Code: "%%time\nlen(res.Policies)"},
		{Code: "%who"},
		{Code: "%whos"},
		{Code: "%env ROUTELAB_FROM_MAGIC=42"},
		{Code: "os.Getenv(\"ROUTELAB_FROM_MAGIC\")"},
		{Code: "%env ROUTELAB_FROM_MAGIC"},
		{Code: "%timeit rate"},
		{Code: "rate * 2"},
	}
	got := runJupyterCells(t, cells)
	report := regexp.MustCompile(`^CPU times: user [0-9.]+ (ns|µs|ms|s), sys: [0-9.]+ (ns|µs|ms|s), total: [0-9.]+ (ns|µs|ms|s)\nWall time: [0-9.]+ (ns|µs|ms|s)\n$`)
	for i, want := range []struct {
		status, stdout string
		results        []string
		stdoutRE       *regexp.Regexp
	}{
		{status: "ok"},
		{status: "ok", stdoutRE: report},
		{status: "ok", stdoutRE: report, results: []string{"1"}},
		{status: "ok", stdout: "rate\tscn\tres\n"},
		{status: "ok", stdoutRE: regexp.MustCompile(`(?s)^Variable +Type +Cell +Value\n-+\nrate +float64 +1 +175\nscn +\*lab.Scenario +1 .*\nres +\*lab.Comparison +2 .*\n$`)},
		{status: "ok", stdout: "env: ROUTELAB_FROM_MAGIC=42\n"},
		{status: "ok", results: []string{`"42"`}},
		{status: "ok", stdout: "42\n"},
		{status: "error"},
		{status: "ok", results: []string{"350"}},
	} {
		g := got[i]
		bad := g.Status != want.status || strings.Join(g.Results, "|") != strings.Join(want.results, "|")
		if want.stdoutRE != nil {
			bad = bad || !want.stdoutRE.MatchString(g.Stdout)
		} else {
			bad = bad || g.Stdout != want.stdout
		}
		if bad {
			t.Errorf("cell %q: status %s (%s %s), stdout %q, results %q; want %s, %q, %q", g.Code, g.Status, g.EName, g.EValue, g.Stdout, g.Results, want.status, want.stdout, want.results)
		}
	}
	if u := got[8]; u.EName != "UsageError" || !strings.Contains(u.EValue, "%timeit: no such magic; the magics are %time, %%time, %who, %whos, %env") {
		t.Errorf("an unknown magic: %s: %s", u.EName, u.EValue)
	}
}

// Standard input through a real Jupyter client: with allow_stdin a cell's
// fmt.Scanln and a bufio.Reader over os.Stdin get the lines the client
// types, after the prompt the cell printed; without it the read fails at
// once with the no-input error.
func TestInputThroughJupyterClient(t *testing.T) {
	got := runJupyterCells(t, []jupyterCell{
		{Code: "var name string\nfmt.Print(\"name? \")\nn, err := fmt.Scanln(&name)\nfmt.Println(\"hello\", name, n, err)", AllowStdin: true, Input: []string{"Ada"}},
		{Code: "r := bufio.NewReader(os.Stdin)\nline, err := r.ReadString('\\n')\nfmt.Printf(\"%q %v\\n\", line, err)\nvar a, b int\nfmt.Scan(&a, &b)\na + b", AllowStdin: true, Input: []string{"two words", "3 4"}},
		{Code: "var x int\n_, err := fmt.Scan(&x)\nfmt.Println(err)", AllowStdin: false},
		{Code: "name"},
	})
	want := []struct {
		stdout  string
		prompts int
		result  string
	}{
		{"name? hello Ada 1 <nil>\n", 1, ""},
		{"\"two words\\n\" <nil>\n", 2, "7"},
		{display.ErrNoInput.Error() + "\n", 0, ""},
		{"", 0, `"Ada"`},
	}
	for i, w := range want {
		g := got[i]
		if g.Status != "ok" || g.Stdout != w.stdout || len(g.Prompts) != w.prompts || g.Unanswered != 0 || strings.Join(g.Results, "") != w.result {
			t.Errorf("cell %q: status %s (%s %s), stdout %q, prompts %q (%d unanswered), results %q; want stdout %q, %d prompts, result %q",
				g.Code, g.Status, g.EName, g.EValue, g.Stdout, g.Prompts, g.Unanswered, g.Results, w.stdout, w.prompts, w.result)
		}
	}
}
