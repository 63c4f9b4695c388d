package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/routelab/routelab/internal/jupytertest"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestUserDataDirFollowsJupyterRules(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the XDG rules are Linux's")
	}
	t.Setenv("HOME", "/home/someone")
	t.Setenv("JUPYTER_DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", "")
	cases := []struct{ jupyter, xdg, want string }{
		{"", "", "/home/someone/.local/share/jupyter"},
		{"", "/xdg", "/xdg/jupyter"},
		{"/explicit", "/xdg", "/explicit"},
	}
	for _, c := range cases {
		t.Setenv("JUPYTER_DATA_DIR", c.jupyter)
		t.Setenv("XDG_DATA_HOME", c.xdg)
		if got, err := UserDataDir(); err != nil || got != c.want {
			t.Errorf("JUPYTER_DATA_DIR=%q XDG_DATA_HOME=%q: %q, %v; want %q", c.jupyter, c.xdg, got, err, c.want)
		}
	}
}

func TestInstallWritesKernelspec(t *testing.T) {
	exe, _ := os.Executable()
	prefix := t.TempDir()
	dir, err := Install(InstallOptions{Name: "rl-test", Prefix: prefix, Executable: exe, Env: map[string]string{"A": "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(prefix, "share", "jupyter", "kernels", "rl-test"); dir != want {
		t.Errorf("installed into %s, want %s", dir, want)
	}
	data, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	argv := spec["argv"].([]any)
	if len(argv) != 3 || argv[0] != exe || argv[1] != "kernel" || argv[2] != "{connection_file}" ||
		spec["interrupt_mode"] != "message" || spec["language"] != "go" || spec["env"].(map[string]any)["A"] != "b" {
		t.Errorf("kernel.json = %s", data)
	}
	for _, size := range []int{32, 64} {
		f, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("logo-%dx%d.png", size, size)))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(f))
		if err != nil || img.Bounds().Dx() != size || img.Bounds().Dy() != size {
			t.Errorf("logo %d: %v %v", size, err, img.Bounds())
		}
	}
	if a, _ := Logo(64); !bytes.Equal(a, mustLogo(t, 64)) {
		t.Error("the logo is not the same on every call")
	}
	if _, err := Uninstall(InstallOptions{Name: "rl-test", Prefix: prefix}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("kernelspec still there after Uninstall: %v", err)
	}
}

func mustLogo(t *testing.T, size int) []byte {
	b, err := Logo(size)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInstallRejectsBadOptions(t *testing.T) {
	exe, _ := os.Executable()
	dir := t.TempDir()
	cases := []struct {
		o    InstallOptions
		want string
	}{
		{InstallOptions{Name: "bad name", DataDir: dir, Executable: exe}, `kernel name "bad name" is not allowed`},
		{InstallOptions{Prefix: dir, DataDir: dir, Executable: exe}, "not both"},
		{InstallOptions{DataDir: dir, Executable: filepath.Join(dir, "nope")}, "kernel executable"},
		{InstallOptions{DataDir: dir, Executable: dir}, "is a directory"},
	}
	for _, c := range cases {
		if _, err := Install(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	// `go test` binaries normally live in go-build temp dirs, like `go run` ones.
	if strings.Contains(filepath.ToSlash(exe), "/go-build") {
		if _, err := Install(InstallOptions{DataDir: dir}); err == nil || !strings.Contains(err.Error(), "go run") {
			t.Errorf("installing a temporary build: %v", err)
		}
	}
	if _, err := Uninstall(InstallOptions{Name: "absent", DataDir: dir}); err == nil || !strings.Contains(err.Error(), `no kernelspec "absent"`) {
		t.Errorf("uninstalling a missing kernelspec: %v", err)
	}
}

func TestSysPrefixAsksPython(t *testing.T) {
	py := python(t)
	jupytertest.NewEnv(t).Setenv(t) // Python reads no directory of the user's
	prefix, err := SysPrefix(py)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(prefix); err != nil || !st.IsDir() {
		t.Errorf("sys.prefix %q is not a directory: %v", prefix, err)
	}
	if _, err := SysPrefix(filepath.Join(t.TempDir(), "no-python")); err == nil {
		t.Error("a missing interpreter was accepted")
	}
}
