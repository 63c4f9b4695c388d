package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Policy files on the command line: --policies FILE.go runs the file
// through a dsl session and takes its policies (symbols.LoadPolicyFile).

// scriptedPolicies is a policy file with one policy of each scripted kind,
// one of them randomised.
var scriptedPolicies = filepath.Join("testdata", "policies", "scripted.go")

// mustRun runs a command line in process and returns its stdout.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("routelab %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return out
}

// A policy file's policies run like built-ins, whatever the workers: a
// comparison on one worker and on four gives the same bytes, the
// randomised policy included.
func TestPolicyFileIsDeterministic(t *testing.T) {
	args := []string{"compare", "--scenario", "straggler", "--seeds", "3", "--policies", "least-queue," + scriptedPolicies, "--json"}
	one := mustRun(t, append(args, "--workers", "1")...)
	four := mustRun(t, append(args, "--workers", "4")...)
	if one != four {
		t.Errorf("one worker and four differ at %s", firstDifference(one, four))
	}
	for _, name := range []string{"least-queue", "residual-wait", "random-two", "least-served"} {
		if !strings.Contains(one, `"policy": "`+name+`"`) {
			t.Errorf("the comparison has no policy %q", name)
		}
	}
}

// writeStudyFile writes a small study: 2 conditions, 2 weights × 2
// development seeds (8 runs), 2 policies × 2 validation seeds (8 runs).
func writeStudyFile(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "study.json")
	cfg := `{"name":"tiny","rates_rps":[150],"heterogeneity":["high"],"scenarios":["straggler","failure"],
	  "weights":[0,0.35],"development_seeds":[1,2],"validation_seeds":[9,10],
	  "policies":["least-queue","adaptive"],"protocol":{"warmup_ms":3000,"measure_ms":12000,"slo_ms":50}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A study validates a policy file's policies after its own, and refuses a
// policy name in --policies: its built-ins are in its file.
func TestStudyValidatesPolicyFile(t *testing.T) {
	out := mustRun(t, "study", writeStudyFile(t), "--policies", scriptedPolicies, "--csv")
	for _, name := range []string{"least-queue", "adaptive", "residual-wait", "random-two", "least-served"} {
		if n := strings.Count(out, "\nvalidation,"+name+","); n != 4 {
			t.Errorf("%d validation runs of %s, want 2 conditions × 2 seeds", n, name)
		}
	}
}

// A policy file that fails, or makes no policy, is an error naming it.
func TestPolicyFileErrors(t *testing.T) {
	dir := t.TempDir()
	none := filepath.Join(dir, "none.go")
	os.WriteFile(none, []byte("x := 1\n_ = x\n"), 0o644)
	bad := filepath.Join(dir, "bad.go")
	os.WriteFile(bad, []byte("p := lab.Policy(\"\", nil)\n"), 0o644)
	for _, c := range []struct {
		file, want string
	}{
		{none, "policy file " + none + " makes no policy: declare a top-level variable of type lab.PolicySpec"},
		{bad, "policy file " + bad + ": "},
		{filepath.Join(dir, "absent.go"), "policy file: open " + filepath.Join(dir, "absent.go")},
	} {
		_, stderr, code := runCLI(t, "compare", "--policies", c.file)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.file, code, stderr, c.want)
		}
	}
}

// What a policy file prints goes to stderr, never into --json.
func TestPolicyFileOutputGoesToStderr(t *testing.T) {
	file := filepath.Join(t.TempDir(), "loud.go")
	os.WriteFile(file, []byte("fmt.Println(\"defining\")\np := lab.Policy(\"loud\", func(r lab.Replica) float64 { return float64(r.Outstanding) })\n"), 0o644)
	out, stderr, code := runCLI(t, "compare", "--seeds", "1", "--policies", file, "--json")
	if code != 0 || !strings.Contains(stderr, "defining\n") || strings.Contains(out, "defining") || !bytes.Contains([]byte(out), []byte(`"policy": "loud"`)) {
		t.Errorf("exit %d, stderr %q, stdout starts %.80q", code, stderr, out)
	}
}
