package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/internal/jupytertest"

	"github.com/routelab/routelab/kernel/internal/fakelang"
)

var update = flag.Bool("update", false, "rewrite golden files")

// python is Debian's Python with the modules, or a skip (see jupytertest).
var python = jupytertest.PythonWith

// fixedInfo keeps golden files independent of the Go toolchain's version.
func fixedInfo() *Info {
	info := DefaultInfo()
	info.Language.Version = "1.x"
	return &info
}

func runFixture(t *testing.T, name string, opts RunOptions) (*Notebook, error) {
	t.Helper()
	if opts.Info == nil {
		opts.Info = fixedInfo()
	}
	nb, err := ReadNotebook(filepath.Join("testdata", "runner", name))
	if err != nil {
		t.Fatal(err)
	}
	return nb, Execute(context.Background(), nb, fakelang.New(), opts)
}

func TestRunRecordsEveryOutputKind(t *testing.T) {
	nb, err := runFixture(t, "kinds.ipynb", RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "runner", "kinds.golden.ipynb")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("executed notebook differs from %s (run with -update after checking the diff)", golden)
	}

	// Invariants, independent of the golden file.
	c := nb.Cells
	streams := c[1].Outputs
	if len(streams) != 3 || streams[0].Text != "a 5\nb" || streams[1].Name != "stderr" || streams[2].Text != "d\n100%\n" {
		t.Errorf("streams not merged per name / carriage returns not resolved: %+v %+v %+v", streams[0], streams[1], streams[2])
	}
	if *c[1].ExecutionCount != 1 || *c[4].ExecutionCount != 4 {
		t.Errorf("execution counts %d, %d", *c[1].ExecutionCount, *c[4].ExecutionCount)
	}
	kinds := []string{}
	for _, o := range c[2].Outputs {
		for _, m := range o.Data.MIMEs() {
			if m != "text/plain" {
				kinds = append(kinds, m)
			}
		}
	}
	if strings.Join(kinds, " ") != "text/html image/svg+xml image/png application/json text/markdown" {
		t.Errorf("display kinds %v", kinds)
	}
	if d1 := c[3].Outputs[0].Data.Text(); d1 != "second" {
		t.Errorf("update_display did not reach the earlier cell: %q", d1)
	}
	last := c[4].Outputs
	if len(last) != 2 || last[0].Text != "z\n" || last[1].Type != "execute_result" || *last[1].ExecutionCount != 4 {
		t.Errorf("clear / clear(wait) / execute_result: %+v", last)
	}
	if c[5].ExecutionCount != nil || len(c[5].Outputs) != 0 {
		t.Errorf("blank cell ran or kept stale output")
	}
	if *c[6].ExecutionCount != 3 || c[6].Outputs[0].Data.Text() != "kept" {
		t.Errorf("skip-execution cell changed")
	}
	var spec map[string]string
	json.Unmarshal(nb.Metadata["kernelspec"], &spec)
	if spec["name"] != "routelab" || spec["language"] != "go" || nb.Metadata["custom"] == nil {
		t.Errorf("metadata %v", nb.Metadata)
	}

	// Same input, same bytes.
	nb2, _ := runFixture(t, "kinds.ipynb", RunOptions{})
	again, _ := nb2.Marshal()
	if !bytes.Equal(got, again) {
		t.Error("two runs of the same notebook wrote different bytes")
	}
}

func codeNotebook(t *testing.T, cells ...string) *Notebook {
	t.Helper()
	nb := &Notebook{NBFormat: 4, NBFormatMinor: 4, Metadata: map[string]json.RawMessage{}}
	for _, src := range cells {
		nb.Cells = append(nb.Cells, &Cell{Type: "code", Source: src, Metadata: map[string]json.RawMessage{},
			Outputs: []*Output{{Type: "stream", Name: "stdout", Text: "old output\n"}}})
	}
	return nb
}

