package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
