package shardfile

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/internal/testutil"
)

// points is the sweep point of a built-in scenario, labelled by its name.
func points(t testing.TB, name string, rate float64, h engine.Heterogeneity) []experiment.SweepPoint {
	t.Helper()
	s, err := engine.BuiltinScenario(name, rate, h)
	if err != nil {
		t.Fatal(err)
	}
	return []experiment.SweepPoint{{Label: name, Scenario: s}}
}

// smallStudy has 12 development runs (2 conditions, 3 weights, 2 seeds)
// and 18 validation runs (2 conditions, 3 policies, 3 seeds).
func smallStudy() experiment.StudyConfig {
	return experiment.StudyConfig{
		Name: "small", Rates: []float64{150}, Heterogeneity: []string{"default", "high"},
		Scenarios: []string{"straggler"}, Weights: []float64{0, 0.35, 0.1},
		DevelopmentSeeds: []uint64{1, 2}, ValidationSeeds: []uint64{11, 12, 13},
		Policies: []string{"round-robin", "adaptive", "least-queue"},
		Protocol: engine.Protocol{Warmup: 2000, Measure: 8000, SLO: 50},
	}
}

// noSource is the policy files' sha256 of experiments with built-ins only.
func noSource(string) string { return "" }

// shardFileOf runs shard s of a small comparison (one scenario, two
// policies, two seeds: 4 runs) and returns its file's bytes.
func shardFileOf(t testing.TB, s experiment.Shard) []byte {
	t.Helper()
	sw := experiment.Sweep{
		Points:   points(t, "steady", engine.DefaultRate, engine.DefaultHeterogeneity),
		Policies: []engine.PolicySpec{engine.LeastQueue(), engine.Adaptive(engine.DefaultAdaptiveParams())},
		Seeds:    []uint64{1, 2}, Protocol: engine.Protocol{Warmup: 2000, Measure: 8000, SLO: 50},
	}
	return shardBytes(t, s, SweepConfig("compare", sw, noSource), "", nil, func() ([]engine.RunSummary, error) {
		return experiment.RunSweepShard(context.Background(), sw, s)
	})
}

// studyShardOf runs shard s of smallStudy's development phase or, with
// a selected weight, of its validation phase, and returns its file's
// bytes.
func studyShardOf(t testing.TB, s experiment.Shard, selected *float64) []byte {
	t.Helper()
	sc := smallStudy()
	if selected != nil {
		return shardBytes(t, s, StudyConfig(sc, noSource), "validation", selected, func() ([]engine.RunSummary, error) {
			return experiment.RunStudyValidation(context.Background(), sc, *selected, s, 0, nil)
		})
	}
	return shardBytes(t, s, StudyConfig(sc, noSource), "development", nil, func() ([]engine.RunSummary, error) {
		return experiment.RunStudyDevelopment(context.Background(), sc, s, 0, nil)
	})
}

func shardBytes(t testing.TB, s experiment.Shard, cfg Config, phase string, selected *float64, run func() ([]engine.RunSummary, error)) []byte {
	t.Helper()
	runs, err := run()
	if err != nil {
		t.Fatal(err)
	}
	f := &File{Format: Format, FormatVersion: FormatVersion, Version: "test", Phase: phase, Selected: selected, Shard: ID{s.Index, s.Count}}
	if err := f.Fill(cfg, runs); err != nil {
		t.Fatal(err)
	}
	return mustEncode(t, f)
}

