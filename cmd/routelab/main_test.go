package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/testutil"
)

// runCLI runs one command line in process and returns stdout, stderr and the
// exit status.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestCompareText(t *testing.T) {
	out, _, code := runCLI(t, "compare", "--scenario", "straggler", "--seeds", "3")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"straggler — 3 replicas, 100 req/s, 3 seeds", "round-robin", "least-queue", "latency-aware", "adaptive", "p99 range ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// JSON and CSV use one snake_case name per concept.
func TestCompareMachineOutputNames(t *testing.T) {
	out, _, code := runCLI(t, "compare", "--scenario", "burst", "--seeds", "2", "--policies", "adaptive,p2c", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Policies []map[string]any `json:"policies"`
		Runs     []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 4 || len(doc.Policies) != 2 {
		t.Fatalf("%d runs, %d policies", len(doc.Runs), len(doc.Policies))
	}
	for _, k := range []string{"policy", "seed", "cohort_arrivals", "completed", "shed", "unfinished", "on_time", "p50_ms", "p90_ms", "p99_ms", "slo_miss_rate", "attainment", "goodput_rps", "throughput_rps"} {
		if _, ok := doc.Runs[0][k]; !ok {
			t.Errorf("run record lacks %q", k)
		}
	}
	for _, k := range []string{"median_p50_ms", "median_p99_ms", "p99_min_ms", "p99_max_ms", "median_attainment", "median_goodput_rps", "median_shed", "median_unfinished"} {
		if _, ok := doc.Policies[0][k]; !ok {
			t.Errorf("summary record lacks %q", k)
		}
	}
	out, _, _ = runCLI(t, "compare", "--scenario", "burst", "--seeds", "2", "--policies", "adaptive,p2c", "--csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 5 || rows[0][0] != "policy" || rows[1][0] != "adaptive" {
		t.Fatalf("CSV: %v %v", rows, err)
	}
	for i, name := range rows[0] {
		if jsonVal, ok := doc.Runs[0][name]; !ok {
			t.Errorf("CSV column %q is not a JSON field", name)
		} else if s, isStr := jsonVal.(string); isStr && rows[1][i] != s {
			t.Errorf("CSV %s = %q, JSON %q", name, rows[1][i], s)
		}
	}
}

func TestBadInputExitsNonZeroWithClearMessage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--scenario", "nope"}, `scenario: "nope" is not allowed (want one of steady, burst, straggler, failure, chat, sessions, long-context, kv-pressure, hot-prefix, herding, prefix-failure)`},
		{[]string{"compare", "--rate", "-3"}, "rate_rps: -3 is not allowed"},
		{[]string{"compare", "--rate", "NaN"}, "rate_rps: NaN is not allowed"},
		{[]string{"compare", "--policies", "adaptive,oracle"}, `policy: "oracle" is not allowed`},
		{[]string{"compare", "--seeds", "0"}, "--seeds: 0 is not allowed"},
		{[]string{"compare", "--heterogeneity", "wild"}, `heterogeneity: "wild" is not allowed (want default or high)`},
		{[]string{"compare", "--warmup", "20", "--measure", "0"}, "measure_ms: 0 is not allowed"},
		{[]string{"compare", "--warmup", "-1"}, "--warmup -1 (seconds): warmup_ms: -1000 is not allowed (want a finite multiple of 0.5 ms >= 0)"},
		{[]string{"sweep", "--measure", "NaN"}, "--measure NaN (seconds): measure_ms: NaN is not allowed"},
		{[]string{"compare", "--speeds", "8,-1"}, "speeds_ms[1]: -1 is not allowed"},
		{[]string{"compare", "--queue-cap", "0"}, "queue_cap: 0 is not allowed"},
		{[]string{"compare", "--json", "--csv"}, "none of the others can be"},
		{[]string{"compare", "--trace", "/nonexistent.csv"}, "/nonexistent.csv"},
		{[]string{"compare", "--seeds", "1000000000"}, "--seeds: 1000000000 is not allowed (want an integer from 1 to 1000000)"},
		{[]string{"compare", "--seeds", "2", "--first-seed", "18446744073709551615"}, "--first-seed: 18446744073709551615 is not allowed (want an integer from 1 to 18446744073709551614"},
		{[]string{"compare", "--workers", "-1"}, "--workers: -1 is not allowed (want an integer >= 0; 0: one per CPU)"},
		{[]string{"study", "/nonexistent.json", "--workers", "-1"}, "--workers: -1 is not allowed"},
		{[]string{"compare", "--seeds", "1e3"}, `--seeds: "1e3" is not allowed (want an integer)`},
		{[]string{"compare", "--rate", "1e400"}, `--rate: "1e400" is not allowed (out of range; want a number`},
		{[]string{"sweep", "--rates", "50,x"}, `--rates: "50,x" is not allowed (want comma-separated numbers`},
		{[]string{"run", "/nonexistent.ipynb", "--timeout", "soon"}, `--timeout: "soon" is not allowed (want a duration`},
		{[]string{"compare", "--json=maybe"}, `--json: "maybe" is not allowed (want true or false)`},
		{[]string{"sweep", "--rates", "100,50,100"}, "--rates[2]: 100 is not allowed (want distinct rates: it is visited already)"},
		{[]string{"sweep", "--rate", "100"}, "--rate does not go with sweep: it visits the rates of --rates (want --rates 100)"},
		{[]string{"install", "--prefix", t.TempDir(), "--name", ""}, `--name: "" is not allowed (want a kernelspec name of letters, digits, '.', '_' and '-', such as routelab)`},
		{[]string{"study"}, "study: got no arguments (want routelab study FILE.json [flags])"},
		{[]string{"study", "a.json", "b.json"}, `study: got 2 arguments, ["a.json" "b.json"] (want routelab study FILE.json [flags])`},
		{[]string{"compare", "--scenario", "stedy"}, `scenario: "stedy" is not allowed (want one of steady, burst, straggler, failure, chat, sessions, long-context, kv-pressure, hot-prefix, herding, prefix-failure); did you mean "steady"?`},
		{[]string{"compare", "--policies", "least-queue,adaptve"}, `policy: "adaptve" is not allowed (want one of ` + strings.Join(engine.PolicyNames(), ", ") + `, or a policy file FILE.go); did you mean "adaptive"?`},
		{[]string{"compare", "straggler"}, `compare: got 1 argument, "straggler" (want routelab compare [flags])`},
		{[]string{"exec"}, "exec: got no arguments (want routelab exec FILE.go"},
		{[]string{"study", "/nonexistent.json"}, "/nonexistent.json"},
		{[]string{"sweep", "--rates", ""}, "--rates"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"help", "frobnicate"}, `help: "frobnicate" is not a command (want one of compare, completion, console, exec, install, kernel, list, merge, run, study, sweep)`},
		{[]string{"kernel", "/nonexistent-connection.json"}, "connection file /nonexistent-connection.json does not exist"},
		{[]string{"run", "/nonexistent.ipynb"}, "/nonexistent.ipynb"},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q, want one line containing %q", c.args, code, stderr, c.want)
		}
	}
}

