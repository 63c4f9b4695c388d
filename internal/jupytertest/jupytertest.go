// Package jupytertest holds what the tests that drive Debian's Jupyter
// tools share: finding a Python that has the modules, and listing
// kernelspecs as a user would. Under ROUTELAB_REQUIRE_JUPYTER=1 a missing
// module fails the test instead of skipping it.
package jupytertest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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

// Binary is a Go program built once per test binary, into a directory that
// outlives `go test`'s own (kernelspecs point at it); Remove deletes it.
type Binary struct {
	Package, Name string // what `go build` builds, and the file's name

	once sync.Once
	dir  string
	path string
	err  error
}

// Path builds the program on first use and returns its path.
func (b *Binary) Path(t testing.TB) string {
	t.Helper()
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", b.Name+"-"); b.err != nil {
			return
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			b.err = fmt.Errorf("building %s needs the go command on PATH: %v", b.Name, err)
			return
		}
		b.path = filepath.Join(b.dir, b.Name)
		if out, err := exec.Command(goTool, "build", "-o", b.path, b.Package).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", b.Package, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// Remove deletes the built program (call it from TestMain).
func (b *Binary) Remove() {
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
}
