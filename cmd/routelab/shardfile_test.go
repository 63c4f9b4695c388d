package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// A shard file keeps every field of a run's summary exactly: each field is
// set to a distinct value (a new field of engine.RunSummary included, which
// this codec would have to learn), and the record reads back equal, NaN
// included.
func TestShardRecordKeepsEveryField(t *testing.T) {
	for _, nanAt := range []int{-1, 0, 5, 9} {
		var r engine.RunSummary
		n := 0
		var fill func(v reflect.Value)
		fill = func(v reflect.Value) {
			switch v.Kind() {
			case reflect.Struct:
				for i := 0; i < v.NumField(); i++ {
					fill(v.Field(i))
				}
				return
			case reflect.String:
				v.SetString(strings.Repeat("x", n+1))
			case reflect.Int:
				v.SetInt(int64(1000 + n))
			case reflect.Pointer:
				v.Set(reflect.New(v.Type().Elem()))
				fill(v.Elem())
				return
			case reflect.Int64:
				v.SetInt(int64(1_000_000 + n))
			case reflect.Uint64:
				v.SetUint(math.MaxUint64 - uint64(n))
			case reflect.Float64:
				x := 1/3.0 + float64(n)*math.Pi
				if n == nanAt {
					x = math.NaN()
				}
				v.SetFloat(x)
			default:
				t.Fatalf("RunSummary has a %s field: teach the shard file to keep it", v.Kind())
			}
			n++
		}
		fill(reflect.ValueOf(&r).Elem())
		rec := recordOf(7, &r)
		data, err := (&shardFile{Records: []runRecord{rec}}).encode()
		if err != nil {
			t.Fatal(err)
		}
		var back shardFile
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		got, err := back.Records[0].summary()
		if err != nil {
			t.Fatal(err)
		}
		if !sameSummary(got, r) || back.Records[0].Run != 7 {
			t.Errorf("NaN at field %d: %+v read back as %+v", nanAt, r, got)
		}
	}
}

// sameSummary compares summaries field by field, NaN equal to NaN.
func sameSummary(a, b engine.RunSummary) bool {
	var same func(x, y reflect.Value) bool
	same = func(x, y reflect.Value) bool {
		if x.Kind() == reflect.Pointer {
			return x.IsNil() == y.IsNil() && (x.IsNil() || same(x.Elem(), y.Elem()))
		}
		if x.Kind() == reflect.Struct {
			for i := 0; i < x.NumField(); i++ {
				if !same(x.Field(i), y.Field(i)) {
					return false
				}
			}
			return true
		}
		if x.Kind() == reflect.Float64 && math.IsNaN(x.Float()) {
			return math.IsNaN(y.Float())
		}
		return x.Interface() == y.Interface()
	}
	return same(reflect.ValueOf(a), reflect.ValueOf(b))
}

// shardFileOf runs a small comparison's shard and returns its file's bytes.
func shardFileOf(t testing.TB, spec string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "s.json")
	var o, e bytes.Buffer
	if code := run(t.Context(), []string{"compare", "--seeds", "2", "--policies", "least-queue,adaptive", "--shard", spec, "--out", out}, strings.NewReader(""), &o, &e); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A shard file that was edited or damaged is refused with what is wrong.