func mustEncode(t testing.TB, f *File) []byte {
	t.Helper()
	data, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// oldSchema makes a shard file of format version 1 of a version 2 one: its
// first run's serving figures nested under "serving", as version 1 wrote
// them.
func oldSchema(t testing.TB, data []byte) []byte {
	t.Helper()
	v1 := bytes.Replace(data, []byte(`"format_version": 2`), []byte(`"format_version": 1`), 1)
	i := bytes.Index(v1, []byte(`"throughput_rps":`))
	if i < 0 {
		t.Fatal("no throughput_rps in the file")
	}
	return slices.Concat(v1[:i], []byte(`"serving":{"ttft":{"count":3,"p99_ms":12.5}},`), v1[i:])
}

// Each run of a shard file, of the specification's model and of the
// serving model, reads back as the summary it was written from, every
// float to the bit; the file it reads back as writes the same bytes.
func TestShardFileKeepsEveryRun(t *testing.T) {
	sw := experiment.Sweep{
		Points:   append(points(t, "chat", 24, engine.DefaultHeterogeneity), points(t, "burst", engine.DefaultRate, engine.HighHeterogeneity)...),
		Policies: []engine.PolicySpec{engine.LeastQueue(), engine.PowerOfTwo()},
		Seeds:    []uint64{7, 8}, Protocol: engine.Protocol{Warmup: 2000, Measure: 8000, SLO: 50},
	}
	s := experiment.Shard{Index: 1, Count: 1}
	runs, err := experiment.RunSweepShard(context.Background(), sw, s)
	if err != nil {
		t.Fatal(err)
	}
	serving := 0
	for _, r := range runs {
		if r.Serving != nil {
			serving++
		}
	}
	if serving == 0 || serving == len(runs) {
		t.Fatalf("%d of %d runs of the serving model; want some of each", serving, len(runs))
	}
	f := &File{Format: Format, FormatVersion: FormatVersion, Version: "test", Shard: ID{1, 1}}
	if err := f.Fill(SweepConfig("sweep", sw, noSource), runs); err != nil {
		t.Fatal(err)
	}
	data := mustEncode(t, f)
	back, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	for k := range runs {
		if got := back.Runs[k]; got.Run != k || !testutil.SameBits(got.Summary, runs[k]) {
			t.Errorf("run %d read back as run %d, %+v; want %+v", k, got.Run, got.Summary, runs[k])
		}
	}
	if again := mustEncode(t, back); !bytes.Equal(again, data) {
		t.Errorf("read back and written again, the file differs")
	}
	// One name per field: a run's line starts with its record as compare
	// --json writes it.
	var line map[string]any
	first := data[bytes.Index(data, []byte(`{"run":0,`)):]
	if err := json.Unmarshal(first[:bytes.IndexByte(first, '\n')-1], &line); err != nil {
		t.Fatal(err)
	}
	for _, fld := range engine.RunRecord(&runs[0]) {
		if _, ok := line[fld.Name]; !ok {
			t.Errorf("the shard's run has no %q, which compare --json writes", fld.Name)
		}
	}
}

// A file of the old schema is refused, naming the format version it has
// and the one this build reads, and the first field this version does not
// know; a file that says it is of this version but holds an old field is
// refused naming the field and the version.
func TestReadShardFileRefusesOldSchema(t *testing.T) {
	good := shardFileOf(t, experiment.Shard{Index: 2, Count: 3})
	v1 := oldSchema(t, good)
	written, err := os.ReadFile(filepath.Join("testdata", "version1-chat.json")) // by routelab before version 2
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{v1, `a shard file of format version 1 (run 1: unknown field "serving"): this routelab reads version 2; re-run the shard with it`},
		{written, `a shard file of format version 1 (run 0: unknown field "serving"): this routelab reads version 2; re-run the shard with it`},
		{bytes.Replace(good, []byte(`"format_version": 2`), []byte(`"format_version": 1`), 1), `a shard file of format version 1: this routelab reads version 2; re-run the shard with it`},
		{bytes.Replace(v1, []byte(`"format_version": 1`), []byte(`"format_version": 2`), 1), `not a valid routelab-shard file of format version 2: run 1: unknown field "serving"`},
		{bytes.Replace(good, []byte(`"slo_misses":`), []byte(`"misses":`), 1), `not a valid routelab-shard file of format version 2: run 1: unknown field "misses"`},
		{bytes.Replace(good, []byte(`"format_version": 2`), []byte(`"format_version": 3`), 1), `a shard file of format version 3: this routelab reads version 2`},
	} {
		if _, err := Read(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want an error containing %q", err, c.want)
		}
	}
}

