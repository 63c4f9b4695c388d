// Package jupytertest holds what the tests that drive Debian's Jupyter
// tools share: a private environment, so no test reads or writes the
// user's Jupyter, HOME or XDG directories; finding a Python that has the
// modules; listing kernelspecs as a user would; building a test binary
// once (Binary); and reading the verdicts of jupyter_kernel_test's
// conformance suite (ConformanceResults). Under
// ROUTELAB_REQUIRE_JUPYTER=1 a missing module fails the test instead of
// skipping it.
package jupytertest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Python is Debian's interpreter, the one its Jupyter packages install into.
const Python = "/usr/bin/python3"

// Env is a private home for one test: every directory Jupyter, Python and
// the XDG conventions would use for the user (HOME, JUPYTER_DATA_DIR,
// JUPYTER_CONFIG_DIR, JUPYTER_RUNTIME_DIR, JUPYTER_PATH, XDG_*_HOME,
// PYTHONUSERBASE, IPYTHONDIR) points into a temporary directory, so a test
// sees only the kernelspecs it installs — not one the user installed with
// `routelab install --user` — and leaves nothing behind.
type Env struct {
	// DataDir is JUPYTER_DATA_DIR: where a --user install goes.
	DataDir string
	vars    []string
}

// NewEnv makes a private environment; jupyterPath lists directories for
// JUPYTER_PATH (kernelspecs installed with --prefix DIR live under
// DIR/share/jupyter).
func NewEnv(t testing.TB, jupyterPath ...string) *Env {
	t.Helper()
	root := t.TempDir()
	dir := func(name string) string {
		d := filepath.Join(root, name)
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		return d
	}
	e := &Env{DataDir: dir("jupyter-data")}
	e.vars = []string{"HOME=" + dir("home"), "JUPYTER_DATA_DIR=" + e.DataDir,
		"JUPYTER_CONFIG_DIR=" + dir("jupyter-config"), "JUPYTER_RUNTIME_DIR=" + dir("jupyter-runtime"),
		"JUPYTER_PATH=" + strings.Join(jupyterPath, string(os.PathListSeparator)), "JUPYTER_CONFIG_PATH=",
		"XDG_DATA_HOME=" + dir("xdg-data"), "XDG_CONFIG_HOME=" + dir("xdg-config"), "XDG_CACHE_HOME=" + dir("xdg-cache"),
		"XDG_STATE_HOME=" + dir("xdg-state"), "XDG_RUNTIME_DIR=" + dir("xdg-runtime"),
		"PYTHONUSERBASE=" + dir("python-user"), "IPYTHONDIR=" + dir("ipython")}
	return e
}

// Environ is the process environment with e's directories (and extra
// KEY=value entries) in place of the user's: for the Jupyter and Python
// processes a test starts.
func (e *Env) Environ(extra ...string) []string {
	override := map[string]bool{}
	for _, kv := range append(e.vars, extra...) {
		k, _, _ := strings.Cut(kv, "=")
		override[k] = true
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !override[k] {
			env = append(env, kv)
		}
	}
	return append(append(env, e.vars...), extra...)
}

// Setenv puts e's directories into this test's own environment, for code
// under test that resolves them in process (Install's --user default,
// SysPrefix's Python). Build binaries first: `go build` under a temporary
// HOME would not find the user's build and module caches.
func (e *Env) Setenv(t testing.TB) {
	t.Helper()
	for _, kv := range e.vars {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// PythonWith returns Python after checking, in a private environment, that
// it can import the modules; it skips the test otherwise, unless
// ROUTELAB_REQUIRE_JUPYTER is set.
func PythonWith(t testing.TB, modules ...string) string {
	t.Helper()
	script := "import " + strings.Join(modules, ", ")
	if len(modules) == 0 {
		script = "pass"
	}
	check := exec.Command(Python, "-c", script)
	check.Env = NewEnv(t).Environ()
	if out, err := check.CombinedOutput(); err != nil {
		if os.Getenv("ROUTELAB_REQUIRE_JUPYTER") != "" {
			t.Fatalf("ROUTELAB_REQUIRE_JUPYTER is set but %s cannot %q: %v\n%s", Python, script, err, out)
		}
		t.Skipf("%s cannot %q (set ROUTELAB_REQUIRE_JUPYTER=1 to require it)", Python, script)
	}
	return Python
}

// Kernelspecs lists kernelspecs the way a user would, in env (an
// Env.Environ): `jupyter kernelspec list --json`, or jupyter_client's
// module where that subcommand is missing (Debian ships it in the separate
// jupyter-client package).
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
	Package, Name string   // what `go build` builds, and the file's name
	Env           []string // added to go build's environment
	Flags         []string // go build's flags, before -o

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
		build := exec.Command(goTool, slices.Concat([]string{"build"}, b.Flags, []string{"-o", b.path, b.Package})...)
		build.Env = append(os.Environ(), b.Env...)
		if out, err := build.CombinedOutput(); err != nil {
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

// conformanceLine is one test's verdict in the verbose output of Python's
// unittest, which runs jupyter_kernel_test's suite:
// "test_name (module.Class.test_name) ... ok", or "... skipped 'why'".
var conformanceLine = regexp.MustCompile(`(?m)^(test_\w+) \(.*\) \.\.\. (ok|skipped.*)$`)

// ConformanceResults reads the verbose output of jupyter_kernel_test's
// suite (testdata/jupyter/test_conformance.py -v): the tests that passed
// and those skipped, each in the order run. A test that failed is in
// neither list (the suite's exit status says it failed).
func ConformanceResults(out []byte) (passed, skipped []string) {
	for _, r := range conformanceLine.FindAllSubmatch(out, -1) {
		if string(r[2]) == "ok" {
			passed = append(passed, string(r[1]))
		} else {
			skipped = append(skipped, string(r[1]))
		}
	}
	return passed, skipped
}
