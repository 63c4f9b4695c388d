// Package jupytertest holds what the tests that drive Debian's Jupyter
// tools share: finding a Python that has the modules, and listing
// kernelspecs as a user would. Under ROUTELAB_REQUIRE_JUPYTER=1 a missing
// module fails the test instead of skipping it.
package jupytertest

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Python is Debian's interpreter, the one its Jupyter packages install into.
const Python = "/usr/bin/python3"

// PythonWith returns Python after checking that it can import the modules;
// it skips the test otherwise, unless ROUTELAB_REQUIRE_JUPYTER is set.
func PythonWith(t testing.TB, modules ...string) string {
	t.Helper()
	script := "import " + strings.Join(modules, ", ")
	if len(modules) == 0 {
		script = "pass"
	}
	if out, err := exec.Command(Python, "-c", script).CombinedOutput(); err != nil {
		if os.Getenv("ROUTELAB_REQUIRE_JUPYTER") != "" {
			t.Fatalf("ROUTELAB_REQUIRE_JUPYTER is set but %s cannot %q: %v\n%s", Python, script, err, out)
		}
		t.Skipf("%s cannot %q (set ROUTELAB_REQUIRE_JUPYTER=1 to require it)", Python, script)
	}
	return Python
}

// Kernelspecs lists kernelspecs the way a user would: `jupyter kernelspec
// list --json`, or jupyter_client's module where that subcommand is missing
// (Debian ships it in the separate jupyter-client package).
func Kernelspecs(t testing.TB, env []string) map[string]any {
	t.Helper()
	py := PythonWith(t, "jupyter_client")
	var out []byte
	var err error
	if jupyter, lerr := exec.LookPath("jupyter"); lerr == nil {
		cmd := exec.Command(jupyter, "kernelspec", "list", "--json")
		cmd.Env = env
		out, err = cmd.Output()
	}
	if out == nil || err != nil {
		cmd := exec.Command(py, "-m", "jupyter_client.kernelspecapp", "list", "--json")
		cmd.Env = env
		if out, err = cmd.Output(); err != nil {
			t.Fatalf("%v: %v", cmd.Args, err)
		}
	}
	var list struct {
		Kernelspecs map[string]any `json:"kernelspecs"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("kernelspec list output: %v\n%s", err, out)
	}
	return list.Kernelspecs
}
