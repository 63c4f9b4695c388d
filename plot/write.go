package plot

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to path whole or not at all: into a temporary file
// beside it, renamed over path once complete, so a failed or interrupted
// write never leaves a half-written file (and never clobbers an existing
// one). Errors name path.
func WriteFile(path string, data []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	done = true
	return nil
}

// unwrapPath drops the *os.PathError around err, whose path would be the
// temporary file's, not the one the caller asked for.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}
