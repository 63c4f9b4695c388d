package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/routelab/routelab/internal/jupytertest"
)

// These tests run the real routelab kernel under Jupyter's own Python tools
// (Debian's python3-jupyter-client, -jupyter-kernel-test, -nbclient,
// -nbformat, all driven by /usr/bin/python3): the routelab binary is built,
// installed with `routelab install --prefix` into a temporary Jupyter path
// and started by jupyter_client, exactly as front ends start it. They skip
// when the Python modules are missing, unless ROUTELAB_REQUIRE_JUPYTER is
// set. The Python drivers live in kernel/testdata/jupyter.

var jupyterDir = filepath.Join("..", "..", "kernel", "testdata", "jupyter")

// routelab is this command, built once per test binary: kernelspecs need a
// binary that outlives `go test`'s.
var routelab = &jupytertest.Binary{Package: ".", Name: "routelab"}

// imageBinary is routelab built as deploy/Dockerfile builds the image's
// binary (TestDockerfile checks the two agree): what a cluster's shards
// run.
var imageBinary = &jupytertest.Binary{
	Package: ".", Name: "routelab-image",
	Env:   []string{"CGO_ENABLED=0"},
	Flags: []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w"},
}

func TestMain(m *testing.M) {
	// Commands run in process (`run`) start their session workers from this
	// test binary, as the routelab binary starts them from itself.
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	routelab.Remove()
	imageBinary.Remove()
	os.Exit(code)
}

// jupyter is a private Jupyter setup with the routelab kernelspec installed.
type jupyter struct {
	exe     string   // the routelab binary the kernelspec runs
	prefix  string   // where `routelab install --prefix` wrote
	specDir string   // PREFIX/share/jupyter/kernels/routelab
	env     []string // private HOME, Jupyter and XDG directories; JUPYTER_PATH is prefix's
}

// installKernel installs the kernelspec "routelab" with the CLI, the way a
// user does, into a temporary prefix that JUPYTER_PATH names.
func installKernel(t *testing.T) *jupyter {
	t.Helper()
	j := &jupyter{exe: routelab.Path(t)}
	j.prefix = filepath.Join(t.TempDir(), "prefix")
	j.env = jupytertest.NewEnv(t, filepath.Join(j.prefix, "share", "jupyter")).Environ()
	out := j.routelab(t, "install", "--prefix", j.prefix)
	j.specDir = filepath.Join(j.prefix, "share", "jupyter", "kernels", "routelab")
	if want := fmt.Sprintf("installed kernelspec %q in %s\n", "routelab", j.specDir); string(out) != want {
		t.Errorf("routelab install printed %q, want %q", out, want)
	}
	return j
}

