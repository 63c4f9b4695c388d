package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A command refuses the output files it could not or should not write
// before it runs anything: a missing directory, a directory, one file for
// two flags, a file it reads, another format's extension. Nothing reaches
// standard output and the files it names are left as they were.
func TestOutputFilesCheckedFirst(t *testing.T) {
	clearArrayEnv(t)
	dir := t.TempDir()
	quick := []string{"--seeds", "2", "--warmup", "0.1", "--measure", "0.2", "--policies", "adaptive,p2c"}
	var shards []string
	for i := 1; i <= 2; i++ {
		s := filepath.Join(dir, fmt.Sprintf("s%d.json", i))
		if _, stderr, code := runCLI(t, slices.Concat([]string{"compare", "--shard", fmt.Sprintf("%d/2", i), "--out", s}, quick)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		shards = append(shards, s)
	}
	nb := filepath.Join(dir, "nb.ipynb")
	page := filepath.Join(dir, "page")
	if err := os.WriteFile(nb, []byte(`{"cells":[],"metadata":{},"nbformat":4,"nbformat_minor":5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	study := writeStudyFile(t)
	before := map[string][]byte{}
	for _, f := range append([]string{nb, study}, shards...) {
		before[f], _ = os.ReadFile(f)
	}
	missing := filepath.Join(dir, "no-such-dir", "x")
	compare := append([]string{"compare"}, quick...)
	merge := append([]string{"merge"}, shards...)
	for _, c := range []struct {
		args []string
		want string
	}{
		{slices.Concat(compare, []string{"--svg", missing + ".svg"}), "--svg " + missing + ".svg: directory " + filepath.Dir(missing) + " does not exist (want a file in an existing directory)"},
		{slices.Concat(compare, []string{"--table", missing + ".md"}), "--table " + missing + ".md: directory " + filepath.Dir(missing) + " does not exist"},
		{slices.Concat(compare, []string{"--html", dir}), "--html " + dir + ": is a directory (want a file name)"},
		{slices.Concat(compare, []string{"--html", page, "--svg", page}), "--svg " + page + ": --html writes this file too (want a file for each)"},
		{slices.Concat(compare, []string{"--svg", page + ".png"}), "--svg " + page + ".png: .png is another format's extension (want a .svg file)"},
		{slices.Concat(compare, []string{"--html", page + ".svg"}), "--html " + page + ".svg: .svg is another format's extension (want a .html or .htm file)"},
		{slices.Concat(compare, []string{"--shard", "1/2", "--out", missing + ".json"}), "--out " + missing + ".json: directory " + filepath.Dir(missing) + " does not exist"},
		{[]string{"sweep", "--rates", "50", "--pdf", missing + ".pdf"}, "--pdf " + missing + ".pdf: directory"},
		{[]string{"study", study, "--png", missing + ".png"}, "--png " + missing + ".png: directory"},
		{[]string{"study", study, "--shard", "1/2", "--out", study}, "--out " + study + ": the command reads this file (want another file)"},
		{[]string{"study", study, "--shard", "1/2", "--development", filepath.Join(dir, "s*.json"), "--out", shards[1]}, "--out " + shards[1] + ": the command reads this file"},
		{slices.Concat(merge, []string{"--out", shards[0]}), "merge: --out " + shards[0] + ": the command reads this file (want another file)"},
		{slices.Concat(merge, []string{"--table", shards[1]}), "merge: --table " + shards[1] + ": the command reads this file"},
		{slices.Concat(merge, []string{"--out", page, "--table", page}), "merge: --table " + page + ": --out writes this file too"},
		{slices.Concat(merge, []string{"--out", missing + ".txt"}), "merge: --out " + missing + ".txt: directory"},
		{[]string{"run", nb, "--html", nb}, "--html " + nb + ": .ipynb is another format's extension"},
		{[]string{"run", nb, "-o", page, "--html", page}, "--output " + page + ": --html writes this file too"},
		{[]string{"run", nb, "-o", missing + ".ipynb"}, "--output " + missing + ".ipynb: directory"},
		{[]string{"run", nb, "--timeout", "-5s"}, "--timeout: -5s is not allowed (want a duration >= 0, such as 90s; 0: no limit)"},
	} {
		stdout, stderr, code := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want one line on stderr containing %q", c.args, code, stdout, stderr, c.want)
		}
	}
	for f, b := range before {
		if now, _ := os.ReadFile(f); !bytes.Equal(now, b) {
			t.Errorf("a refused command changed %s", f)
		}
	}
	if _, err := os.Stat(page); err == nil {
		t.Errorf("a refused command wrote %s", page)
	}
}
