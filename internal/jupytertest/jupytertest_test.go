package jupytertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A kernelspec named routelab installed for the user (as `routelab install
// --user` does, here under a stand-in HOME) is listed by Jupyter in the
// user's environment but not in an Env: tests see only their own.
func TestEnvHidesTheUsersKernelspecs(t *testing.T) {
	PythonWith(t, "jupyter_client")
	home := t.TempDir()
	spec := filepath.Join(home, ".local", "share", "jupyter", "kernels", "routelab")
	if err := os.MkdirAll(spec, 0o755); err != nil {
		t.Fatal(err)
	}
	kernelJSON := `{"argv": ["/bin/false", "kernel", "{connection_file}"], "display_name": "the user's routelab", "language": "go"}`
	if err := os.WriteFile(filepath.Join(spec, "kernel.json"), []byte(kernelJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, k := range []string{"JUPYTER_DATA_DIR", "JUPYTER_PATH", "XDG_DATA_HOME"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	if _, listed := Kernelspecs(t, os.Environ())["routelab"]; !listed {
		t.Fatal("the stand-in user's kernelspec is not listed even without isolation; the test proves nothing")
	}
	e := NewEnv(t)
	if specs := Kernelspecs(t, e.Environ()); specs["routelab"] != nil {
		t.Errorf("an Env lists the user's kernelspec: %v", specs["routelab"])
	}
	for _, kv := range e.Environ() {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok && v == home {
			t.Error("an Env keeps the user's HOME")
		}
	}
}

// The suite's verbose output, as Python 3.11+ prints it: passed and
// skipped tests in order, a failed one in neither list.
func TestConformanceResults(t *testing.T) {
	out := []byte(`test_clear_output (test_conformance.RoutelabKernelTests.test_clear_output) ... ok
test_completion (test_conformance.RoutelabKernelTests.test_completion) ... ok
test_error (test_conformance.RoutelabKernelTests.test_error) ... FAIL
test_pager (test_conformance.RoutelabKernelTests.test_pager) ... skipped 'No code that would produce a pager'
test_kernel_info (test_conformance.RoutelabKernelTests.test_kernel_info) ... ok
 test_indented (x.Y.test_indented) ... ok

----------------------------------------------------------------------
Ran 5 tests in 1.234s
`)
	passed, skipped := ConformanceResults(out)
	if got := strings.Join(passed, " "); got != "test_clear_output test_completion test_kernel_info" {
		t.Errorf("passed %q", got)
	}
	if got := strings.Join(skipped, " "); got != "test_pager" {
		t.Errorf("skipped %q", got)
	}
}