func TestReadShardFileRefusesDamage(t *testing.T) {
	good := string(shardFileOf(t, "2/3"))
	if _, err := readShardFile([]byte(good)); err != nil {
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
		{`{"format": "routelab-shard", "format_version": 1`, "truncated: its JSON stops after 48 bytes"},
		{good[:len(good)-3], "truncated"},
		{`{"format": "something-else"}`, `not a shard file: its "format" is "something-else", not "routelab-shard"`},
		{`[1, 2]`, "not a shard file (not a JSON object)"},
		{`{"format": routelab}`, "not a shard file (invalid JSON: invalid character 'r' looking for beginning of value)"},
		{edit(`"format_version": 1`, `"format_version": 2`), "a shard file of format_version 2; this routelab reads version 1"},
		{edit(`"seeds": [`, `"seeds": [9, `), "its configuration does not match its config_sha256 (edited or damaged)"},
		{edit(`"index": 2`, `"index": 4`), `shard: "4/3" is not allowed`},
		{edit(`"index": 2`, `"index": 3`), "its run 0 is numbered 1; shard 3/3's run 0 is run 2"},
		{edit(`"count": 3`, `"count": 2`), "holds 1 of the 2 runs of shard 2/2 (truncated, or edited?)"},
		{edit(`"experiment_runs": 4`, `"experiment_runs": 7`), "says the experiment has 7 runs; its configuration has 4"},
		{edit(`"format_version": 1,`, `"format_version": 1, "extra": true,`), `not a valid routelab-shard file: json: unknown field "extra"`},
		{strings.Replace(good, firstRun, strings.Replace(firstRun, `"run":1,`, `"run":2,`, 1), 1), "its run 0 is numbered 2"},
	} {
		if _, err := readShardFile([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60q…: %v, want an error containing %q", c.data, err, c.want)
		}
	}
}

// The readers never panic; a file readShardFile accepts is whole: it writes
// back to a file the reader accepts with the same runs; readShardHead
// accepts development shards only. Seeds under
// testdata/fuzz/FuzzReadShardFile are regression tests.
func FuzzReadShardFile(f *testing.F) {
	f.Add(shardFileOf(f, "1/2"))
	f.Add(shardFileOf(f, "2/2"))
	f.Add([]byte(`{"format":"routelab-shard","format_version":1}`))
	f.Add([]byte(`{"format":"routelab-shard"`))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if head, err := readShardHead(data); err == nil && head.Phase != "development" {
			t.Fatalf("readShardHead accepted a %q shard", head.Phase)
		}
		if i := bytes.Index(data, []byte(runsKey)); i >= 0 {
			agreesWithWholeDecode(t, new(headReader), data[:i:i])
			if whole, err := decodeShardFile(append(data[:i:i], runsKey+"]\n}\n"...)); err == nil {
				agreesWithWholeDecode(t, newHeadReader(whole.Config), data[:i:i])
			}
		}
		sf, err := readShardFile(data)
		if err != nil {
			return
		}
		if _, err := sf.summaries(); err != nil {
			return // a bad fingerprint is found when the runs are read
		}
		again, err := sf.encode()
		if err != nil {
			t.Fatalf("an accepted file does not encode: %v", err)
		}
		back, err := readShardFile(again)
		if err != nil {
			t.Fatalf("an accepted file, written back, is refused: %v", err)
		}
		if len(back.Records) != len(sf.Records) || back.ConfigHash != sf.ConfigHash {
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
	dir := t.TempDir()
	study := writeStudyFile(t) // 8 development runs, 8 validation runs
	for i := 1; i <= 2; i++ {
		mustRun(t, "study", study, "--shard", fmt.Sprintf("%d/2", i), "--out", dir+"/")
	}
	data := read(t, filepath.Join(dir, "study-development-1-of-2.json"))
	whole, err := readShardFile([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	head, err := readShardHead([]byte(data))
	if err != nil || len(head.Records) != 0 || len(head.Attainment) != 4 {
		t.Fatalf("head: %v, %d records, %d attainments", err, len(head.Records), len(head.Attainment))
	}
	for k, rec := range whole.Records {
		if head.Attainment[k] != rec.Attainment {
			t.Errorf("run %d: head attainment %v, record %v", rec.Run, head.Attainment[k], rec.Attainment)
		}
	}
	var tabbed bytes.Buffer
	json.Indent(&tabbed, []byte(data), "", "\t")
	if f, err := readShardHead(tabbed.Bytes()); err != nil || len(f.Records) != 4 {
		t.Errorf("a reformatted file: %v, %d records (want it read whole)", err, len(f.Records))
	}
	mustRun(t, "study", study, "--shard", "1/2", "--development", filepath.Join(dir, "study-development-*.json"), "--out", dir+"/")
	first := regexp.MustCompile(`"development_attainment": \[[^,\]]+`)
	for _, c := range []struct {
		data string
		read func([]byte) (*shardFile, error)
		want string
	}{
		{read(t, filepath.Join(dir, "study-validation-1-of-2.json")), readShardHead, "a validation shard with 0 development attainments for its 4 runs"},
		{strings.Replace(data, `"development_attainment": [`, `"development_attainment": [0.5,`, 1), readShardHead, "a development shard with 5 development attainments for its 4 runs"},
		{first.ReplaceAllString(data, `"development_attainment": [0.125`), readShardFile, "run 0's development attainment 0.125 is not its record's"},
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
	dir := t.TempDir()
	mustRun(t, "study", writeStudyFile(t), "--shard", "1/2", "--out", dir+"/")
	data := read(t, filepath.Join(dir, "study-development-1-of-2.json"))
	head := data[:strings.Index(data, runsKey)]
	whole, err := decodeShardFile([]byte(head + runsKey + "]\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	known := newHeadReader(whole.Config)
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
		strings.Replace(head, config, `"config": `+strings.Replace(string(known.config), `"tiny"`, `"tiny\u0026"`, 1), 1),
		strings.Replace(head, config, `"config": `+strings.Replace(string(known.config), `"tiny"`, `"config"`, 1), 1),
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
	for _, r := range []*headReader{new(headReader), known, newHeadReader(other)} {
		for _, h := range heads {
			agreesWithWholeDecode(t, r, []byte(h))
		}
	}
}

// agreesWithWholeDecode checks r.decodeHead against decoding the whole
// head.
func agreesWithWholeDecode(t *testing.T, r *headReader, head []byte) {
	t.Helper()
	want, werr := decodeShardFile(append(slices.Clip(head), runsKey+"]\n}\n"...))
	got, gerr := r.decodeHead(slices.Clip(head))
	switch {
	case (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error():
		t.Errorf("%.80q…: decodeHead: %v; the whole decode: %v", head[max(len(head)-80, 0):], gerr, werr)
	case werr == nil:
		w, err1 := want.encode()
		g, err2 := got.encode()
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
