package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// shardCase is an experiment run whole and in shards, and the output flags
// whose outputs must agree byte for byte.
type shardCase struct {
	name    string
	args    []string
	outputs [][]string
}

// shardCases are compare, sweep and study, with built-in policies and with
// a policy file. Every case has at least 7 runs in each round.
func shardCases(t *testing.T) []shardCase {
	study := writeStudyFile(t)
	tables := [][]string{nil, {"--json"}, {"--csv"}, {"--csv-summary"}}
	paired := func(baseline string, csv bool) [][]string {
		out := [][]string{{"--baseline", baseline}, {"--json", "--baseline", baseline, "--bootstrap"}}
		if csv {
			out = append(out, []string{"--csv-paired", "--baseline", baseline})
		}
		return out
	}
	compare := []string{"compare", "--scenario", "failure", "--heterogeneity", "high", "--seeds", "3", "--rate", "150"}
	sweep := []string{"sweep", "--scenario", "burst", "--rates", "100,250", "--seeds", "2"}
	scn, err := engine.BuiltinScenario("straggler", 175, engine.HighHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	scn.Events = append(scn.Events, engine.Event{At: 9000, Kind: engine.EventFail, Replica: 1})
	scenarioFile := writeScenarioFile(t, t.TempDir(), "session.json", scn)
	return []shardCase{
		{"compare", compare, append(slices.Clip(tables), paired("least-queue", true)...)},
		{"compare-scripted", append(slices.Clip(compare), "--policies", "least-queue,"+scriptedPolicies+",adaptive"), append(slices.Clip(tables), paired("adaptive", false)...)},
		{"compare-scenario-file", []string{"compare", "--scenario-file", scenarioFile, "--seeds", "2"}, tables[:2]},
		{"compare-serving", []string{"compare", "--scenario", "chat", "--seeds", "3", "--policies", "least-queue,llm-d,sglang"}, tables[:3]},
		{"sweep", sweep, append(slices.Clip(tables), paired("round-robin", true)...)},
		{"sweep-scripted", append(slices.Clip(sweep), "--policies", scriptedPolicies+",round-robin"), tables},
		{"study", []string{"study", study}, append(slices.Clip(tables[:3]), paired("least-queue", false)...)},
		{"study-scripted", []string{"study", study, "--policies", scriptedPolicies}, tables[:3]},
	}
}

// runShards runs the experiment in count shards, in process, and returns
// the shard files: for a study, both rounds.
func runShards(t *testing.T, dir string, args []string, count int) []string {
	t.Helper()
	round := func(prefix string, extra ...string) []string {
		var files []string
		for i := 1; i <= count; i++ {
			file := filepath.Join(dir, fmt.Sprintf("%s-%d.json", prefix, i))
			mustRun(t, append(slices.Clip(args), append(extra, "--shard", fmt.Sprintf("%d/%d", i, count), "--out", file)...)...)
			files = append(files, file)
		}
		return files
	}
	if args[0] != "study" {
		return round("shard")
	}
	dev := round("dev")
	return append(dev, round("val", "--development", filepath.Join(dir, "dev-*.json"))...)
}

// Compare, sweep and study split into 1, 2, 3 and 7 shards, with built-in
// policies and with a policy file, merge into the unsharded command's
// outputs byte for byte: the table, --json, --csv, --csv-summary, --table
// (text; compare's and study's LaTeX and Markdown in 3 shards), and with
// --baseline the paired statistics (table, JSON, --csv-paired).
func TestMergedEqualsUnsharded(t *testing.T) {
	for _, c := range shardCases(t) {
		t.Run(c.name, func(t *testing.T) {
			want := map[string]string{}
			for _, out := range c.outputs {
				want[strings.Join(out, " ")] = mustRun(t, append(slices.Clip(c.args), out...)...)
			}
			for _, count := range []int{1, 2, 3, 7} {
				dir := t.TempDir()
				files := runShards(t, dir, c.args, count)
				for _, out := range c.outputs {
					got := mustRun(t, append(append([]string{"merge"}, files...), out...)...)
					if w := want[strings.Join(out, " ")]; got != w {
						t.Errorf("%d shards, merge %v: differs from the unsharded output at %s", count, out, firstDifference(got, w))
					}
				}
				table, out := filepath.Join(dir, "table.txt"), filepath.Join(dir, "merged.json")
				if stdout := mustRun(t, append([]string{"merge", "--table", table, "--json", "--out", out}, files...)...); stdout != "" {
					t.Errorf("merge --out wrote %d bytes to stdout", len(stdout))
				}
				if got := read(t, table); got != want[""] {
					t.Errorf("%d shards: --table differs from the unsharded table at %s", count, firstDifference(got, want[""]))
				}
				if got := read(t, out); got != want["--json"] {
					t.Errorf("%d shards: --json --out differs from the unsharded JSON at %s", count, firstDifference(got, want["--json"]))
				}
				if c.args[0] != "sweep" && count == 3 {
					checkMergedTables(t, dir, c.args, files)
				}
			}
		})
	}
}

// checkMergedTables compares merge --table F.md and F.tex with the
// unsharded command's.
func checkMergedTables(t *testing.T, dir string, args, files []string) {
	t.Helper()
	for _, ext := range []string{".md", ".tex"} {
		whole, merged := filepath.Join(dir, "whole"+ext), filepath.Join(dir, "merged"+ext)
		mustRun(t, append(slices.Clip(args), "--table", whole)...)
		mustRun(t, append([]string{"merge", "--table", merged}, files...)...)
		if got, want := read(t, merged), read(t, whole); got != want || want == "" {
			t.Errorf("merge --table %s differs from the unsharded table at %s", ext, firstDifference(got, want))
		}
	}
}

// The figures of a merge are drawn from the runs' summaries: the
// comparison, sweep and study figures are the unsharded command's byte for
// byte, and so are the sweep's and the study's pages; a comparison's report
// is the unsharded report without its latency CDF, and the merge says so.
func TestMergedFiguresEqualUnsharded(t *testing.T) {
	for _, c := range shardCases(t) {
		if strings.HasSuffix(c.name, "-scripted") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			whole := map[string]string{"svg": filepath.Join(dir, "whole.svg"), "html": filepath.Join(dir, "whole.html")}
			merged := map[string]string{"svg": filepath.Join(dir, "merged.svg"), "html": filepath.Join(dir, "merged.html")}
			mustRun(t, append(slices.Clip(c.args), "--svg", whole["svg"], "--html", whole["html"])...)
			files := runShards(t, dir, c.args, 3)
			_, stderr, code := runCLI(t, append(append([]string{"merge"}, files...), "--svg", merged["svg"], "--html", merged["html"])...)
			if code != 0 {
				t.Fatalf("merge: exit %d: %s", code, stderr)
			}
			if got, want := read(t, merged["svg"]), read(t, whole["svg"]); got != want {
				t.Errorf("SVG differs from the unsharded one at %s", firstDifference(got, want))
			}
			wantHTML := read(t, whole["html"])
			if c.args[0] == "compare" {
				wantHTML = withoutLastFigure(t, wantHTML)
				if !strings.Contains(stderr, "merge: the report leaves out the latency CDF: shards keep each run's summary, not its latencies\n") {
					t.Errorf("the merge does not say the report has no latency CDF: %q", stderr)
				}
			}
			if got := read(t, merged["html"]); got != wantHTML {
				t.Errorf("HTML differs from the unsharded page at %s", firstDifference(got, wantHTML))
			}
		})
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// withoutLastFigure removes a comparison report's last figure, the latency
// CDF, checking that it is one.
func withoutLastFigure(t *testing.T, page string) string {
	t.Helper()
	start := strings.LastIndex(page, "<figure>\n")
	end := strings.LastIndex(page, "</figure>\n")
	if start < 0 || end < start || !strings.Contains(page[start:end], "latency-cdf") || strings.Count(page, "<figure>") != 2 {
		t.Fatalf("the unsharded report's figures are not the comparison and the latency CDF")
	}
	return page[:start] + page[end+len("</figure>\n"):]
}

// A merge refuses shards that do not make one whole experiment, naming the
// shards involved, and writes nothing.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	compare := []string{"compare", "--scenario", "steady", "--seeds", "3"}
	three := runShards(t, filepath.Join(dir), compare, 3)
	other := filepath.Join(dir, "other-seeds.json")
	mustRun(t, append(slices.Clip(compare[:3]), "--seeds", "4", "--shard", "2/3", "--out", other)...)
	four := filepath.Join(dir, "four.json")
	mustRun(t, append(slices.Clip(compare), "--shard", "2/4", "--out", four)...)
	rebuilt := filepath.Join(dir, "rebuilt.json")
	writeEdited(t, three[1], rebuilt, `"routelab_version": "`, `"routelab_version": "another build `)
	truncated := filepath.Join(dir, "truncated.json")
	data := read(t, three[2])
	os.WriteFile(truncated, []byte(data[:len(data)*2/3]), 0o644)
	comparison := filepath.Join(dir, "comparison.json")
	os.WriteFile(comparison, []byte(mustRun(t, append(slices.Clip(compare), "--json")...)), 0o644)
	csvFile := filepath.Join(dir, "runs.csv")
	os.WriteFile(csvFile, []byte(mustRun(t, append(slices.Clip(compare), "--csv")...)), 0o644)
	for _, c := range []struct {
		files []string
		want  string
	}{
		{three[:2], "merge: 1 of 3 shards missing: 3 (have " + three[0] + ", " + three[1] + ")"},
		{[]string{three[0]}, "merge: 2 of 3 shards missing: 2, 3 (have " + three[0] + ")"},
		{[]string{three[0], three[1], three[1], three[2]}, "merge: shard 2/3 appears twice: " + three[1] + " and " + three[1]},
		{[]string{three[0], other, three[2]}, "merge: shards of different experiments: " + three[0] + ", " + three[2] + " (config sha256 "},
		{[]string{three[0], four, three[2]}, "merge: shards of different splits: " + three[0] + " is shard 1/3, " + four + " is shard 2/4"},
		{[]string{three[0], rebuilt, three[2]}, "merge: shards made by different builds of routelab: " + three[0] + ", " + three[2] + " (made by routelab "},
		{[]string{three[0], three[1], truncated}, "merge: " + truncated + ": truncated: its JSON stops after"},
		{nil, "merge: no shard files given (want routelab merge SHARD.json…"},
		{[]string{filepath.Join(dir, "absent.json")}, "merge: open " + filepath.Join(dir, "absent.json") + ": no such file or directory"},
		{[]string{dir}, "merge: read " + dir + ": is a directory"},
		{[]string{filepath.Join(dir, "nothing-*.json")}, `merge: no file matches "` + filepath.Join(dir, "nothing-*.json") + `"`},
		{[]string{comparison}, "merge: " + comparison + `: not a shard file: its "format" is missing, not "routelab-shard"`},
		{[]string{csvFile}, "merge: " + csvFile + ": not a shard file (not a JSON object)"},
	} {
		table, html, json := filepath.Join(dir, "table.txt"), filepath.Join(dir, "report.html"), filepath.Join(dir, "merged.json")
		out, stderr, code := runCLI(t, append([]string{"merge", "--json", "--out", json, "--table", table, "--html", html}, c.files...)...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("merge %v: exit %d, stderr %q, want one line containing %q", c.files, code, stderr, c.want)
		}
		if out != "" {
			t.Errorf("merge %v wrote %d bytes to stdout", c.files, len(out))
		}
		for _, f := range []string{table, html, json} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("merge %v wrote %s", c.files, f)
			}
		}
	}
}

