package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime"
	"runtime/debug"
)

// buildVersion names the build of routelab that is running, for shard
// files: merge refuses shards of different builds, since their runs may
// differ. It is the module version, the git commit the binary was built
// from and the Go version; when the commit cannot vouch for the source (no
// version control information, or uncommitted changes) it adds the sha256
// of the executable itself, so two different builds never share a name.
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
		v += " binary " + executableHash()
	}
	return v
}

// executableHash is the start of the running executable's sha256, or
// "unknown" when it cannot be read.
func executableHash() string {
	path, err := os.Executable()
	if err != nil {
		return "unknown"
	}
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