// routelab runs the routelab binary in j's environment.
func (j *jupyter) routelab(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(j.exe, args...)
	cmd.Env = j.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("routelab %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// python runs a Python script of kernel/testdata/jupyter in j's environment
// and returns its standard output; stderr is shown on failure.
func (j *jupyter) python(t *testing.T, py, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(py, append([]string{filepath.Join(jupyterDir, script)}, args...)...)
	cmd.Env = j.env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", script, strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

// Jupyter's own conformance suite, with Go samples (routelab.json).
func TestJupyterConformanceSuiteRoutelabKernel(t *testing.T) {
	py := jupytertest.PythonWith(t, "jupyter_kernel_test", "jupyter_client")
	j := installKernel(t)
	cmd := exec.Command(py, filepath.Join(jupyterDir, "test_conformance.py"), "-v")
	cmd.Env = append(j.env, "ROUTELAB_KERNEL_NAME=routelab", "ROUTELAB_KERNEL_SAMPLES=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("jupyter_kernel_test failed: %v\n%s", err, out)
	}
	passed, skipped := jupytertest.ConformanceResults(out)
	t.Logf("passed %d: %s; skipped: %s", len(passed), strings.Join(passed, " "), strings.Join(skipped, " "))
	want := "test_clear_output test_completion test_display_data test_error test_execute_result test_execute_stderr " +
		"test_execute_stdout test_history test_inspect test_is_complete test_kernel_info"
	// Skipped: the kernel sends no pager payloads (inspect replies instead).
	if strings.Join(passed, " ") != want || strings.Join(skipped, " ") != "test_pager" {
		t.Errorf("passed %v, skipped %v; want passed %s\n%s", passed, skipped, want, out)
	}
}

func TestInstallPrefixIsListedByJupyter(t *testing.T) {
	jupytertest.PythonWith(t, "jupyter_client")
	j := installKernel(t)
	// A second kernelspec under another name, e.g. one per build.
	j.routelab(t, "install", "--prefix", j.prefix, "--name", "routelab-dev")
	specs := jupytertest.Kernelspecs(t, j.env)
	for name, dir := range map[string]string{"routelab": j.specDir, "routelab-dev": filepath.Join(filepath.Dir(j.specDir), "routelab-dev")} {
		entry, ok := specs[name].(map[string]any)
		if !ok {
			names := make([]string, 0, len(specs))
			for k := range specs {
				names = append(names, k)
			}
			sort.Strings(names)
			t.Fatalf("%s is not listed; Jupyter lists %v", name, names)
		}
		spec, _ := entry["spec"].(map[string]any)
		argv, _ := json.Marshal(spec["argv"])
		wantArgv, _ := json.Marshal([]string{j.exe, "kernel", "{connection_file}"})
		if entry["resource_dir"] != dir || string(argv) != string(wantArgv) || spec["interrupt_mode"] != "message" ||
			spec["language"] != "go" || spec["display_name"] != "Go (routelab)" {
			t.Errorf("%s listed as %v; want resource_dir %s, argv %s", name, entry, dir, wantArgv)
		}
	}
	j.routelab(t, "install", "--prefix", j.prefix, "--name", "routelab-dev", "--uninstall")
	specs = jupytertest.Kernelspecs(t, j.env)
	if _, listed := specs["routelab-dev"]; listed {
		t.Error("routelab-dev still listed after install --uninstall")
	}
	if _, listed := specs["routelab"]; !listed {
		t.Error("uninstalling routelab-dev removed routelab too")
	}
}

// interruptStep is one interrupted cell, as interrupts.py reports it.
type interruptStep struct {
	Code       string   `json:"code"`
	How        string   `json:"how"`
	ToIdleMs   float64  `json:"to_idle_ms"`
	Status     string   `json:"status"`
	EName      string   `json:"ename"`
	IOPub      []string `json:"iopub"`
	KeptAfter  string   `json:"kept_after"`
	SmallAfter string   `json:"small_after"`
}

// Interrupts through jupyter_client against the real kernel: `for {}` and a
// long lab.Compare with an interpreted policy, stopped by an
// interrupt_request on control and by SIGINT to the kernel process. The
// session survives each: its variables, and a comparison with the same
// interpreted policy gives the same figures as before.
func TestInterruptsThroughJupyterClient(t *testing.T) {
	py := jupytertest.PythonWith(t, "jupyter_client")
	j := installKernel(t)
	out := j.python(t, py, "interrupts.py", "routelab")
	var got struct {
		InterruptMode string         `json:"interrupt_mode"`
		Setup         []string       `json:"setup"`
		SmallBefore   string         `json:"small_before"`
		LoopMessage   *interruptStep `json:"loop_message"`
		CompareMsg    *interruptStep `json:"compare_message"`
		LoopSigint    *interruptStep `json:"loop_sigint"`
		CompareSigint *interruptStep `json:"compare_sigint"`
		SameProcess   bool           `json:"same_process"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.InterruptMode != "message" || strings.Join(got.Setup, " ") != "ok ok" || !got.SameProcess ||
		!strings.Contains(got.SmallBefore, "queue-x-ewma") {
		t.Fatalf("mode %q, setup %v, same process %v, comparison before:\n%s", got.InterruptMode, got.Setup, got.SameProcess, got.SmallBefore)
	}
	for _, s := range []*interruptStep{got.LoopMessage, got.CompareMsg, got.LoopSigint, got.CompareSigint} {
		if s == nil {
			t.Fatalf("missing step in %s", out)
		}
		if s.Status != "error" || s.EName != "Interrupted" || strings.Join(s.IOPub, " ") != "error" {
			t.Errorf("%s by %s: reply %s %s, iopub %v; want error Interrupted and only the error message",
				s.Code, s.How, s.Status, s.EName, s.IOPub)
		}
		if s.KeptAfter != "42" {
			t.Errorf("after interrupting %s by %s, kept + 1 = %q, want 42", s.Code, s.How, s.KeptAfter)
		}
		if s.SmallAfter != got.SmallBefore {
			t.Errorf("after interrupting %s by %s, the comparison changed:\n%s\nwas:\n%s", s.Code, s.How, s.SmallAfter, got.SmallBefore)
		}
		t.Logf("%-8s %-70q interrupt -> idle %7.2f ms", s.How, s.Code, s.ToIdleMs)
	}
}

// The latency benchmark through jupyter_client, as a smoke check: it must
// run against the real kernel; the figures are printed, not judged (see
// docs/kernel.md for the targets and `-bench` for the Go side).
func TestBenchKernelScriptRuns(t *testing.T) {
	py := jupytertest.PythonWith(t, "jupyter_client", "zmq")
	j := installKernel(t)
	cmd := exec.Command(py, filepath.Join(jupyterDir, "..", "bench_kernel.py"), "routelab", "--trivial", "1+1", "--busy", "for {}",
		"--starts", "3", "--executes", "50", "--interrupts", "3", "--json")
	cmd.Env = j.env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench_kernel.py: %v\n%s", err, stderr.String())
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	keys := []string{"start_ms_median", "start_ms_p95", "start_ms_median_reconnect_1ms",
		"round_trip_ms_median_frames", "round_trip_ms_p95_frames", "interrupt_to_idle_ms_median_frames",
		"round_trip_ms_median_jupyter_client", "round_trip_ms_p95_jupyter_client", "interrupt_to_idle_ms_median_jupyter_client"}
	for _, k := range keys {
		v, ok := res[k].(float64)
		if !ok || v <= 0 {
			t.Errorf("%s = %v, want a positive number", k, res[k])
			continue
		}
		t.Logf("%-44s %8.3f ms", k, v)
	}
	t.Logf("samples: %v", res["samples"])
}

// deathStep is one cell as session_death.py reports it.
type deathStep struct {
	Code  string         `json:"code"`
	Reply map[string]any `json:"reply"`
	IOPub []struct {
		Type    string         `json:"type"`
		Content map[string]any `json:"content"`
	} `json:"iopub"`
}

func (s deathStep) types() string {
	var out []string
	for _, m := range s.IOPub {
		out = append(out, m.Type)
	}
	return strings.Join(out, " ")
}

// result is the text/plain of the cell's execute_result.
func (s deathStep) result() string {
	for _, m := range s.IOPub {
		if m.Type == "execute_result" {
			data, _ := m.Content["data"].(map[string]any)
			text, _ := data["text/plain"].(string)
			return text
		}
	}
	return ""
}

// The real kernel through jupyter_client: cells that kill the session fail
// with SessionDied and the kernel lives on (a front end never sees "kernel
// died"); a worker killed between cells is reported by the next cell; and
// shutdown, restart, SIGTERM and SIGKILL of the kernel leave no worker.
func TestSessionDeathThroughJupyterClient(t *testing.T) {
	py := jupytertest.PythonWith(t, "jupyter_client")
	j := installKernel(t)
	var got struct {
		Cells struct {
			Steps         []deathStep `json:"steps"`
			KernelAlive   bool        `json:"kernel_alive"`
			SameKernel    bool        `json:"same_kernel"`
			WorkerChanged bool        `json:"worker_changed"`
			Log           string      `json:"log"`
		} `json:"cells"`
		Idle struct {
			After       deathStep `json:"after"`
			KernelAlive bool      `json:"kernel_alive"`
		} `json:"idle"`
		Shutdown map[string]bool `json:"shutdown"`
		Restart  struct {
			OldWorkerGone bool      `json:"old_worker_gone"`
			NewWorker     bool      `json:"new_worker"`
			After         deathStep `json:"after"`
		} `json:"restart"`
		SIGTERM map[string]bool `json:"sigterm"`
		SIGKILL map[string]bool `json:"sigkill"`
	}
	out := j.python(t, py, "session_death.py", "routelab")
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	c := got.Cells
	died := func(at, reason string) string {
		return "the session died at line " + at + ": " + reason + "; its variables are lost; a fresh session is ready"
	}
	want := []struct{ status, ename, evalue, result string }{
		{"ok", "", "", ""},
		{"error", "SessionDied", died("9:1", "concurrent map writes"), ""},
		{"error", "CompileError", "1:1: undefined: x", ""},
		{"ok", "", "", "2"},
		{"error", "SessionDied", died("4:1", "sync: unlock of unlocked mutex"), ""},
		{"error", "SessionDied", died("2:1", "out of memory (the session's limit is 1GiB; ROUTELAB_MEMORY_LIMIT changes it)"), ""},
		{"ok", "", "", "4"},
	}
	if len(c.Steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(c.Steps), len(want))
	}
	for i, w := range want {
		s := c.Steps[i]
		ename, _ := s.Reply["ename"].(string)
		evalue, _ := s.Reply["evalue"].(string)
		if s.Reply["status"] != w.status || ename != w.ename || evalue != w.evalue || s.result() != w.result {
			t.Errorf("%.30q: %v %s %q, result %q\nwant %s %s %q, result %q", s.Code, s.Reply["status"], ename, evalue, s.result(),
				w.status, w.ename, w.evalue, w.result)
		}
		if tb, _ := json.Marshal(s.Reply["traceback"]); strings.Contains(string(tb), "goroutine") {
			t.Errorf("%.30q: the traceback shows the goroutine dump: %s", s.Code, tb)
		}
		if w.ename == "SessionDied" && s.types() != "status:busy execute_input error status:idle" {
			t.Errorf("%.30q: iopub %s", s.Code, s.types())
		}
	}
	if !c.KernelAlive || !c.SameKernel || !c.WorkerChanged {
		t.Errorf("kernel alive %v, same kernel process %v, worker replaced %v", c.KernelAlive, c.SameKernel, c.WorkerChanged)
	}
	for _, w := range []string{"fatal error: concurrent map writes", "goroutine ", "fatal error: sync: unlock of unlocked mutex"} {
		if !strings.Contains(c.Log, w) {
			t.Errorf("the kernel's log lacks %q", w)
		}
	}
	note := "[routelab: the session died while no cell was running (killed by signal 9 (killed)); " +
		"a fresh session was started, and the variables of earlier cells are lost]\n"
	idle := got.Idle.After
	if idle.Reply["status"] != "ok" || idle.result() != "3" || len(idle.IOPub) < 3 || idle.IOPub[2].Content["text"] != note {
		t.Errorf("after an idle death: %v, iopub %+v", idle.Reply, idle.IOPub)
	}
	for name, r := range map[string]map[string]bool{"shutdown": got.Shutdown, "SIGTERM": got.SIGTERM, "SIGKILL": got.SIGKILL} {
		if !r["kernel_gone"] || !r["worker_gone"] {
			t.Errorf("%s of the kernel: %v", name, r)
		}
	}
	if r := got.Restart; !r.OldWorkerGone || !r.NewWorker || r.After.result() != "2" {
		t.Errorf("restart: old worker gone %v, new worker %v, 1 + 1 = %q", r.OldWorkerGone, r.NewWorker, r.After.result())
	}
}
