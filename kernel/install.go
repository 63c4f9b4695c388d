package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
)

// InstallOptions says what kernelspec to write and where. With neither
// Prefix nor DataDir set, the kernelspec goes to the user's Jupyter data
// directory (jupyter's --user).
type InstallOptions struct {
	// Name is the kernelspec's directory name (default "routelab"); letters,
	// digits, '.', '_' and '-' only, as Jupyter requires.
	Name string
	// DisplayName is what front ends show (default "Go (routelab)").
	DisplayName string
	// Language is the kernelspec language (default "go").
	Language string
	// Executable is the kernel binary (default: the running program). It is
	// made absolute, and must exist.
	Executable string
	// Argv follows the executable in kernel.json (default: kernel {connection_file}).
	Argv []string
	// Env is added to the kernel's environment by Jupyter.
	Env map[string]string
	// Prefix installs into PREFIX/share/jupyter/kernels (--prefix, or
	// --sys-prefix with SysPrefix's answer).
	Prefix string
	// DataDir installs into DATADIR/kernels (an explicit Jupyter data dir).
	DataDir string
}

var kernelNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]+$`) })

// kernelSpec is kernel.json.
type kernelSpec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata"`
}

// Install writes kernel.json and the logos, replacing an existing kernelspec
// of the same name, and returns the kernelspec directory.
func Install(o InstallOptions) (string, error) {
	dir, err := kernelDir(o)
	if err != nil {
		return "", err
	}
	exe, err := executable(o.Executable)
	if err != nil {
		return "", err
	}
	spec := kernelSpec{
		Argv:          append([]string{exe}, o.argv()...),
		DisplayName:   orDefault(o.DisplayName, DefaultDisplayName),
		Language:      orDefault(o.Language, "go"),
		InterruptMode: "message",
		Env:           o.Env,
		Metadata:      map[string]any{"debugger": false},
	}
	data, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cannot create kernelspec directory: %w", err)
	}
	files := map[string][]byte{"kernel.json": append(data, '\n')}
	for _, size := range []int{32, 64} {
		logo, err := Logo(size)
		if err != nil {
			return "", fmt.Errorf("cannot draw the logo: %w", err)
		}
		files[fmt.Sprintf("logo-%dx%d.png", size, size)] = logo
	}
	for name, content := range files {
		if err := writeFileAtomic(filepath.Join(dir, name), content); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// Uninstall removes the kernelspec Install would have written for o and
// returns its directory. A directory without kernel.json is left alone.
func Uninstall(o InstallOptions) (string, error) {
	dir, err := kernelDir(o)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "kernel.json")); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return dir, fmt.Errorf("no kernelspec %q in %s", o.name(), filepath.Dir(dir))
		}
		return dir, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return dir, fmt.Errorf("cannot remove kernelspec: %w", err)
	}
	return dir, nil
}

func (o InstallOptions) name() string { return orDefault(o.Name, DefaultKernelName) }

func (o InstallOptions) argv() []string {
	if o.Argv == nil {
		return []string{"kernel", "{connection_file}"}
	}
	return o.Argv
}

// kernelDir is where the kernelspec named by o lives.
func kernelDir(o InstallOptions) (string, error) {
	name := o.name()
	if !kernelNamePattern().MatchString(name) {
		return "", fmt.Errorf("kernel name %q is not allowed (use letters, digits, '.', '_' and '-')", name)
	}
	var data string
	switch {
	case o.Prefix != "" && o.DataDir != "":
		return "", errors.New("choose one of a prefix and a data directory, not both")
	case o.Prefix != "":
		data = filepath.Join(o.Prefix, "share", "jupyter")
	case o.DataDir != "":
		data = o.DataDir
	default:
		d, err := UserDataDir()
		if err != nil {
			return "", err
		}
		data = d
	}
	abs, err := filepath.Abs(filepath.Join(data, "kernels", name))
	if err != nil {
		return "", err
	}
	return abs, nil
}

// UserDataDir is Jupyter's per-user data directory, found as jupyter_core
// does: $JUPYTER_DATA_DIR, else ~/Library/Jupyter (macOS), %APPDATA%\jupyter
// (Windows) or $XDG_DATA_HOME/jupyter, defaulting to ~/.local/share/jupyter.
func UserDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	switch runtime.GOOS {
	case "darwin":
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Jupyter"), nil
	case "windows":
		if app := os.Getenv("APPDATA"); app != "" {
			return filepath.Join(app, "jupyter"), nil
		}
	}
	if xdg := os.Getenv("XDG_DATA_HOME"); xdg != "" {
		return filepath.Join(xdg, "jupyter"), nil
	}
	if err != nil {
		return "", fmt.Errorf("cannot find the Jupyter data directory: %w (set JUPYTER_DATA_DIR)", err)
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}

// SysPrefix asks a Python interpreter for its sys.prefix (jupyter's
// --sys-prefix); python defaults to "python3" on PATH.
func SysPrefix(python string) (string, error) {
	if python == "" {
		python = "python3"
	}
	out, err := exec.Command(python, "-c", "import sys; print(sys.prefix)").Output()
	if err != nil {
		return "", fmt.Errorf("cannot ask %s for sys.prefix: %w", python, err)
	}
	prefix := strings.TrimSpace(string(out))
	if prefix == "" {
		return "", fmt.Errorf("%s printed an empty sys.prefix", python)
	}
	return prefix, nil
}

// executable resolves the kernel binary. Without an explicit path it uses
// the running program, refusing a temporary `go run` build that would vanish.
func executable(path string) (string, error) {
	if path == "" {
		self, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("cannot find the running program: %w", err)
		}
		if strings.Contains(filepath.ToSlash(self), "/go-build") {
			return "", fmt.Errorf("%s is a temporary `go run` build; install a built binary (go install ./cmd/routelab) and run its install command", self)
		}
		path = self
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("kernel executable: %w", err)
	}
	if st.IsDir() {
		return "", fmt.Errorf("kernel executable %s is a directory", abs)
	}
	return abs, nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	_, err = tmp.Write(data)
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