func TestRunStopsAtFirstError(t *testing.T) {
	nb := codeNotebook(t, "x = 1", "fail boom", "echo after")
	err := Execute(context.Background(), nb, fakelang.New(), RunOptions{})
	var ce *CellError
	if !errors.As(err, &ce) || ce.Index != 1 || ce.EName != "EchoError" || ce.EValue != "boom" {
		t.Fatalf("error %v", err)
	}
	if o := nb.Cells[1].Outputs; len(o) != 1 || o[0].Type != "error" || len(o[0].Traceback) == 0 {
		t.Errorf("failing cell outputs %+v", o)
	}
	if nb.Cells[2].Outputs[0].Text != "old output\n" {
		t.Errorf("the cell after the error was touched")
	}

	nb = codeNotebook(t, "x = 1", "fail boom", "echo after")
	if err := Execute(context.Background(), nb, fakelang.New(), RunOptions{AllowErrors: true}); err != nil {
		t.Fatalf("allow errors: %v", err)
	}
	if o := nb.Cells[2].Outputs; len(o) != 1 || o[0].Data.Text() != "after" || *nb.Cells[2].ExecutionCount != 3 {
		t.Errorf("cell after error with AllowErrors: %+v", o)
	}

	nb = codeNotebook(t, "fail expected", "echo next")
	nb.Cells[0].Metadata["tags"] = json.RawMessage(`["raises-exception"]`)
	if err := Execute(context.Background(), nb, fakelang.New(), RunOptions{}); err != nil {
		t.Errorf("raises-exception cell stopped the run: %v", err)
	}
}

func TestRunTimeoutInterruptsAndKeepsState(t *testing.T) {
	nb := codeNotebook(t, "x = 3", "loop", "x")
	start := time.Now()
	err := Execute(context.Background(), nb, fakelang.New(), RunOptions{Timeout: 200 * time.Millisecond, AllowErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("timeout took %v", time.Since(start))
	}
	o := nb.Cells[1].Outputs
	if len(o) != 1 || o[0].EName != "Timeout" || !strings.Contains(o[0].EValue, "200ms") {
		t.Errorf("timed-out cell outputs %+v", o)
	}
	if got := nb.Cells[2].Outputs[0].Data.Text(); got != "3" {
		t.Errorf("state lost after timeout: x = %q", got)
	}
	nb = codeNotebook(t, "loop", "echo never")
	err = Execute(context.Background(), nb, fakelang.New(), RunOptions{Timeout: 100 * time.Millisecond})
	var ce *CellError
	if !errors.As(err, &ce) || !ce.TimedOut || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("timeout error %v", err)
	}
}

func TestParseNotebookErrors(t *testing.T) {
	cases := map[string]struct{ doc, want string }{
		"syntax":       {"{\n \"cells\": [\n  {\"cell_type\": \"code\",,}\n ]\n}", "nb.ipynb: invalid JSON at line 3, column 24"},
		"empty":        {"", "nb.ipynb: the file is empty"},
		"nbformat 3":   {`{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}`, "nbformat 3 is not supported"},
		"no nbformat":  {`{"cells": []}`, `"nbformat" is missing`},
		"no cells":     {`{"nbformat": 4, "nbformat_minor": 5}`, `"cells" is missing`},
		"cells type":   {`{"nbformat": 4, "nbformat_minor": 5, "cells": {}}`, `"cells" is a JSON object, want an array`},
		"document":     {`[{"cells": []}]`, `nb.ipynb: line 1, column 1: "document" is a JSON array, want an object`},
		"no type":      {`{"nbformat": 4, "nbformat_minor": 5, "cells": [{"source": ""}]}`, "nb.ipynb: cells[0].cell_type: missing"},
		"bad type":     {`{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "md", "source": ""}]}`, `cells[0].cell_type: "md" is not`},
		"source":       {`{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": ""}, {"cell_type": "code", "source": 3}]}`, "cells[1].source: is a number, want a string or a list of strings"},
		"metadata":     {`{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": "", "metadata": []}]}`, "cells[0].metadata: is a JSON array, want an object"},
		"output type":  {`{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": "", "outputs": [{"output_type": "bogus"}]}]}`, `cells[0].outputs[0].output_type: "bogus" is not`},
		"output data":  {`{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": "", "outputs": [{"output_type": "display_data", "data": {"text/plain": 1}}]}]}`, `cells[0].outputs[0].data["text/plain"]: is a number`},
		"stream text":  {`{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": "", "outputs": [{"output_type": "stream", "name": "stdout"}]}]}`, "cells[0].outputs[0].text: missing"},
		"source lines": {`{"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "code", "source": ["a", 1]}]}`, "cells[0].source: is a list with a non-string item"},
	}
	for name, tc := range cases {
		_, err := ParseNotebook("nb.ipynb", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", name, err, tc.want)
		}
	}
}

