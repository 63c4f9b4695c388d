package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/experiment"
)

func golden(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// --baseline adds the paired table after the specification's, which keeps
// every byte.
func TestCompareBaselineText(t *testing.T) {
	out, stderr, code := runCLI(t, "compare", "--scenario", "straggler", "--baseline", "latency-aware")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	spec := golden(t, "compare-straggler-default.txt")
	rest, ok := strings.CutPrefix(out, spec+"\n")
	if !ok {
		t.Fatalf("the specification's table changed or is not first:\n%s", out)
	}
	for _, want := range []string{
		"paired against latency-aware on straggler: policy − baseline on each seed's identical workload, 10 seeds; mean and 95 % paired t-interval",
		"adaptive         p99 (ms)     10     -0.3        [-2.5, +1.9]     6       4     0        0.48  not distinguishable from zero at 95 %",
		"round-robin         p99 (ms)     10  +1209.2  [+1024.8, +1393.7]     0      10     0        1.00  worse",
		"identical on every seed",
	} {
		if !strings.Contains(rest, want) {
			t.Errorf("paired table lacks %q:\n%s", want, rest)
		}
	}
	if strings.Count(rest, "\n") != 2+3*len(experiment.PairedMetricKeys())+1 {
		t.Errorf("paired table: want a headline, a header, %d rows and a note:\n%s", 3*len(experiment.PairedMetricKeys()), rest)
	}
}

// The JSON with --baseline is the golden JSON plus "paired"; the CSV has a
// row per policy and metric.
func TestCompareBaselineJSONAndCSV(t *testing.T) {
	out, stderr, code := runCLI(t, "compare", "--scenario", "straggler", "--baseline", "latency-aware", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got, want map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(golden(t, "compare-straggler-default.json")), &want); err != nil {
		t.Fatal(err)
	}
	rows, _ := got["paired"].([]any)
	if len(rows) != 3*len(experiment.PairedMetricKeys()) {
		t.Errorf("%d paired records", len(rows))
	}
	delete(got, "paired")
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Error("--baseline --json changed the comparison's own JSON")
	}
	csv, _, code := runCLI(t, "compare", "--scenario", "straggler", "--baseline", "latency-aware", "--csv-paired", "--bootstrap")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if code != 0 || len(lines) != 1+3*len(experiment.PairedMetricKeys()) || !strings.Contains(lines[1], ",latency-aware,round-robin,bootstrap,") {
		t.Errorf("exit %d, CSV:\n%s", code, csv)
	}
	again, _, _ := runCLI(t, "compare", "--scenario", "straggler", "--baseline", "latency-aware", "--csv-paired", "--bootstrap", "--workers", "1")
	if again != csv {
		t.Error("bootstrap intervals differ between runs or worker counts")
	}
}

func TestSweepAndStudyBaseline(t *testing.T) {
	out, stderr, code := runCLI(t, "sweep", "--scenario", "burst", "--rates", "100,250", "--seeds", "3", "--baseline", "least-queue", "--csv-paired")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 1+2*3*len(experiment.PairedMetricKeys()) || !strings.HasPrefix(lines[0], "rate_rps,metric,") || !strings.HasPrefix(lines[len(lines)-1], "250,") {
		t.Errorf("exit %d (%s), sweep CSV:\n%s", code, stderr, out)
	}
	text, _, _ := runCLI(t, "sweep", "--scenario", "burst", "--rates", "100,250", "--seeds", "3", "--baseline", "least-queue")
	if strings.Count(text, "paired against least-queue on burst @ ") != 2 {
		t.Errorf("want a paired table per point:\n%s", text)
	}
	study := filepath.Join("..", "..", "examples", "study.json")
	out, stderr, code = runCLI(t, "study", study, "--baseline", "latency-aware")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rest, ok := strings.CutPrefix(out, golden(t, "study.txt")+"\n")
	if !ok {
		t.Fatalf("the study's table changed or is not first:\n%s", out)
	}
	for _, want := range []string{"uncertainty over seeds", "std err", "selection margin, adaptive(c=0.5) − adaptive(c=0.35) (runner-up):", "paired against latency-aware on the exploration weight study's validation"} {
		if !strings.Contains(rest, want) {
			t.Errorf("study --baseline lacks %q:\n%s", want, rest)
		}
	}
}

// Bad paired flags fail before anything runs, with one line naming the
// flag, the value and what is allowed.
func TestPairedFlagErrors(t *testing.T) {
	study := filepath.Join("..", "..", "examples", "study.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--baseline", "oracle"}, `routelab: --baseline: "oracle" is not allowed (want one of the compared policies: round-robin, least-queue, latency-aware, adaptive)`},
		{[]string{"compare", "--baseline", "adaptive", "--seeds", "1"}, "routelab: --seeds: 1 is not allowed (want at least 2 seeds for an interval)"},
		{[]string{"compare", "--baseline", "adaptive", "--policies", "adaptive"}, `routelab: --policies: "only the baseline" is not allowed (want at least one policy besides the baseline "adaptive")`},
		{[]string{"compare", "--bootstrap"}, "routelab: --bootstrap needs --baseline NAME"},
		{[]string{"compare", "--metrics", "p95_ms"}, "routelab: --metrics needs --baseline NAME"},
		{[]string{"compare", "--baseline", "adaptive", "--metrics", "p95_ms,p95_ms"}, `routelab: --metrics: "p95_ms" is not allowed (want each metric once)`},
		{[]string{"sweep", "--csv-paired", "--rates", "100"}, "routelab: --csv-paired needs --baseline NAME"},
		{[]string{"compare", "--baseline", "adaptive", "--csv"}, "routelab: --baseline with --csv: the paired statistics go to the text table, --json or --csv-paired, not --csv"},
		{[]string{"study", study, "--baseline", "p2c"}, `routelab: --baseline: "p2c" is not allowed (want one of the compared policies: round-robin, least-queue, latency-aware, adaptive)`},
		{[]string{"study", study, "--baseline", "adaptive", "--csv"}, "routelab: --baseline with --csv: the paired statistics go to the text table or --json, not --csv"},
	} {
		out, stderr, code := runCLI(t, c.args...)
		if code == 0 || out != "" || stderr != c.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, stderr, c.want)
		}
	}
}

// --metrics chooses what the paired table reports, in its order; a name
// that is not a directed metric is refused with them all and the nearest.
func TestCompareBaselineMetrics(t *testing.T) {
	out, stderr, code := runCLI(t, "compare", "--seeds", "3", "--baseline", "round-robin", "--policies", "round-robin,least-queue", "--metrics", "max_ms,p50_ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	i, j := strings.Index(out, "least-queue  max (ms)"), strings.Index(out, "least-queue  p50 (ms)")
	if i < 0 || j < i || strings.Contains(out[i:], "p99 (ms)") {
		t.Errorf("paired table is not max then p50 alone:\n%s", out)
	}
	_, stderr, code = runCLI(t, "compare", "--baseline", "round-robin", "--metrics", "p95")
	if code == 0 || !strings.HasPrefix(stderr, `routelab: --metrics: "p95" is not allowed (want a metric with a better direction: shed, unfinished,`) || !strings.HasSuffix(stderr, `; did you mean "p95_ms"?`+"\n") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
