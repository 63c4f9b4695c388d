package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A build without version control information (as tests and images are)
// is named by its content: the last part of the Go build ID that `go tool
// buildid` reads.
func TestBuildVersionNamesTheBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Fatalf("go tool buildid: %v", err)
	}
	id := strings.TrimSpace(string(out))
	want := " build " + id[strings.LastIndexByte(id, '/')+1:]
	if v := buildVersion(); !strings.HasSuffix(v, want) || !strings.HasPrefix(v, "routelab ") {
		t.Errorf("buildVersion() = %q, want it to end with %q", v, want)
	}
}

// A file with no Go build ID note is named by the start of its sha256.
func TestContentIDFallsBackToTheHash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "not-elf")
	os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755)
	sum := sha256.Sum256([]byte("#!/bin/sh\n"))
	if id := elfBuildID(path); id != "" {
		t.Errorf("a shell script has build ID %q", id)
	}
	if got, want := executableHash(path), hex.EncodeToString(sum[:])[:16]; got != want {
		t.Errorf("hash %s, want %s", got, want)
	}
}
