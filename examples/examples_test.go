// Package examples_test runs every example both ways a user can — through
// the notebook session (`routelab exec`) and as a compiled Go program — so
// the examples cannot rot, and checks that both print the same text and
// write the same files. Both run from another directory: an example finds
// its data beside itself and writes into the directory it names.
package examples_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// expect lists what each example must print besides its files: the policies
// and findings it is about. A new example needs an entry here.
var expect = map[string][]string{
	"compare":         {"straggler", "round-robin", "least-queue", "latency-aware", "adaptive", "p2c", "median SLO attainment"},
	"custom-policy":   {"residual-wait", "idle-first", "idle-first − latency-aware, per seed:", "had the lower p99 in", "paired against latency-aware on straggler", "idle-first  attainment (pp)"},
	"incident":        {"at 8s: fail replica 1", "at 10s: recover replica 1", "adaptive on incident, seed 1", "replica 3:"},
	"rate-sweep":      {"capacity about 278 req/s", "round-robin", "adaptive", "median p99 latency across seeds"},
	"stateful-policy": {"latency-aware+probes", "share of requests sent to replica 1", "straggler"},
	"trace-replay":    {"arrivals: a trace of 1239 requests", "round-robin", "latency-aware"},
}

// minSize is the least a written file of each kind can plausibly be: pages
// inline the chart library (about 1 MB), SVG figures are tens of KB.
var minSize = map[string]int{".html": 500_000, ".svg": 5_000, ".csv": 500}

func TestExamples(t *testing.T) {
	mains, err := filepath.Glob(filepath.Join("*", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(mains) < 4 {
		t.Fatalf("found %d examples, want at least 4", len(mains))
	}
	bin := build(t)
	for _, main := range mains {
		name := filepath.Dir(main)
		t.Run(name, func(t *testing.T) {
			want, ok := expect[name]
			if !ok {
				t.Fatalf("no expectations for examples/%s: add an entry to expect", name)
			}
			interp := runInterpreted(t, bin, name)
			compiled := runCompiled(t, bin, name)
			t.Logf("routelab exec: %v, compiled: %v", interp.took.Round(time.Millisecond), compiled.took.Round(time.Millisecond))

			for _, s := range want {
				if !strings.Contains(interp.stdout, s) {
					t.Errorf("routelab exec output lacks %q:\n%s", s, interp.stdout)
				}
			}
			checkFiles(t, interp)
			// The interpreter runs the same compiled engine; the scripts' own
			// arithmetic has no multiply-add Go could fuse, so the output is
			// identical to the last bit.
			if interp.stdout != compiled.stdout {
				t.Errorf("routelab exec and the compiled program printed different text:\n--- exec\n%s\n--- compiled\n%s", interp.stdout, compiled.stdout)
			}
			if !slices.Equal(names(interp.files), names(compiled.files)) {
				t.Errorf("routelab exec wrote %v, the compiled program %v", names(interp.files), names(compiled.files))
			}
			for f, data := range interp.files {
				if other, ok := compiled.files[f]; ok && !bytes.Equal(data, other) {
					t.Errorf("%s differs between routelab exec and the compiled program", f)
				}
			}
		})
	}
}

// build compiles the routelab CLI and every example into one directory.
func build(t *testing.T) string {
	t.Helper()
	// go test puts its own go command first on PATH.
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build: %v", err)
	}
	bin := t.TempDir()
	cmd := exec.Command(goTool, "build", "-o", bin+string(filepath.Separator),
		"github.com/routelab/routelab/cmd/routelab", "./...")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// result is one run of an example: what it printed and the files it wrote.
type result struct {
	stdout string
	files  map[string][]byte
	took   time.Duration
}

// defaultOut is the directory the examples write to without ROUTELAB_OUT.
const defaultOut = "routelab-out"

// runInterpreted runs `routelab exec` on the example by a relative path,
// from an empty working directory elsewhere, with no ROUTELAB_* variables:
// the script must find its data beside itself and write its files into
// ./routelab-out, and nothing else into the working directory.
func runInterpreted(t *testing.T, bin, name string) result {
	t.Helper()
	main, err := filepath.Abs(filepath.Join(name, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	rel, err := filepath.Rel(cwd, main)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "routelab"), "exec", rel)
	cmd.Dir, cmd.Env = cwd, cleanEnv()
	res := runCmd(t, cmd)
	if entries := readDir(t, cwd); !slices.Equal(names(entries), []string{defaultOut}) {
		t.Errorf("routelab exec left %v in its working directory, want only %s/", names(entries), defaultOut)
	}
	res.stdout = strings.ReplaceAll(res.stdout, defaultOut+string(filepath.Separator), "")
	res.files = readDir(t, filepath.Join(cwd, defaultOut))
	return res
}

// runCompiled runs the compiled example with ROUTELAB_OUT set, from an empty
// working directory elsewhere that must stay empty: it must find its data
// from its source's location.
func runCompiled(t *testing.T, bin, name string) result {
	t.Helper()
	out, cwd := t.TempDir(), t.TempDir()
	cmd := exec.Command(filepath.Join(bin, name))
	cmd.Dir = cwd
	cmd.Env = append(cleanEnv(), "ROUTELAB_OUT="+out)
	res := runCmd(t, cmd)
	res.stdout = strings.ReplaceAll(res.stdout, out+string(filepath.Separator), "")
	res.files = readDir(t, out)
	if stray := readDir(t, cwd); len(stray) > 0 {
		t.Errorf("the compiled example wrote %v into its working directory instead of $ROUTELAB_OUT", names(stray))
	}
	return res
}

func runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(cmd.Args, " "), err, stdout.String(), stderr.String())
	}
	return result{stdout: stdout.String(), took: time.Since(start)}
}