// A shard file that was edited or damaged is refused with what is wrong.
func TestReadShardFileRefusesDamage(t *testing.T) {
	good := string(shardFileOf(t, experiment.Shard{Index: 2, Count: 3}))
	if _, err := Read([]byte(good)); err != nil {
		t.Fatalf("a shard file as written: %v", err)
	}
	edit := func(old, replacement string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("the shard file has no %q", old)
		}
		return strings.Replace(good, old, replacement, 1)
	}
	firstRun := good[strings.Index(good, `"runs": [`):]
	for _, c := range []struct {
		data, want string
	}{
		{"", "empty file, not a shard file"},
		{"  \n", "empty file"},
		{"policy,seed\nadaptive,1\n", "not a shard file (not a JSON object)"},
		{`{"format": "routelab-shard", "format_version": 2`, "truncated: its JSON stops after 48 bytes"},
		{good[:len(good)-3], "truncated"},
		{`{"format": "something-else"}`, `not a shard file: its "format" is "something-else", not "routelab-shard"`},
		{`[1, 2]`, "not a shard file (not a JSON object)"},
		{`{"format": routelab}`, "not a shard file (invalid JSON: invalid character 'r' looking for beginning of value)"},
		{edit(`"seeds": [`, `"seeds": [9, `), "its configuration does not match its config_sha256 (edited or damaged)"},
		{edit(`"index": 2`, `"index": 4`), `shard: "4/3" is not allowed`},
		{edit(`"index": 2`, `"index": 3`), "its run 0 is numbered 1; shard 3/3's run 0 is run 2"},
		{edit(`"count": 3`, `"count": 2`), "holds 1 of the 2 runs of shard 2/2 (truncated, or edited?)"},
		{edit(`"experiment_runs": 4`, `"experiment_runs": 7`), "says the experiment has 7 runs; its configuration has 4"},
		{edit(`"format_version": 2,`, `"format_version": 2, "extra": true,`), `not a valid routelab-shard file of format version 2: json: unknown field "extra"`},
		{edit(`"workload_fingerprint":"`, `"workload_fingerprint":"x`), `run 1: field "workload_fingerprint": got JSON "x`},
		{strings.Replace(good, firstRun, strings.Replace(firstRun, `"run":1,`, `"run":2,`, 1), 1), "its run 0 is numbered 2"},
	} {
		if _, err := Read([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60q…: %v, want an error containing %q", c.data, err, c.want)
		}
	}
}

// The readers never panic; a file Read accepts is whole: it writes
// back to a file the reader accepts with the same runs; ReadHead
// accepts development shards only. Seeds under
// testdata/fuzz/FuzzReadShardFile are regression tests.
func FuzzReadShardFile(f *testing.F) {
	f.Add(shardFileOf(f, experiment.Shard{Index: 1, Count: 2}))
	f.Add(shardFileOf(f, experiment.Shard{Index: 2, Count: 2}))
	f.Add(oldSchema(f, shardFileOf(f, experiment.Shard{Index: 1, Count: 2})))
	f.Add([]byte(`{"format":"routelab-shard","format_version":2}`))
	f.Add([]byte(`{"format":"routelab-shard"`))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if head, err := ReadHead(data); err == nil && head.Phase != "development" {
			t.Fatalf("ReadHead accepted a %q shard", head.Phase)
		}
		if i := bytes.Index(data, []byte(runsKey)); i >= 0 {
			agreesWithWholeDecode(t, new(HeadReader), data[:i:i])
			if whole, err := decodeShardFile(append(data[:i:i], runsKey+"]\n}\n"...)); err == nil {
				agreesWithWholeDecode(t, NewHeadReader(whole.Config), data[:i:i])
			}
		}
		sf, err := Read(data)
		if err != nil {
			return
		}
		again, err := sf.Encode()
		if err != nil {
			t.Fatalf("an accepted file does not encode: %v", err)
		}
		back, err := Read(again)
		if err != nil {
			t.Fatalf("an accepted file, written back, is refused: %v", err)
		}
		if !bytes.Equal(again, mustEncode(t, back)) || back.ConfigHash != sf.ConfigHash {
			t.Fatalf("written back, the file changed")
		}
	})
}

