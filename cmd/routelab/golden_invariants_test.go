package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// What the golden files say must hold on its own: the specification's
// scenarios and protocol, exact accounting in every run, summaries that are
// the medians of their runs, tables that show the JSON's numbers, and a
// study whose selection and scores follow from its runs. A golden file
// rewritten with -update from a broken model fails here.

// record is one JSON object of a golden file; JSON null is NaN.
type record map[string]any

func (r record) num(t *testing.T, k string) float64 {
	t.Helper()
	switch v := r[k].(type) {
	case float64:
		return v
	case nil:
		return math.NaN()
	}
	t.Fatalf("%s is %v, not a number", k, r[k])
	return 0
}

func (r record) str(k string) string { s, _ := r[k].(string); return s }

// comparisonDoc is a comparison as `compare --json` writes it (and each
// point of `sweep --json`).
type comparisonDoc struct {
	Scenario     record   `json:"scenario"`
	Protocol     record   `json:"protocol"`
	Seeds        []uint64 `json:"seeds"`
	Fingerprints []string `json:"workload_fingerprints"`
	Policies     []record `json:"policies"`
	Runs         []record `json:"runs"`
}

func decodeGolden(t *testing.T, file string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(readGolden(t, file)), v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// The specification's scenario times and replica speeds.
var specEvents = map[string]string{
	"steady":    "",
	"burst":     "6000 scale-rate 0 2; 9000 scale-rate 0 1",
	"straggler": "5000 slow 1 5; 10000 restore 1 0",
	"failure":   "6000 fail 2 0; 10000 recover 2 0",
}

var specSpeeds = map[string][]float64{"default": {8, 11, 16}, "high": {6, 11, 24}}

func TestGoldenCompareInvariants(t *testing.T) {
	for _, scn := range specScenarios {
		for _, h := range specHeterogeneities {
			base := "compare-" + scn + "-" + h
			t.Run(base, func(t *testing.T) {
				var doc comparisonDoc
				decodeGolden(t, base+".json", &doc)
				checkSpecScenario(t, doc.Scenario, scn, h, 100)
				if !slices.Equal(doc.Seeds, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
					t.Errorf("seeds %v, want 1..10", doc.Seeds)
				}
				checkComparison(t, doc)
				checkTextTable(t, readGolden(t, base+".txt"), doc)
			})
		}
	}
}

// checkSpecScenario requires the scenario and the protocol of the
// specification: three replicas at the heterogeneity's speeds, Poisson
// arrivals at rate, queues of 50, the scenario's events at their times.
func checkSpecScenario(t *testing.T, s record, name, het string, rate float64) {
	t.Helper()
	var speeds []float64
	for _, v := range s["speeds_ms"].([]any) {
		speeds = append(speeds, v.(float64))
	}
	var events []string
	evs, _ := s["events"].([]any) // steady has none
	for _, v := range evs {
		e := record(v.(map[string]any))
		events = append(events, fmt.Sprintf("%g %s %g %g", e.num(t, "at_ms"), e.str("kind"), zeroIfNaN(e["replica"]), zeroIfNaN(e["value"])))
	}
	if s.str("name") != name || s.num(t, "rate_rps") != rate || !slices.Equal(speeds, specSpeeds[het]) ||
		s.num(t, "queue_cap") != 50 || s.str("arrivals") != "poisson" || strings.Join(events, "; ") != specEvents[name] {
		t.Errorf("scenario is not the specification's %s/%s at %g req/s: %v", name, het, rate, s)
	}
}

func zeroIfNaN(v any) float64 {
	if f, ok := v.(float64); ok {
		return f
	}
	return 0
}

// checkComparison checks the protocol, every run and every summary.
func checkComparison(t *testing.T, doc comparisonDoc) {
	t.Helper()
	want := record{"warmup_ms": 3000.0, "measure_ms": 12000.0, "slo_ms": 50.0}
	if !reflect.DeepEqual(doc.Protocol, want) {
		t.Errorf("protocol %v, want %v", doc.Protocol, want)
	}
	n := len(doc.Seeds)
	if len(doc.Runs) != len(doc.Policies)*n {
		t.Fatalf("%d runs for %d policies × %d seeds", len(doc.Runs), len(doc.Policies), n)
	}
	for i, r := range doc.Runs {
		where := fmt.Sprintf("run %d", i)
		checkRun(t, where, r, 12)
		if r.str("policy") != doc.Policies[i/n].str("policy") || uint64(r.num(t, "seed")) != doc.Seeds[i%n] {
			t.Errorf("%s is %s seed %v, out of policy-major seed order", where, r.str("policy"), r["seed"])
		}
		if doc.Fingerprints != nil && r.str("workload_fingerprint") != doc.Fingerprints[i%n] {
			t.Errorf("%s: fingerprint %s, its seed's is %s", where, r.str("workload_fingerprint"), doc.Fingerprints[i%n])
		}
		if first := doc.Runs[i%n]; r.str("workload_fingerprint") != first.str("workload_fingerprint") {
			t.Errorf("%s: seed %v gave %s a different workload than %s", where, r["seed"], r.str("policy"), first.str("policy"))
		}
	}
	for p, s := range doc.Policies {
		checkSummary(t, s, doc.Runs[p*n:(p+1)*n])
	}
}

// checkRun checks one run's accounting: cohort arrivals = completed + shed
// + unfinished, and every rate is its ratio of counts.
func checkRun(t *testing.T, where string, r record, measureSeconds float64) {
	t.Helper()
	n := func(k string) float64 { return r.num(t, k) }
	if n("cohort_arrivals") != n("completed")+n("shed")+n("unfinished") {
		t.Errorf("%s breaks conservation: %v", where, r)
	}
	if n("slo_misses") != n("completed")-n("on_time") || n("on_time") > n("completed") {
		t.Errorf("%s: %v on time and %v misses of %v completed", where, n("on_time"), n("slo_misses"), n("completed"))
	}
	for _, c := range []struct {
		k    string
		a, b float64
	}{
		{"attainment", n("on_time"), n("cohort_arrivals")},
		{"shed_rate", n("shed"), n("cohort_arrivals")},
		{"slo_miss_rate", n("slo_misses"), n("completed")},
		{"goodput_rps", n("on_time"), measureSeconds},
	} {
		if got := n(c.k); got != c.a/c.b {
			t.Errorf("%s: %s = %v, want %v/%v", where, c.k, got, c.a, c.b)
		}
	}
	ps := []float64{n("p50_ms"), n("p90_ms"), n("p95_ms"), n("p99_ms"), n("max_ms")}
	if !(ps[0] > 0) || !slices.IsSorted(ps) || n("mean_ms") > n("max_ms") {
		t.Errorf("%s: percentiles out of order: %v, mean %v", where, ps, n("mean_ms"))
	}
}

// checkSummary recomputes a policy's summary from its runs: medians (the
// mean of the middle two for an even count, runs without latency left out),
// the p99 range and the mean attainment.
func checkSummary(t *testing.T, s record, runs []record) {
	t.Helper()
	col := func(k string) []float64 {
		var out []float64
		for _, r := range runs {
			out = append(out, r.num(t, k))
		}
		return out
	}
	for _, k := range []string{"cohort_arrivals", "completed", "shed", "unfinished", "on_time", "mean_ms", "p50_ms", "p90_ms", "p95_ms",
		"p99_ms", "slo_miss_rate", "shed_rate", "attainment", "goodput_rps", "throughput_rps"} {
		mk := "median_" + k
		if want := medianOf(col(k)); s.num(t, mk) != want {
			t.Errorf("%s: %s = %v, the median of its runs is %v", s.str("policy"), mk, s.num(t, mk), want)
		}
	}
	p99 := col("p99_ms")
	var sum float64
	for _, a := range col("attainment") {
		sum += a
	}
	if s.num(t, "p99_min_ms") != slices.Min(p99) || s.num(t, "p99_max_ms") != slices.Max(p99) ||
		s.num(t, "mean_attainment") != sum/float64(len(runs)) || s.num(t, "runs") != float64(len(runs)) {
		t.Errorf("%s: range, mean attainment or run count differ from its runs: %v", s.str("policy"), s)
	}
}

func medianOf(xs []float64) float64 {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// checkTextTable requires the text table to show the JSON summaries: its
// title, and per policy the rounded medians, range and rates.
func checkTextTable(t *testing.T, text string, doc comparisonDoc) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	title := fmt.Sprintf("%s — 3 replicas, %g req/s, %d seeds, 3 s warm-up + 12 s measured, SLO 50 ms",
		doc.Scenario.str("name"), doc.Scenario.num(t, "rate_rps"), len(doc.Seeds))
	if len(lines) != len(doc.Policies)+3 || lines[0] != title {
		t.Fatalf("table has %d lines, title %q; want %d lines, title %q", len(lines), lines[0], len(doc.Policies)+3, title)
	}
	for i, s := range doc.Policies {
		n := func(k string) float64 { return s.num(t, k) }
		want := []string{s.str("policy"), f1(n("median_p50_ms")), f1(n("median_p90_ms")), f1(n("median_p99_ms")),
			f1(n("p99_min_ms")) + "–" + f1(n("p99_max_ms")), pct(n("median_slo_miss_rate")),
			fmt.Sprintf("%.0f", n("median_shed")), fmt.Sprintf("%.0f", n("median_unfinished")),
			pct(n("median_attainment")), f1(n("median_goodput_rps")), f1(n("median_throughput_rps"))}
		if got := strings.Fields(lines[i+2]); !slices.Equal(got, want) {
			t.Errorf("table row %v, JSON says %v", got, want)
		}
	}
}

func f1(x float64) string  { return fmt.Sprintf("%.1f", x) }
func pct(x float64) string { return fmt.Sprintf("%.2f%%", 100*x) }

// The CSV files hold exactly the JSON's records, column for column.
func TestGoldenTablesInvariants(t *testing.T) {
	var cmp comparisonDoc
	decodeGolden(t, "compare-straggler-default.json", &cmp)
	checkCSV(t, "compare-straggler-default.csv", cmp.Runs)
	checkCSV(t, "compare-straggler-default.summary.csv", cmp.Policies)

	var sweep struct {
		XName  string   `json:"x_name"`
		Points []record `json:"points"`
	}
	decodeGolden(t, "sweep-burst.json", &sweep)
	var runs []record
	tables := strings.Split(readGolden(t, "sweep-burst.txt"), "\n\n")
	if sweep.XName != "rate_rps" || len(sweep.Points) != 2 || len(tables) != 3 {
		t.Fatalf("sweep: x %q, %d points, %d tables", sweep.XName, len(sweep.Points), len(tables)-1)
	}
	for i, pt := range sweep.Points {
		raw, _ := json.Marshal(pt)
		var doc comparisonDoc
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		doc.Protocol = record{"warmup_ms": 3000.0, "measure_ms": 12000.0, "slo_ms": 50.0}
		doc.Seeds = []uint64{1, 2, 3}
		rate := pt.num(t, "rate_rps")
		checkSpecScenario(t, doc.Scenario, "burst", "default", rate)
		if pt.str("label") != fmt.Sprintf("burst @ %g req/s", rate) {
			t.Errorf("point %d label %q", i, pt.str("label"))
		}
		checkComparison(t, doc)
		checkTextTable(t, tables[i]+"\n", doc)
		for _, r := range doc.Runs {
			runs = append(runs, record{"rate_rps": rate}.with(r))
		}
	}
	checkCSV(t, "sweep-burst.csv", runs)
}

// with is r's fields after the receiver's one field (CSV column order is
// checked against the header, so only the values matter here).
func (r record) with(more record) record {
	out := record{}
	for k, v := range more {
		out[k] = v
	}
	for k, v := range r {
		out[k] = v
	}
	return out
}

// checkCSV requires one CSV row per record, each cell the record's value as
// the CSV writer formats it (empty for null).
func checkCSV(t *testing.T, file string, recs []record) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(readGolden(t, file))).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(rows) != len(recs)+1 {
		t.Fatalf("%s: %d rows for %d records", file, len(rows)-1, len(recs))
	}
	for i, r := range recs {
		if len(rows[0]) != len(r) {
			t.Fatalf("%s: %d columns, the record has %d fields", file, len(rows[0]), len(r))
		}
		for j, name := range rows[0] {
			if got, want := rows[i+1][j], csvCell(r[name]); got != want {
				t.Errorf("%s row %d: %s = %q, JSON has %q", file, i+1, name, got, want)
			}
		}
	}
}