// writeEdited copies a file with one replacement, which must apply.
func writeEdited(t *testing.T, from, to, old, replacement string) {
	t.Helper()
	data := read(t, from)
	if !strings.Contains(data, old) {
		t.Fatalf("%s has no %q", from, old)
	}
	if err := os.WriteFile(to, []byte(strings.Replace(data, old, replacement, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A study merges only with both rounds, and its validation shards must
// have run the weight its development shards select.
func TestMergeStudyRefuses(t *testing.T) {
	dir := t.TempDir()
	files := runShards(t, dir, []string{"study", writeStudyFile(t)}, 2)
	dev, val := files[:2], files[2:]
	wrongC := filepath.Join(dir, "wrong-c.json")
	writeEdited(t, val[1], wrongC, `"selected_c": 0.35`, `"selected_c": 0`)
	for _, c := range []struct {
		files []string
		args  []string
		want  string
	}{
		{dev, nil, "merge: a study needs its development and its validation shards; " + dev[0] + ", " + dev[1] + " are development shards only"},
		{val, nil, "are validation shards only"},
		{[]string{dev[0], val[0], val[1]}, nil, "merge: development: 1 of 2 shards missing: 2"},
		{[]string{dev[0], dev[1], val[0], wrongC}, nil, "merge: " + wrongC + " ran the validation with c = 0, but the development shards " + dev[0] + ", " + dev[1] + " select c = 0.35"},
		{files, []string{"--csv-summary"}, "merge: --csv-summary: a study has no per-policy summary CSV (want --json or --csv)"},
	} {
		out, stderr, code := runCLI(t, append(append([]string{"merge"}, c.files...), c.args...)...)
		if code == 0 || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("merge %v: exit %d, stdout %d bytes, stderr %q, want %q", c.files, code, len(out), stderr, c.want)
		}
	}
}

// Bad --shard values and flags that do not go with a shard are refused
// before anything runs, naming the allowed form.
func TestShardFlagErrors(t *testing.T) {
	clearArrayEnv(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "s.json")
	study := writeStudyFile(t)
	form := "(want i/n with 1 <= i <= n, such as 2/7; or auto, or auto/n, inside a Kubernetes Indexed Job, a Slurm array or an AWS Batch array job)"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--shard", "0/3", "--out", out}, `--shard: "0/3" is not allowed ` + form},
		{[]string{"compare", "--shard", "4/3", "--out", out}, `--shard: "4/3" is not allowed ` + form},
		{[]string{"compare", "--shard", "a/b", "--out", out}, `--shard: "a/b" is not allowed ` + form},
		{[]string{"sweep", "--shard", "3", "--out", out}, `--shard: "3" is not allowed ` + form},
		{[]string{"study", study, "--shard", "-1/2", "--out", out}, `--shard: "-1/2" is not allowed ` + form},
		{[]string{"compare", "--shard", "auto", "--out", out}, "--shard auto: no job-array environment (none of JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX is set); want i/n with 1 <= i <= n"},
		{[]string{"compare", "--shard", "auto/4", "--out", out}, "--shard auto/4: no job-array environment"},
		{[]string{"compare", "--shard", "1/2"}, "--shard needs --out FILE"},
		{[]string{"compare", "--out", out}, "--out goes with --shard"},
		{[]string{"study", study, "--development", out}, "--development goes with --shard"},
		{[]string{"compare", "--shard", "1/2", "--out", out, "--json"}, "--json does not go with --shard: a shard writes only its file (--out); routelab merge writes tables, figures and paired statistics (merge --json)"},
		{[]string{"study", study, "--shard", "1/2", "--out", out, "--baseline", "least-queue"}, "--baseline does not go with --shard: a shard writes only its file (--out); routelab merge writes tables, figures and paired statistics (merge --baseline)"},
		{[]string{"sweep", "--shard", "1/2", "--out", out, "--svg", "x.svg"}, "--svg does not go with --shard"},
		{[]string{"compare", "--shard", "1/2", "--out", out, "--table", "x.md"}, "--table does not go with --shard"},
		{[]string{"compare", "--seeds", "1", "--shard", "5/8", "--out", out}, `shard: "5/8" is not allowed (want at most 4 shards: the experiment has 4 runs)`},
		{[]string{"compare", "--policies", "adaptive,oracle"}, `policy: "oracle" is not allowed (want one of ` + strings.Join(engine.PolicyNames(), ", ") + `, or a policy file FILE.go)`},
		{[]string{"study", study, "--policies", "adaptive"}, `--policies: "adaptive" is not a policy file FILE.go`},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q, want one line containing %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused shard wrote %s", out)
	}
}

// clearArrayEnv unsets the job-array variables for the test.
func clearArrayEnv(t *testing.T) {
	for _, name := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
		"SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE"} {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
}

// A validation shard needs every development shard of its own study:
// others are refused, naming them.
func TestDevelopmentRefuses(t *testing.T) {
	dir := t.TempDir()
	study := writeStudyFile(t)
	files := runShards(t, dir, []string{"study", study}, 2)
	other := filepath.Join(dir, "other.json")
	mustRun(t, "study", study, "--policies", scriptedPolicies, "--shard", "2/2", "--out", other)
	out := filepath.Join(dir, "val.json")
	for _, c := range []struct {
		development []string
		want        string
	}{
		{files[:1], "--development: 1 of 2 shards missing: 2 (have " + files[0] + ")"},
		{[]string{files[0], other}, "--development: " + other + " is a shard of another experiment (config sha256 "},
		{[]string{files[0], files[1], files[2]}, "--development: " + files[2] + ": a validation shard with 0 development attainments"},
		{[]string{filepath.Join(dir, "none-*.json")}, `--development: no file matches "` + filepath.Join(dir, "none-*.json") + `"`},
	} {
		args := []string{"study", study, "--shard", "1/2", "--out", out, "--development", strings.Join(c.development, ",")}
		if _, stderr, code := runCLI(t, args...); code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("--development %v: exit %d, stderr %q, want %q", c.development, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("a refused validation shard wrote %s", out)
		}
	}
}

// A merge refuses the outputs its command does not have, before writing
// anything: a sweep's LaTeX or Markdown table, a study's --csv-paired, a
// --baseline that was not compared.
func TestMergeRefusesOutputs(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"sweep", "study"} {
		os.Mkdir(filepath.Join(dir, sub), 0o755)
	}
	sweep := runShards(t, filepath.Join(dir, "sweep"), []string{"sweep", "--scenario", "steady", "--rates", "100,200", "--seeds", "2"}, 2)
	study := runShards(t, filepath.Join(dir, "study"), []string{"study", writeStudyFile(t)}, 2)
	table := filepath.Join(dir, "table.md")
	for _, c := range []struct {
		args []string
		want string
	}{
		{append([]string{"--table", table}, sweep...), "--table " + table + ": a sweep has no LaTeX or Markdown table"},
		{append([]string{"--csv-paired", "--baseline", "adaptive"}, study...), "merge: --csv-paired: a study writes its paired statistics in the text table or --json"},
		{append([]string{"--baseline", "p2c"}, sweep...), `merge: --baseline: "p2c" is not allowed (want one of the compared policies:`},
	} {
		out, stderr, code := runCLI(t, append([]string{"merge"}, c.args...)...)
		if code == 0 || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("merge %v: exit %d, stdout %d bytes, stderr %q, want %q", c.args, code, len(out), stderr, c.want)
		}
		if _, err := os.Stat(table); err == nil {
			t.Fatalf("merge %v wrote %s", c.args, table)
		}
	}
}
