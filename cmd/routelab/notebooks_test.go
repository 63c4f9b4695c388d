package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/routelab/routelab/internal/jupytertest"

	"github.com/routelab/routelab/kernel"
)

// notebooksUnderTest are every notebook shipped in notebooks/ and the
// kernel's own smoke notebook (a comparison, a chart, output, values).
func notebooksUnderTest(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, pattern := range []string{filepath.Join("..", "..", "notebooks", "*.ipynb"), filepath.Join(jupyterDir, "*.ipynb")} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		t.Fatal("no notebooks found")
	}
	return paths
}

// Every notebook runs under Jupyter (nbclient with the installed routelab
// kernel, as `jupyter nbconvert --execute` runs it) and under `routelab run`;
// both succeed, both results are valid nbformat, and their outputs have the
// same shape.
func TestNotebooksRunAlikeUnderJupyterAndRoutelabRun(t *testing.T) {
	py := jupytertest.PythonWith(t, "nbclient", "nbformat", "jupyter_client")
	j := installKernel(t)
	for _, nb := range notebooksUnderTest(t) {
		t.Run(filepath.Base(nb), func(t *testing.T) {
			dir := t.TempDir()
			viaJupyter, viaRun := filepath.Join(dir, "nbclient.ipynb"), filepath.Join(dir, "run.ipynb")
			j.python(t, py, "nbexec.py", "execute", "routelab", nb, viaJupyter)
			if out, err := exec.Command(j.exe, "run", nb, "-o", viaRun, "-q").CombinedOutput(); err != nil {
				t.Fatalf("routelab run: %v\n%s", err, out)
			}
			j.python(t, py, "nbexec.py", "validate", viaRun, viaJupyter)
			a, b := readNotebook(t, viaJupyter), readNotebook(t, viaRun)
			if len(a.Cells) != len(b.Cells) {
				t.Fatalf("nbclient wrote %d cells, routelab run %d", len(a.Cells), len(b.Cells))
			}
			outputs := 0
			for i := range a.Cells {
				ca, cb := a.Cells[i], b.Cells[i]
				sa, sb := outputShape(ca), outputShape(cb)
				outputs += len(sa)
				if strings.Join(sa, "\n---\n") != strings.Join(sb, "\n---\n") || count(ca) != count(cb) {
					t.Errorf("cell %d (%.40q) differs:\nnbclient  In [%s]:\n%s\nroutelab run In [%s]:\n%s",
						i, ca.Source, count(ca), strings.Join(sa, "\n---\n"), count(cb), strings.Join(sb, "\n---\n"))
				}
			}
			if outputs == 0 {
				t.Error("the notebook produced no outputs at all")
			}
			// The widgets' saved state: nbclient records it from the
			// kernel's comm messages, routelab run from the session's.
			if wa, wb := canonicalJSON(t, a.Metadata["widgets"]), canonicalJSON(t, b.Metadata["widgets"]); wa != wb {
				t.Errorf("metadata.widgets differ:\nnbclient:     %.600s\nroutelab run: %.600s", wa, wb)
			}
		})
	}
}

// canonicalJSON is raw JSON re-encoded with sorted keys and no spaces.
func canonicalJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if raw == nil {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func readNotebook(t *testing.T, path string) *kernel.Notebook {
	t.Helper()
	nb, err := kernel.ReadNotebook(path)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

func count(c *kernel.Cell) string {
	if c.ExecutionCount == nil {
		return " "
	}
	return strconv.Itoa(*c.ExecutionCount)
}

// outputShape is a cell's outputs as a front end renders them: one entry per
// output with its type and, for streams, the name and text (consecutive
// writes to a stream merged, carriage returns resolved, as nbconvert's
// coalescing does), for values and displays their MIME types and text/plain,
// for errors the name.
func outputShape(c *kernel.Cell) []string {
	var out []string
	for _, o := range c.Outputs {
		switch o.Type {
		case "stream":
			head := "stream " + o.Name + "\n"
			if n := len(out); n > 0 && strings.HasPrefix(out[n-1], head) {
				out[n-1] += o.Text
				continue
			}
			out = append(out, head+o.Text)
		case "error":
			out = append(out, "error "+o.EName)
		default:
			out = append(out, o.Type+" "+strings.Join(o.Data.MIMEs(), " ")+"\n"+o.Data.Text())
		}
	}
	for i, s := range out {
		if strings.HasPrefix(s, "stream ") {
			out[i] = kernel.ResolveCarriageReturns(s)
		}
	}
	return out
}

// `routelab run` runs cells in the notebook's directory, as Jupyter does,
// and leaves the caller's directory alone.
func TestRunExecutesInTheNotebooksDirectory(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "analysis")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cell := `import "os"` + "\n\n" + `data, err := os.ReadFile("input.txt")` + "\n" + `string(data) + fmt.Sprint(err)`
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{
		map[string]any{"cell_type": "code", "id": "c1", "metadata": map[string]any{}, "outputs": []any{},
			"execution_count": nil, "source": `import "fmt"`},
		map[string]any{"cell_type": "code", "id": "c2", "metadata": map[string]any{}, "outputs": []any{},
			"execution_count": nil, "source": cell},
	}}
	data, _ := json.Marshal(nb)
	if err := os.WriteFile(filepath.Join(sub, "nb.ipynb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "input.txt"), []byte("found "), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Getwd()
	out := filepath.Join(t.TempDir(), "out.ipynb")
	rel, err := filepath.Rel(before, filepath.Join(sub, "nb.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	relOut, err := filepath.Rel(before, out)
	if err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "run", rel, "-o", relOut, "-q"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if after, _ := os.Getwd(); after != before {
		t.Errorf("working directory changed from %s to %s", before, after)
	}
	got := readNotebook(t, out).Cells[1].Outputs
	if len(got) != 1 || got[0].Data.Text() != `"found <nil>"` {
		t.Errorf("outputs %+v, want the file next to the notebook read", got)
	}
}
