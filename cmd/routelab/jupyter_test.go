package main

import (
	"encoding/json"
	"fmt"
	"github.com/routelab/routelab/internal/jupytertest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
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

func TestMain(m *testing.M) {
	code := m.Run()
	routelab.Remove()
	os.Exit(code)
}

// jupyter is a private Jupyter setup with the routelab kernelspec installed.
type jupyter struct {
	exe     string   // the routelab binary the kernelspec runs
	prefix  string   // where `routelab install --prefix` wrote
	specDir string   // PREFIX/share/jupyter/kernels/routelab
	env     []string // for Python processes: Jupyter looks only here
}

// installKernel installs the kernelspec "routelab" with the CLI, the way a
// user does, into a temporary prefix that JUPYTER_PATH names.
func installKernel(t *testing.T) *jupyter {
	t.Helper()
	j := &jupyter{exe: routelab.Path(t)}
	root := t.TempDir()
	j.prefix = filepath.Join(root, "prefix")
	out, err := exec.Command(j.exe, "install", "--prefix", j.prefix).CombinedOutput()
	if err != nil {
		t.Fatalf("routelab install --prefix: %v\n%s", err, out)
	}
	j.specDir = filepath.Join(j.prefix, "share", "jupyter", "kernels", "routelab")
	if want := fmt.Sprintf("installed kernelspec %q in %s\n", "routelab", j.specDir); string(out) != want {
		t.Errorf("routelab install printed %q, want %q", out, want)
	}
	j.env = append(os.Environ(), "JUPYTER_PATH="+filepath.Join(j.prefix, "share", "jupyter"),
		"JUPYTER_DATA_DIR="+filepath.Join(root, "data"), "JUPYTER_CONFIG_DIR="+filepath.Join(root, "config"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(root, "runtime"))
	return j
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
	results := regexp.MustCompile(`(?m)^(test_\w+) \(.*\) \.\.\. (ok|skipped.*)$`).FindAllStringSubmatch(string(out), -1)
	var passed, skipped []string
	for _, r := range results {
		if r[2] == "ok" {
			passed = append(passed, r[1])
		} else {
			skipped = append(skipped, r[1])
		}
	}
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
	if out, err := exec.Command(j.exe, "install", "--prefix", j.prefix, "--name", "routelab-dev").CombinedOutput(); err != nil {
		t.Fatalf("install --name: %v\n%s", err, out)
	}
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
	out, err := exec.Command(j.exe, "install", "--prefix", j.prefix, "--name", "routelab-dev", "--uninstall").CombinedOutput()
	if err != nil {
		t.Fatalf("install --uninstall: %v\n%s", err, out)
	}
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
	keys := []string{"start_ms_median", "start_ms_median_reconnect_1ms",
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