func TestCompareReplaysTrace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.csv")
	var b strings.Builder
	b.WriteString("arrival_ms,prompt_tokens,output_tokens\n")
	for i := 0; i < 1500; i++ {
		b.WriteString(strconv.Itoa(i*10) + ",300,100\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "compare", "--trace", path, "--seeds", "2", "--csv-summary")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Arrivals every 10 ms from 0 to 14990 ms: the cohort (3000, 15000] holds
	// 3010..14990, exactly 1199 requests.
	if !strings.Contains(out, "round-robin,2,2,1199,") {
		t.Errorf("trace cohort is not 1199:\n%s", out)
	}
	bad := filepath.Join(dir, "bad.csv")
	_ = os.WriteFile(bad, []byte("0,1,1\n5,x,1\n"), 0o644)
	if _, stderr, code := runCLI(t, "compare", "--trace", bad); code == 0 || !strings.Contains(stderr, "bad.csv:2: prompt_tokens \"x\"") {
		t.Errorf("bad trace: exit %d, %q", code, stderr)
	}
}

func TestStudyCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "study.json")
	cfg := `{"name":"tiny","rates_rps":[150],"heterogeneity":["high"],"scenarios":["straggler","failure"],
	  "weights":[0,0.35],"development_seeds":[1,2],"validation_seeds":[9,10],
	  "policies":["least-queue","adaptive"],"protocol":{"warmup_ms":3000,"measure_ms":12000,"slo_ms":50}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "study", path)
	if code != 0 || !strings.Contains(out, "tiny study: 2 conditions") || !strings.Contains(out, "selected") {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	out, _, _ = runCLI(t, "study", path, "--csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 1+2*2*2+2*2*2 || rows[0][0] != "phase" {
		t.Fatalf("study CSV: %d rows, %v", len(rows), err)
	}
}

// The shipped study file is the specification's protocol.
func TestShippedStudyFileIsTheSpecification(t *testing.T) {
	data, err := os.ReadFile("../../examples/study.json")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	n := func(k string) int { return len(cfg[k].([]any)) }
	if n("rates_rps")*n("heterogeneity")*n("scenarios") != 24 || n("weights") != 6 || n("development_seeds") != 8 || n("validation_seeds") != 24 {
		t.Fatalf("examples/study.json is not the 24 × 6 × 8 / 24 protocol: %v", cfg)
	}
}

// Malformed connection files and notebooks are one positioned line.
func TestBadKernelAndNotebookFiles(t *testing.T) {
	dir := t.TempDir()
	conn := filepath.Join(dir, "conn.json")
	os.WriteFile(conn, []byte(`{"shell_port": "x"`), 0o644)
	scheme := filepath.Join(dir, "md5.json")
	os.WriteFile(scheme, []byte(`{"transport":"tcp","ip":"127.0.0.1","shell_port":1,"iopub_port":2,"stdin_port":3,"control_port":4,"hb_port":5,"key":"k","signature_scheme":"hmac-md5"}`), 0o644)
	nb := filepath.Join(dir, "bad.ipynb")
	os.WriteFile(nb, []byte(`{"cells": [}`), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"kernel", conn}, "conn.json: invalid JSON at line 1, column"},
		{[]string{"kernel", scheme}, `signature_scheme "hmac-md5" is not supported`},
		{[]string{"run", nb}, "bad.ipynb: invalid JSON at line 1, column 12"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q, want one line containing %q", c.args, code, stderr, c.want)
		}
	}
}

// Figures from the command line: a standalone report, SVG, PNG and PDF.
func TestCompareWritesFigures(t *testing.T) {
	dir := t.TempDir()
	html, svg := filepath.Join(dir, "r.html"), filepath.Join(dir, "c.svg")
	args := []string{"compare", "--scenario", "failure", "--seeds", "3", "--policies", "round-robin,adaptive", "--html", html, "--svg", svg}
	png, pdf := "", ""
	if testutil.HaveChromium(t) {
		png, pdf = filepath.Join(dir, "c.png"), filepath.Join(dir, "c.pdf")
		args = append(args, "--png", png, "--pdf", pdf)
	}
	_, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkWrote(t, stderr, html, svg, png, pdf)
	page, _ := os.ReadFile(html)
	if !bytes.Contains(page, []byte("<table")) || !bytes.Contains(page, []byte("adaptive")) || bytes.Contains(page, []byte("src=\"http")) {
		t.Errorf("report page is not a self-contained report (%d bytes)", len(page))
	}
	doc, _ := os.ReadFile(svg)
	if err := xml.Unmarshal(doc, new(struct{})); err != nil || !bytes.Contains(doc, []byte("round-robin")) {
		t.Errorf("SVG does not parse or lacks the policies: %v", err)
	}
	if png != "" {
		data, _ := os.ReadFile(png)
		if len(data) < 10000 || !bytes.HasPrefix(data, []byte("\x89PNG")) {
			t.Errorf("PNG of %d bytes", len(data))
		}
		data, _ = os.ReadFile(pdf)
		if len(data) < 10000 || !bytes.HasPrefix(data, []byte("%PDF-")) {
			t.Errorf("PDF of %d bytes", len(data))
		}
	}
}

// --table writes the summary table as LaTeX or Markdown by extension and
// leaves standard output exactly what it is without it.
func TestCompareWritesTables(t *testing.T) {
	dir := t.TempDir()
	base := []string{"compare", "--scenario", "straggler", "--seeds", "2"}
	plain, _, _ := runCLI(t, base...)
	for name, want := range map[string]string{"t.tex": "\\toprule\n", "t.md": "| round-robin |"} {
		path := filepath.Join(dir, name)
		out, stderr, code := runCLI(t, append(base, "--table", path)...)
		if code != 0 || out != plain {
			t.Errorf("--table %s: exit %d, %s; stdout changed: %v", name, code, stderr, out != plain)
		}
		if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), want) {
			t.Errorf("%s: %v\n%s", name, err, data)
		}
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "t.txt"), "t.txt: unknown extension (want .tex for LaTeX or .md for Markdown)"},
		{filepath.Join(dir, "missing", "t.tex"), "--table " + filepath.Join(dir, "missing", "t.tex") + ": directory " + filepath.Join(dir, "missing") + " does not exist"},
	} {
		if _, stderr, code := runCLI(t, append(base, "--table", c.path)...); code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("--table %s: exit %d, stderr %q, want %q", c.path, code, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("left in the directory: %v", entries)
	}
}

// With --baseline the table file holds the paired table after the summary;
// study --table writes the scores, then the paired table.
func TestTablesOfPairedAndStudy(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args  []string
		heads []string
	}{
		{[]string{"compare", "--scenario", "straggler", "--seeds", "3", "--baseline", "latency-aware"}, []string{"| policy | runs |", "| policy | metric | seeds | mean Δ |"}},
		{[]string{"study", "../../examples/study.json", "--baseline", "latency-aware"}, []string{"| c | mean attainment |", "| policy | mean attainment |", "| policy | metric | seeds | mean Δ |"}},
	} {
		path := filepath.Join(dir, c.args[0]+".md")
		_, stderr, code := runCLI(t, append(c.args, "--table", path)...)
		data, err := os.ReadFile(path)
		if code != 0 || err != nil {
			t.Fatalf("%v: exit %d, %s, %v", c.args, code, stderr, err)
		}
		at := 0
		for _, h := range c.heads {
			i := strings.Index(string(data[at:]), h)
			if i < 0 {
				t.Errorf("%s: no table headed %q after byte %d:\n%s", path, h, at, data)
				break
			}
			at += i + len(h)
		}
	}
}

// checkWrote requires stderr to be one "wrote PATH (SIZE)" line per file
// written, in order, with its size.
func checkWrote(t *testing.T, stderr string, paths ...string) {
	t.Helper()
	var want []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, "wrote "+p+" ("+byteSize(int(st.Size()))+")")
	}
	if got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("stderr says\n%s\nwant\n%s", stderr, strings.Join(want, "\n"))
	}
}

// sweep and study say which files they wrote, as compare does.
func TestSweepAndStudySayWhatTheyWrote(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "sweep.svg")
	if _, stderr, code := runCLI(t, "sweep", "--scenario", "steady", "--rates", "100,200", "--seeds", "2", "--svg", svg); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	} else {
		checkWrote(t, stderr, svg)
	}
	study := filepath.Join(dir, "study.json")
	os.WriteFile(study, []byte(`{"name":"tiny","rates_rps":[150],"heterogeneity":["high"],"scenarios":["straggler"],
	  "weights":[0,0.35],"development_seeds":[1],"validation_seeds":[9],
	  "policies":["adaptive"],"protocol":{"warmup_ms":3000,"measure_ms":12000,"slo_ms":50}}`), 0o644)
	html := filepath.Join(dir, "study.html")
	if _, stderr, code := runCLI(t, "study", study, "--html", html); code != 0 {
		t.Fatalf("study: exit %d: %s", code, stderr)
	} else {
		checkWrote(t, stderr, html)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int]string{0: "0 B", 999: "999 B", 1000: "1 KB", 412_345: "412 KB", 999_499: "999 KB", 999_500: "1.0 MB", 2_345_678: "2.3 MB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// exec runs a script through the session with the environment and the
// script's arguments, and fails with the script's error.
func TestExecScript(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.go")
	os.WriteFile(script, []byte("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tres := lab.Compare(lab.Steady().Seeds(2), lab.LeastQueue())\n\tfmt.Println(os.Getenv(\"ROUTELAB_TEST_VALUE\"), os.Args[1:], res.Policies[0].Name)\n}\n"), 0o644)
	t.Setenv("ROUTELAB_TEST_VALUE", "seen")
	out, stderr, code := runCLI(t, "exec", script, "--", "a", "b")
	if code != 0 || out != "seen [a b] least-queue\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	bad := filepath.Join(dir, "bad.go")
	os.WriteFile(bad, []byte("x := lab.Compare(lab.Steady().Rate(-1), lab.LeastQueue())\n"), 0o644)
	_, stderr, code = runCLI(t, "exec", bad)
	if code == 0 || !strings.Contains(stderr, "ValueError: 1:1: Scenario.Rate: rps: -1 is not allowed") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// A script's os.Exit ends it with that status and no message; an error
// inside a script's main points at the failing line.
func TestExecExitAndErrorPosition(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "exit.go")
	os.WriteFile(script, []byte("package main\n\nimport \"os\"\n\nfunc main() {\n\tos.Exit(3)\n}\n"), 0o644)
	if _, stderr, code := runCLI(t, "exec", script); code != 3 || stderr != "" {
		t.Errorf("os.Exit(3): exit %d, stderr %q", code, stderr)
	}
	bad := filepath.Join(dir, "bad.go")
	os.WriteFile(bad, []byte("package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n\tlab.Compare(lab.Steady().Rate(-1), lab.RoundRobin())\n}\n"), 0o644)
	_, stderr, code := runCLI(t, "exec", bad)
	if code != 1 || !strings.Contains(stderr, "ValueError: 6:2: Scenario.Rate: rps: -1") || !strings.Contains(stderr, "   6 |") || strings.Contains(stderr, "_rl_main") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// A method expression that starts a statement of a script's main is
// rewritten, and the instrumentation's call put before the statement is not:
// the runtime's name there had the same span as `I.m`, so the script was
// refused with "func literal.At undefined" (Go's method7.go).
func TestExecMethodExpressionStatement(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "m.go")
	os.WriteFile(script, []byte("package main\n\nimport \"fmt\"\n\ntype I interface{ m() }\n\ntype S struct{ n *int }\n\nfunc (s S) m() { *s.n++ }\n\ntype T int\n\nfunc (T) M() {}\n\nfunc main() {\n\tn := 0\n\tI.m(S{&n})\n\tT.M(1)\n\tI.m(S{&n})\n\tfmt.Println(n)\n}\n"), 0o644)
	if out, stderr, code := runCLI(t, "exec", script); code != 0 || out != "2\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// A study file is checked before anything runs: its protocol first, then
// seeds that validation shares with development and repeated policies.
func TestStudyFileErrors(t *testing.T) {
	dir := t.TempDir()
	const grid = `"rates_rps":[100],"heterogeneity":["default"],"scenarios":["steady","failure"],"weights":[0.35]`
	const proto = `,"protocol":{"warmup_ms":3000,"measure_ms":12000,"slo_ms":50}`
	for _, c := range []struct{ body, want string }{
		{grid + `,"development_seeds":[1],"validation_seeds":[2],"policies":["adaptive"]`, `protocol: "none" is not allowed`},
		{grid + `,"development_seeds":[1,2],"validation_seeds":[2,3],"policies":["adaptive"]` + proto, "validation_seeds: seed 2 (also in development_seeds)"},
		{grid + `,"development_seeds":[1],"validation_seeds":[2],"policies":["adaptive","adaptive"]` + proto, `policies[1]: "adaptive" is not allowed (want distinct policy names`},
	} {
		path := filepath.Join(dir, "study.json")
		if err := os.WriteFile(path, []byte("{"+c.body+"}"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCLI(t, "study", path)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("exit %d, stderr %q, want one line containing %q", code, stderr, c.want)
		}
	}
}

// routelab list names every built-in policy and scenario with what it does,
// from the engine's registries.
func TestListShowsTheRegistries(t *testing.T) {
	out, stderr, code := runCLI(t, "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, n := range engine.PolicyNames() {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(n) + `\s+` + regexp.QuoteMeta(engine.PolicyAbout(n)) + `$`).MatchString(out) {
			t.Errorf("routelab list shows no line for policy %s:\n%s", n, out)
		}
	}
	for _, n := range engine.ScenarioNames() {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(n) + `\s+` + regexp.QuoteMeta(engine.ScenarioAbout(n)) + `$`).MatchString(out) {
			t.Errorf("routelab list shows no line for scenario %s:\n%s", n, out)
		}
	}
}

// help COMMAND prints what COMMAND --help does; an unknown one is an error
// (TestBadInputExitsNonZeroWithClearMessage), not the root's usage and 0.
func TestHelpCommand(t *testing.T) {
	for _, name := range []string{"compare", "merge", "run"} {
		help, _, code := runCLI(t, "help", name)
		flag, _, _ := runCLI(t, name, "--help")
		if code != 0 || help != flag || !strings.Contains(help, "routelab "+name) {
			t.Errorf("help %s: exit %d, and it differs from %s --help: %v", name, code, name, help != flag)
		}
	}
}
