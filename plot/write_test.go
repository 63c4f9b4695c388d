package plot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteFile writes whole files or nothing: a path it cannot write is an
// error naming that path, and leaves no temporary file behind; an existing
// file is replaced only by a complete one.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := WriteFile(file, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(file, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(file); string(data) != "new" {
		t.Errorf("replaced file holds %q", data)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing", "f.svg"), filepath.Join(file, "f.svg"), filepath.Join(dir, "sub.svg")} {
		err := WriteFile(path, []byte("data"))
		if err == nil || !strings.HasPrefix(err.Error(), "writing "+path+": ") || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("WriteFile(%s): %v", path, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "file sub.svg" {
		t.Errorf("the directory holds %v, want only file and sub.svg", names)
	}
}
