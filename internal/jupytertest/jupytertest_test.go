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