const sliderState = `{"state":{"_model_name":"IntSliderModel","_model_module":"@jupyter-widgets/controls","_model_module_version":"2.0.0","value":1}}`

// widgetNotebook runs cells that open two widget comms, update one and
// close the other, and a comm on another target.
func widgetNotebook(t *testing.T) *Notebook {
	t.Helper()
	nb := codeNotebook(t,
		"comm open w1 jupyter.widget "+sliderState,
		`comm msg w1 {"method":"update","state":{"value":5},"buffer_paths":[]}`+"\n"+`comm msg w1 {"method":"custom","content":{}}`,
		"comm open w2 jupyter.widget "+sliderState+"\ncomm close w2",
		`comm open other echo {"state":{"value":9}}`)
	if err := Execute(context.Background(), nb, fakelang.New(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return nb
}

// TestRunKeepsWidgetState: the state of the widgets open at the end,
// updates applied, is the notebook's metadata.widgets, in the
// widget-state format front ends render saved widgets from.
func TestRunKeepsWidgetState(t *testing.T) {
	nb := widgetNotebook(t)
	var got map[string]map[string]any
	if err := json.Unmarshal(nb.Metadata["widgets"], &got); err != nil {
		t.Fatalf("metadata.widgets %s: %v", nb.Metadata["widgets"], err)
	}
	ws := got[display.WidgetStateMIME]
	state, _ := ws["state"].(map[string]any)
	if ws["version_major"] != 2.0 || ws["version_minor"] != 0.0 || len(state) != 1 {
		t.Fatalf("widget state: %s", nb.Metadata["widgets"])
	}
	w1, _ := state["w1"].(map[string]any)
	inner, _ := w1["state"].(map[string]any)
	if w1["model_name"] != "IntSliderModel" || w1["model_module"] != "@jupyter-widgets/controls" ||
		w1["model_module_version"] != "2.0.0" || inner["value"] != 5.0 {
		t.Errorf("w1: %v", w1)
	}
	// A notebook run again without widgets loses the stale state.
	nb.Cells = nb.Cells[:0]
	if err := Execute(context.Background(), nb, fakelang.New(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if raw, ok := nb.Metadata["widgets"]; ok {
		t.Errorf("stale widget state kept: %s", raw)
	}
}

func TestWrittenNotebooksValidate(t *testing.T) {
	py := python(t, "nbformat")
	dir := t.TempDir()
	nb, err := runFixture(t, "kinds.ipynb", RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	failing := codeNotebook(t, "x = 1", "fail boom", "loop")
	Execute(context.Background(), failing, fakelang.New(), RunOptions{AllowErrors: true, Timeout: 50 * time.Millisecond})
	widgets := widgetNotebook(t)
	for name, n := range map[string]*Notebook{"kinds.ipynb": nb, "errors-v4.4.ipynb": failing, "widgets.ipynb": widgets} {
		data, err := n.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		// Validate, and check that nbformat's own writer gives the same bytes.
		script := `import sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=nbformat.NO_CONVERT)
nbformat.validate(nb)
if nbformat.writes(nb) + "\n" != open(sys.argv[1], encoding="utf-8").read():
    sys.exit("nbformat would write this notebook differently")`
		validate := exec.Command(py, "-c", script, path)
		validate.Env = jupytertest.NewEnv(t).Environ()
		out, err := validate.CombinedOutput()
		if err != nil {
			t.Errorf("%s does not validate: %v\n%s", name, err, out)
		}
	}
}

func TestRunWritesFilesEvenOnError(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.ipynb")
	data, _ := codeNotebook(t, "print hi", "fail boom").Marshal()
	os.WriteFile(in, data, 0o644)
	out, page := filepath.Join(dir, "out.ipynb"), filepath.Join(dir, "out.html")
	var progress bytes.Buffer
	err := Run(context.Background(), fakelang.New(), in, RunOptions{Output: out, HTML: page, Progress: &progress})
	var ce *CellError
	if !errors.As(err, &ce) {
		t.Fatalf("Run error %v", err)
	}
	written, err := ReadNotebook(out)
	if err != nil || written.Cells[1].Outputs[0].EValue != "boom" {
		t.Errorf("written notebook %v %+v", err, written)
	}
	if b, _ := os.ReadFile(page); !bytes.Contains(b, []byte("EchoError: boom")) {
		t.Errorf("HTML lacks the error")
	}
	if !strings.Contains(progress.String(), "cells[1] In [2] failed") {
		t.Errorf("progress %q", progress.String())
	}
	if err := Run(context.Background(), fakelang.New(), filepath.Join(dir, "missing.ipynb"), RunOptions{}); err == nil {
		t.Error("missing notebook accepted")
	}
}

func TestHTMLExport(t *testing.T) {
	nb, err := runFixture(t, "kinds.ipynb", RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	page, err := RenderHTML(nb, "kinds <test>")
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{
		"<title>kinds &lt;test&gt;</title>",
		"<h1>Output kinds</h1>",
		"<b>inline</b>",                             // raw HTML in markdown
		`src="data:image/png;base64,iVBORw0KGgo`,    // attachment and png output
		"<b>bold</b> & <i>it</i>",                   // text/html output as is
		"<circle",                                   // inline svg
		"print a $x\nwrite b",                       // code, escaped
		"echo &lt;$x&gt;",                           // code escaping
		`<pre class="stream stderr">c` + "\n</pre>", // streams
		"Out[4]:",
		`<p class="raw">raw html</p>`,
		"<em>emphasis</em>",
		"&#34;a&#34;: [",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	network := regexp.MustCompile(`(?i)<script[^>]*\bsrc=|<link[^>]*\bhref=["']?(https?:)?//|@import|url\(\s*["']?(https?:)?//|(src|href)=["']?(https?:)?//`)
	if m := network.FindString(s); m != "" {
		t.Errorf("page has a network reference: %q", m)
	}
	again, _ := RenderHTML(nb, "kinds <test>")
	if !bytes.Equal(page, again) {
		t.Error("the same notebook rendered to different bytes")
	}
}

// FuzzParseNotebook checks that no input panics the reader and that every
// notebook it accepts survives a write/read round trip unchanged.
func FuzzParseNotebook(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "runner", "kinds.ipynb"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [{"cell_type": "code", "source": ["a\n", "b"], "metadata": {}, "outputs": [{"output_type": "stream", "name": "stdout", "text": "x"}], "execution_count": 1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		nb, err := ParseNotebook("fuzz.ipynb", data)
		if err != nil {
			return
		}
		out, err := nb.Marshal()
		if err != nil {
			return // e.g. metadata holding JSON that cannot be re-encoded
		}
		again, err := ParseNotebook("again.ipynb", out)
		if err != nil {
			t.Fatalf("re-reading our own output: %v\n%s", err, out)
		}
		out2, err := again.Marshal()
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("write/read/write is not stable: %v", err)
		}
	})
}

// A notebook run headless says so to its cells, and an update a later cell
// makes replaces the display an earlier cell showed.
func TestRunIsHeadlessAndUpdatesEarlierDisplays(t *testing.T) {
	nb := codeNotebook(t, "headless", "show v first", "update v second")
	if err := Execute(context.Background(), nb, fakelang.New(), RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if o := nb.Cells[0].Outputs; len(o) != 1 || o[0].Data.Text() != "true" {
		t.Errorf("the cell's sink is not headless: %+v", o[0])
	}
	if o := nb.Cells[1].Outputs; len(o) != 1 || o[0].Data.Text() != "second" {
		t.Errorf("the display was not updated in place: %+v", o)
	}
	if len(nb.Cells[2].Outputs) != 0 {
		t.Errorf("the update added outputs to its own cell: %+v", nb.Cells[2].Outputs)
	}
}