// A study's second round reads the first round's heads only: their
// attainments, checked against the rest of the head; a reformatted file is
// read whole; a validation shard, or a head whose attainments do not fit
// its shard, is refused. A whole file whose attainments are not its
// records' is refused too.
func TestReadShardHead(t *testing.T) {
	data := string(studyShardOf(t, experiment.Shard{Index: 1, Count: 2}, nil)) // 6 of 12 development runs
	whole, err := Read([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	head, err := ReadHead([]byte(data))
	if err != nil || len(head.Runs) != 0 || len(head.Attainment) != 6 {
		t.Fatalf("head: %v, %d runs, %d attainments", err, len(head.Runs), len(head.Attainment))
	}
	for k, rec := range whole.Runs {
		if float64(head.Attainment[k]) != rec.Summary.Attainment {
			t.Errorf("run %d: head attainment %v, record %v", rec.Run, head.Attainment[k], rec.Summary.Attainment)
		}
	}
	var tabbed bytes.Buffer
	json.Indent(&tabbed, []byte(data), "", "\t")
	if f, err := ReadHead(tabbed.Bytes()); err != nil || len(f.Runs) != 6 {
		t.Errorf("a reformatted file: %v, %d runs (want it read whole)", err, len(f.Runs))
	}
	selected := 0.35
	first := regexp.MustCompile(`"development_attainment": \[[^,\]]+`)
	for _, c := range []struct {
		data string
		read func([]byte) (*File, error)
		want string
	}{
		{string(studyShardOf(t, experiment.Shard{Index: 1, Count: 2}, &selected)), ReadHead, "a validation shard with 0 development attainments for its 9 runs"},
		{strings.Replace(data, `"development_attainment": [`, `"development_attainment": [0.5,`, 1), ReadHead, "a development shard with 7 development attainments for its 6 runs"},
		{first.ReplaceAllString(data, `"development_attainment": [0.125`), Read, "run 0's development attainment 0.125 is not its record's"},
	} {
		if _, err := c.read([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want an error containing %q", err, c.want)
		}
	}
}

// A head read by headReader, which reads the attainments without
// encoding/json and takes a configuration it knows without decoding it,
// gives what decoding the whole head gives, and a head it refuses is
// refused with the whole decode's error: on a development shard's head as
// written, on heads whose attainments' line is edited into what the JSON
// grammar, or a number, does not allow, or into another place of the
// object, and on heads whose configuration is another, written twice, or
// under a key encoding/json matches to "config" otherwise.
func TestHeadReaderAgreesWithWholeDecode(t *testing.T) {
	data := string(studyShardOf(t, experiment.Shard{Index: 1, Count: 2}, nil))
	head := data[:strings.Index(data, runsKey)]
	whole, err := decodeShardFile([]byte(head + runsKey + "]\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	known := NewHeadReader(whole.Config)
	if known.config == nil || !strings.Contains(head, `"config": `+string(known.config)+",\n") {
		t.Fatalf("newHeadReader's configuration is not the head's:\n%s", known.config)
	}
	other := whole.Config
	other.Command = "sweep"
	line := regexp.MustCompile(`"development_attainment": \[[^\]]*\]`)
	config := `"config": ` + string(known.config)
	heads := []string{head}
	for _, att := range []string{
		"[]", "[null,1,0.5,0]", "[-0,1e-7,1E+2,-2.5e3]", "[1,2,3,4,]", "[1,,3,4]", "[01,2,3,4]",
		"[1.,2,3,4]", "[.5,2,3,4]", "[+1,2,3,4]", "[1e400,2,3,4]", "[0x1p-2,2,3,4]", "[Inf,2,3,4]", "[NaN,2,3,4]",
		"[1_0,2,3,4]", `["1",2,3,4]`, "[true,2,3,4]", "[1, 2, 3, 4]", "[[1],2,3,4]", "[1,2,3,4]]", "null",
		"[1,2,3,4],\n  \"development_attainment\": [4,3,2,1]",
		"[1,2,3,4]}", "{\"a\": [1,2,3,4]", "[1,2,3,4],\n  \"Development_Attainment\": [5,6,7,8]",
	} {
		heads = append(heads, line.ReplaceAllLiteralString(head, `"development_attainment": `+att))
	}
	const nl = ",\n  " // between members of the head
	heads = append(heads,
		strings.Replace(line.ReplaceAllLiteralString(head, `"x": 1`), `"phase"`, line.FindString(head)+nl+`"phase"`, 1),
		strings.Replace(head, config, config+nl+`"config": {"command": "study"}`, 1),
		strings.Replace(head, config, `"config": {"x_label": "rate"}`+nl+config, 1),
		strings.Replace(head, config, `"Config": {"x_label": "rate"}`+nl+config, 1),
		strings.Replace(head, config, `"\u0063onfig": {"x_label": "rate"}`+nl+config, 1),
		strings.Replace(head, config, "\"conf\u0131g\": {\"x_label\": \"rate\"}"+nl+config, 1),
		strings.Replace(head, config, `"config": `+strings.ReplaceAll(string(known.config), "\n    ", "\n   "), 1),
		strings.Replace(head, config, `"config": `+strings.Replace(string(known.config), `"small"`, `"small\u0026"`, 1), 1),
		strings.Replace(head, config, `"config": `+strings.Replace(string(known.config), `"small"`, `"config"`, 1), 1),
		strings.Replace(head, `"format": "routelab-shard"`, `"format": "routelab-shard", "unknown": 1`, 1),
		strings.Replace(head, config, config+"}", 1),
		strings.Replace(head, config, config+" 1", 1),
		strings.Replace(head, config, config+nl+`"x": `+string(known.config), 1),
		strings.Replace(head, config, `"config": [`+string(known.config)+"]", 1),
		strings.Replace(head, config, `"x": [`+config+"]", 1),
	)
	for i, h := range heads[1:] {
		if h == head {
			t.Fatalf("edit %d left the head as it was", i)
		}
	}
	for _, r := range []*HeadReader{new(HeadReader), known, NewHeadReader(other)} {
		for _, h := range heads {
			agreesWithWholeDecode(t, r, []byte(h))
		}
	}
}

// agreesWithWholeDecode checks r.decodeHead against decoding the whole
// head.
func agreesWithWholeDecode(t *testing.T, r *HeadReader, head []byte) {
	t.Helper()
	want, werr := decodeShardFile(append(slices.Clip(head), runsKey+"]\n}\n"...))
	got, gerr := r.decodeHead(slices.Clip(head))
	switch {
	case (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error():
		t.Errorf("%.80q…: decodeHead: %v; the whole decode: %v", head[max(len(head)-80, 0):], gerr, werr)
	case werr == nil:
		w, err1 := want.Encode()
		g, err2 := got.Encode()
		if err1 != nil || err2 != nil || !bytes.Equal(w, g) || (want.Attainment == nil) != (got.Attainment == nil) || !reflect.DeepEqual(want.Config, got.Config) {
			t.Errorf("%.80q…: decodeHead and the whole decode differ:\n%s\n%s", head[max(len(head)-80, 0):], g, w)
		}
	}
}

// readFileHead stops after the chunk holding the start of the runs'
// records, also when the key straddles two chunks, and reads a file
// without it whole.
func TestReadFileHead(t *testing.T) {
	dir := t.TempDir()
	for _, pad := range []int{0, 100, 64<<10 - len(runsKey) + 1, 64<<10 - 3, 64 << 10, 3 * 64 << 10} {
		head := strings.Repeat("x", pad) + runsKey
		for _, content := range []string{head + strings.Repeat("r", 300<<10), strings.Repeat("y", pad)} {
			path := filepath.Join(dir, "f")
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := readFileHead(path, nil)
			switch {
			case err != nil:
				t.Fatal(err)
			case !strings.HasPrefix(content, string(got)):
				t.Errorf("pad %d: read %d bytes that do not start the file", pad, len(got))
			case strings.Contains(content, runsKey) && (!strings.Contains(string(got), runsKey) || len(got) > len(head)+64<<10):
				t.Errorf("pad %d: read %d bytes of %d; want the head (%d) and at most a chunk more", pad, len(got), len(content), len(head))
			case !strings.Contains(content, runsKey) && len(got) != len(content):
				t.Errorf("pad %d: read %d bytes of a file of %d without the key; want all", pad, len(got), len(content))
			}
		}
	}
}