// cleanEnv is the test's environment without ROUTELAB_* variables.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROUTELAB_") {
			env = append(env, kv)
		}
	}
	return env
}

// readDir reads every entry of dir: a file's contents, nil for a directory.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() {
			files[e.Name()] = nil
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

func names(files map[string][]byte) []string {
	var out []string
	for f := range files {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// wrote matches the file names an example reports writing.
var wrote = regexp.MustCompile(`(?m)^wrote (\S+)(?: and (\S+))?$`)

// remote matches a script, stylesheet or image loaded from the network.
var remote = regexp.MustCompile(`(?i)<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=\s*["']?\s*(https?:)?//|@import\s+(url\()?\s*["']?\s*(https?:)?//|url\(\s*["']?\s*(https?:)?//`)

// checkFiles requires the example to write at least one file, to report
// exactly the files it wrote, and each file to be a plausible page, figure
// or table.
func checkFiles(t *testing.T, res result) {
	t.Helper()
	if len(res.files) == 0 {
		t.Fatal("the example wrote no file")
	}
	var reported []string
	for _, m := range wrote.FindAllStringSubmatch(res.stdout, -1) {
		for _, f := range m[1:] {
			if f != "" {
				reported = append(reported, f)
			}
		}
	}
	slices.Sort(reported)
	if !slices.Equal(reported, names(res.files)) {
		t.Errorf("the example reports writing %v but wrote %v", reported, names(res.files))
	}
	for f, data := range res.files {
		ext := filepath.Ext(f)
		if len(data) < minSize[ext] {
			t.Errorf("%s has %d bytes, want at least %d", f, len(data), minSize[ext])
		}
		switch ext {
		case ".html":
			if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("<!DOCTYPE html>")) || !bytes.Contains(data, []byte("echarts")) {
				t.Errorf("%s is not a page with charts", f)
			}
			if m := remote.Find(data); m != nil {
				t.Errorf("%s loads from the network: %s", f, m)
			}
		case ".svg":
			s := string(bytes.TrimSpace(data))
			if !strings.HasPrefix(s, "<svg") || !strings.HasSuffix(s, "</svg>") || !strings.Contains(s, "<text") {
				t.Errorf("%s is not an SVG figure with text", f)
			}
		case ".csv":
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			if len(lines) < 11 || !strings.Contains(lines[0], "policy") {
				t.Errorf("%s: want a header naming the policy and a row per policy and seed, got %d lines", f, len(lines))
			}
		default:
			t.Errorf("%s: unexpected kind of file", f)
		}
	}
}
