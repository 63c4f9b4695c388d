package main

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// buildVersion names the build of routelab that is running, for shard
// files: merge refuses shards of different builds, since their runs may
// differ. It is the module version, the git commit the binary was built
// from and the Go version; when the commit cannot vouch for the source (no
// version control information, or uncommitted changes) it adds the hash of
// the executable's content, so two different builds never share a name.
func buildVersion() string {
	v := "routelab"
	rev, dirty := "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		v += " " + bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if rev != "" {
		v += " " + rev[:min(12, len(rev))]
		if dirty {
			v += "+dirty"
		}
	}
	v += " " + runtime.Version()
	if rev == "" || dirty {
		v += " build " + contentID()
	}
	return v
}

// contentID identifies the running executable by its content: the last
// part of the Go build ID, which the linker computes from the binary and
// writes in an ELF note (read in microseconds); elsewhere, or when the note
// cannot be read, the start of the executable's sha256 (tens of
// milliseconds), or "unknown".
func contentID() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	if id := elfBuildID(path); id != "" {
		return id[strings.LastIndexByte(id, '/')+1:]
	}
	return executableHash(path)
}

// elfBuildID reads the Go build ID note of an ELF file, "" when it has
// none: a note header (name size, description size, type), the name "Go"
// padded to 4 bytes, then the ID.
func elfBuildID(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil {
		return ""
	}
	data, err := sec.Data()
	if err != nil || len(data) < 16 || string(data[12:16]) != "Go\x00\x00" {
		return ""
	}
	n := f.ByteOrder.Uint32(data[4:8])
	if uint64(n) > uint64(len(data)-16) {
		return ""
	}
	return string(data[16 : 16+n])
}

// executableHash is the start of a file's sha256, or "unknown" when it
// cannot be read.
func executableHash(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