func csvCell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// studyDoc is the study as `study --json` writes it.
type studyDoc struct {
	Config      record   `json:"config"`
	Development []record `json:"development"`
	SelectedC   float64  `json:"selected_c"`
	Validation  []record `json:"validation"`
	Runs        []record `json:"runs"`
}

// The study: the shipped configuration, separate seed sets, every run's
// accounting, common random numbers across all of a condition's runs, and
// scores, selection and table that follow from the runs.
func TestGoldenStudyInvariants(t *testing.T) {
	var doc studyDoc
	decodeGolden(t, "study.json", &doc)
	shipped, err := os.ReadFile(filepath.Join("..", "..", "examples", "study.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg record
	if err := json.Unmarshal(shipped, &cfg); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(doc.Config, cfg) {
		t.Fatalf("config %v is not examples/study.json %v", doc.Config, cfg)
	}
	list := func(k string) []any { return cfg[k].([]any) }
	for _, d := range list("development_seeds") {
		if slices.Contains(list("validation_seeds"), d) {
			t.Errorf("seed %v is both a development and a validation seed", d)
		}
	}
	conds := len(list("rates_rps")) * len(list("heterogeneity")) * len(list("scenarios"))
	dev := len(list("weights")) * conds * len(list("development_seeds"))
	if len(doc.Runs) != dev+len(list("policies"))*conds*len(list("validation_seeds")) {
		t.Fatalf("%d runs", len(doc.Runs))
	}
	fingerprints := map[string]string{}
	for i, r := range doc.Runs {
		checkRun(t, fmt.Sprintf("run %d", i), r, 12)
		key := fmt.Sprintf("%v/%v/%v/%v", r["scenario"], r["heterogeneity"], r["rate_rps"], r["seed"])
		if fp, ok := fingerprints[key]; ok && fp != r.str("workload_fingerprint") {
			t.Errorf("run %d (%s): a different workload than another run of that condition and seed", i, key)
		}
		fingerprints[key] = r.str("workload_fingerprint")
		if phase := map[bool]string{true: "development", false: "validation"}[i < dev]; r.str("phase") != phase {
			t.Errorf("run %d is in phase %q, want %q", i, r.str("phase"), phase)
		}
	}
	checkStudyScores(t, doc, doc.Runs[:dev], doc.Runs[dev:])
	checkStudyText(t, readGolden(t, "study.txt"), doc)
}

// checkStudyScores recomputes every score as the mean over conditions of
// the mean attainment over seeds, and the selection as the first best weight.
func checkStudyScores(t *testing.T, doc studyDoc, dev, val []record) {
	t.Helper()
	best := math.Inf(-1)
	var selected float64
	for _, s := range doc.Development {
		c := s.num(t, "c")
		want, runs := studyScore(t, dev, func(r record) bool { return r.num(t, "c") == c })
		if s.num(t, "mean_attainment") != want || s.num(t, "runs") != float64(runs) {
			t.Errorf("weight %v: score %v over %v runs, its runs give %v over %d", c, s["mean_attainment"], s["runs"], want, runs)
		}
		if want > best {
			best, selected = want, c
		}
	}
	if doc.SelectedC != selected {
		t.Errorf("selected c = %v, the best development score is c = %v", doc.SelectedC, selected)
	}
	for _, s := range doc.Validation {
		name := s.str("name")
		want, runs := studyScore(t, val, func(r record) bool { return r.str("policy") == name })
		if s.num(t, "mean_attainment") != want || s.num(t, "runs") != float64(runs) {
			t.Errorf("%s: score %v over %v runs, its runs give %v over %d", name, s["mean_attainment"], s["runs"], want, runs)
		}
		wantC := math.NaN()
		if name == "adaptive" {
			wantC = doc.SelectedC
		}
		if c := s.num(t, "c"); c != wantC && !(math.IsNaN(c) && math.IsNaN(wantC)) {
			t.Errorf("%s validated with c = %v, want %v", name, c, wantC)
		}
	}
}

// studyScore is the mean over conditions (in order of first appearance) of
// the mean attainment over the kept runs of that condition.
func studyScore(t *testing.T, runs []record, keep func(record) bool) (float64, int) {
	t.Helper()
	var order []string
	per := map[string][]float64{}
	n := 0
	for _, r := range runs {
		if !keep(r) {
			continue
		}
		key := fmt.Sprintf("%v/%v/%v", r["rate_rps"], r["heterogeneity"], r["scenario"])
		if _, ok := per[key]; !ok {
			order = append(order, key)
		}
		per[key] = append(per[key], r.num(t, "attainment"))
		n++
	}
	var means []float64
	for _, k := range order {
		means = append(means, mean(per[k]))
	}
	return mean(means), n
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// checkStudyText requires the table to show the JSON's scores and selection.
func checkStudyText(t *testing.T, text string, doc studyDoc) {
	t.Helper()
	for _, s := range doc.Development {
		row := fmt.Sprintf("%g  %.4f%%  %v", s.num(t, "c"), 100*s.num(t, "mean_attainment"), s["runs"])
		if s.num(t, "c") == doc.SelectedC {
			row += "  ← selected"
		}
		if !containsFields(text, row) {
			t.Errorf("study table lacks the row %q", row)
		}
	}
	for _, s := range doc.Validation {
		name := s.str("name")
		if name == "adaptive" {
			name = fmt.Sprintf("adaptive (c=%g)", doc.SelectedC)
		}
		if row := fmt.Sprintf("%s  %.4f%%  %v", name, 100*s.num(t, "mean_attainment"), s["runs"]); !containsFields(text, row) {
			t.Errorf("study table lacks the row %q", row)
		}
	}
}

// containsFields reports whether a line of text has row's fields, whatever
// the padding between them.
func containsFields(text, row string) bool {
	want := strings.Join(strings.Fields(row), " ")
	for _, line := range strings.Split(text, "\n") {
		if strings.Join(strings.Fields(line), " ") == want {
			return true
		}
	}
	return false
}

// The serving goldens hold on their own too: exact accounting in every run,
// a workload that is the same for every policy seed by seed (common random
// numbers), serving figures in their ranges, and each policy's median TTFT
// p99 the median of its runs'.
func TestGoldenServingInvariants(t *testing.T) {
	for _, c := range servingCases() {
		var doc comparisonDoc
		decodeGolden(t, c.file, &doc)
		if doc.Scenario.str("name") != c.args[2] || len(doc.Runs) != len(doc.Policies)*len(doc.Seeds) {
			t.Fatalf("%s: scenario %q, %d runs of %d policies on %d seeds", c.file, doc.Scenario.str("name"), len(doc.Runs), len(doc.Policies), len(doc.Seeds))
		}
		fingerprint := map[float64]any{}
		ttft := map[string][]float64{}
		for _, r := range doc.Runs {
			cohort, done, shed, open := r.num(t, "cohort_arrivals"), r.num(t, "completed"), r.num(t, "shed"), r.num(t, "unfinished")
			if cohort != done+shed+open {
				t.Errorf("%s %s seed %v: cohort %v != completed %v + shed %v + unfinished %v", c.file, r.str("policy"), r["seed"], cohort, done, shed, open)
			}
			seed := r.num(t, "seed")
			if f, ok := fingerprint[seed]; ok && f != r["workload_fingerprint"] {
				t.Errorf("%s seed %v: %s saw another workload", c.file, seed, r.str("policy"))
			}
			fingerprint[seed] = r["workload_fingerprint"]
			for _, k := range []string{"serving_attainment", "prefix_hit_rate"} {
				if x := r.num(t, k); !(x >= 0 && x <= 1) {
					t.Errorf("%s %s seed %v: %s = %v", c.file, r.str("policy"), seed, k, x)
				}
			}
			if p50, p99 := r.num(t, "ttft_p50_ms"), r.num(t, "ttft_p99_ms"); !(p50 > 0 && p50 <= p99) {
				t.Errorf("%s %s seed %v: TTFT p50 %v, p99 %v", c.file, r.str("policy"), seed, p50, p99)
			}
			ttft[r.str("policy")] = append(ttft[r.str("policy")], r.num(t, "ttft_p99_ms"))
		}
		for _, p := range doc.Policies {
			xs := slices.Clone(ttft[p.str("policy")])
			slices.Sort(xs)
			n := len(xs)
			median := (xs[(n-1)/2] + xs[n/2]) / 2
			if got := p.num(t, "median_ttft_p99_ms"); math.Abs(got-median) > 1e-9*math.Max(1, median) {
				t.Errorf("%s %s: median TTFT p99 %v, its runs' median %v", c.file, p.str("policy"), got, median)
			}
		}
	}
}
