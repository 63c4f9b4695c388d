package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The table the README shows for its first command is the one the
// specification's model gives (the golden file).
func TestREADMEShowsTheGoldenTable(t *testing.T) {
	const prompt = "$ routelab compare --scenario straggler\n"
	doc := readme(t)
	i := strings.Index(doc, prompt)
	if i < 0 {
		t.Fatalf("README.md shows no %q", strings.TrimSpace(prompt))
	}
	shown := doc[i+len(prompt):]
	shown = shown[:strings.Index(shown, "```")]
	if want := readGolden(t, "compare-straggler-default.txt"); shown != want {
		t.Errorf("README.md shows\n%s\nroutelab compare --scenario straggler prints\n%s", shown, want)
	}
}

// The README's figure is what the command it names draws.
func TestREADMEFigureIsTheCommandsOwn(t *testing.T) {
	const command = "routelab compare --scenario straggler --svg straggler.svg"
	if !strings.Contains(readme(t), "`"+command+"` draws it") {
		t.Fatalf("README.md does not say %q draws its figure", command)
	}
	path := filepath.Join(t.TempDir(), "straggler.svg")
	var stdout, stderr strings.Builder
	if code := run(context.Background(), []string{"compare", "--scenario", "straggler", "--svg", path}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "images", "straggler.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s draws %d bytes that differ from docs/images/straggler.svg (%d bytes); run go generate ./internal/docgen", command, len(got), len(want))
	}
}

// gettingStarted is the README's set-up: what a new user types, in order.
var gettingStarted = []string{
	"git clone … && cd routelab",
	"go run ./cmd/routelab compare --scenario straggler",
	"go test ./...",
	"go install ./cmd/routelab",
	`export PATH="$(go env GOPATH)/bin:$PATH"`,
	"routelab compare --scenario straggler",
	"routelab install",
}

// The README's set-up works in the order written, as on a fresh machine
// with Go installed: a new HOME and GOPATH, so nothing of this machine's
// user is read or written (the module and build caches are shared, which
// only saves downloading and compiling). The clone is this checkout, and
// `go test ./...` is the command running this test, so both are skipped.
func TestREADMEGettingStartedWorksInOrder(t *testing.T) {
	block := regexp.MustCompile("(?s)## Get started\n.*?```sh\n(.*?)```").FindStringSubmatch(readme(t))
	if block == nil {
		t.Fatal("README.md has no sh block under '## Get started'")
	}
	var commands []string
	for _, line := range strings.Split(strings.TrimSpace(block[1]), "\n") {
		cmd, _, _ := strings.Cut(line, "  #")
		commands = append(commands, strings.TrimSpace(cmd))
	}
	if strings.Join(commands, "\n") != strings.Join(gettingStarted, "\n") {
		t.Fatalf("README.md's set-up is\n%s\nthis test runs\n%s", strings.Join(commands, "\n"), strings.Join(gettingStarted, "\n"))
	}
	script := "set -e\n" + strings.Join(commands[1:2], "\n") + "\n" + strings.Join(commands[3:], "\n") + "\n"
	home := t.TempDir()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = freshUserEnv(t, home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's set-up failed: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "straggler — 3 replicas, 100 req/s, 10 seeds"); n != 2 {
		t.Errorf("the set-up printed the straggler table %d times, want 2 (go run, then the installed binary):\n%s", n, out)
	}
	spec := filepath.Join(home, ".local", "share", "jupyter", "kernels", "routelab", "kernel.json")
	if data, err := os.ReadFile(spec); err != nil || !strings.Contains(string(data), filepath.Join(home, "go", "bin", "routelab")) {
		t.Errorf("routelab install wrote no kernelspec naming the installed binary at %s: %v %s", spec, err, data)
	}
}

// freshUserEnv is the test's environment as a new user's: HOME is home,
// GOPATH its default under it, no Jupyter or XDG directories, and a PATH
// without any GOPATH/bin, but the same go command and caches.
func freshUserEnv(t *testing.T, home string) []string {
	t.Helper()
	goTool, err := exec.LookPath("go") // go test puts its own go command first on PATH
	if err != nil {
		t.Fatal(err)
	}
	cache := func(name string) string {
		out, err := exec.Command(goTool, "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	env := []string{
		"HOME=" + home, "PATH=" + filepath.Dir(goTool) + ":/usr/bin:/bin",
		"GOMODCACHE=" + cache("GOMODCACHE"), "GOCACHE=" + cache("GOCACHE"), "GOFLAGS=" + cache("GOFLAGS"),
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k == "GOPROXY" || k == "GOTOOLCHAIN" || k == "TMPDIR" {
			env = append(env, kv)
		}
	}
	return env
}
