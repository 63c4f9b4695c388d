package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/record"
)

// A run's summary is small and self-contained by construction: fixed-size
// fields only (no slice or map that could hold a run's requests; a pointer
// only to an optional part made of such fields), under 200 bytes, and the
// serving model's part under 400. So an experiment that keeps summaries
// needs the same memory per run however many requests the run had.
func TestRunSummaryIsSmallAndSelfContained(t *testing.T) {
	if size := unsafe.Sizeof(engine.RunSummary{}); size >= 200 {
		t.Errorf("RunSummary is %d bytes", size)
	}
	// The serving model's figures hang off a pointer, nil in the
	// specification's model, so its runs' summaries stay this small.
	if size := unsafe.Sizeof(engine.ServingSummary{}); size >= 400 {
		t.Errorf("ServingSummary is %d bytes", size)
	}
	var check func(path string, typ reflect.Type)
	check = func(path string, typ reflect.Type) {
		switch typ.Kind() {
		case reflect.Struct:
			for i := 0; i < typ.NumField(); i++ {
				check(path+"."+typ.Field(i).Name, typ.Field(i).Type)
			}
		case reflect.Pointer: // an optional part of the summary, itself plain values
			if typ.Elem().Kind() != reflect.Struct {
				t.Errorf("%s is a pointer to a %s", path, typ.Elem().Kind())
			}
			check(path, typ.Elem())
		case reflect.String, reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
		default:
			t.Errorf("%s is a %s: a summary must not reference the run's data", path, typ.Kind())
		}
	}
	check("RunSummary", reflect.TypeOf(engine.RunSummary{}))
}

// KeepSummaries keeps no run, only records, and gives every output byte for
// byte; KeepRuns keeps the runs whole, latencies included, with the same
// records.
func TestKeepSummaries(t *testing.T) {
	e := Experiment{Scenario: mustScenario(t, "burst", 175, engine.HighHeterogeneity), Policies: allPolicies(), Seeds: DefaultSeeds(4)}
	whole, err := Compare(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	e.Keep = KeepSummaries
	light, err := Compare(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range light.Policies {
		w := whole.Policies[i]
		if p.Runs != nil || len(p.Records) != 4 || len(w.Runs) != 4 {
			t.Fatalf("%s: %d runs kept with KeepSummaries, %d records; %d runs with KeepRuns", p.Name, len(p.Runs), len(p.Records), len(w.Runs))
		}
		for s, r := range w.Runs {
			// Every run of this experiment has latencies: no NaN in the records.
			if len(r.Latencies) != r.Completed || r.RunSummary != w.Records[s] || p.Records[s] != w.Records[s] {
				t.Errorf("%s seed %d: record differs from its run, or between Keep modes", p.Name, r.Seed)
			}
		}
	}
	for _, write := range []func(*Comparison, *bytes.Buffer) error{
		func(c *Comparison, b *bytes.Buffer) error { return c.WriteJSON(b) },
		func(c *Comparison, b *bytes.Buffer) error { return c.WriteCSV(b) },
		func(c *Comparison, b *bytes.Buffer) error { return c.WriteText(b) },
	} {
		var a, b bytes.Buffer
		if err := write(whole, &a); err != nil {
			t.Fatal(err)
		}
		if err := write(light, &b); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("output differs between KeepRuns and KeepSummaries:\n%s\n%s", a.String(), b.String())
		}
	}
	e.Keep = 7
	if _, err := Compare(context.Background(), e); err == nil || !strings.Contains(err.Error(), "keep: 7 is not allowed (want KeepRuns (0) or KeepSummaries (1))") {
		t.Errorf("Keep 7: %v", err)
	}
}

// writeIndented gives json.Encoder's bytes (SetIndent "", "  ") for the
// shapes the outputs use: nested objects and arrays, empty ones, streamed
// records, NaN, and strings the encoder escapes.
func TestWriteIndentedIsTheEncodersOutput(t *testing.T) {
	recs := [][]engine.Field{{{Name: "a", Value: 1}, {Name: "b", Value: math.NaN()}}, {{Name: "a", Value: "<x>&\u2028"}, {Name: "b", Value: []int{}}}}
	for _, v := range []any{
		record.Object{},
		record.Object{{Name: "empty", Value: []record.Object{}}, {Name: "none", Value: record.SeqOf(nil)}, {Name: "map", Value: map[string]any{}}},
		record.Object{{Name: "runs", Value: record.SeqOf(recs)}, {Name: "n", Value: math.Inf(1)}, {Name: "nested", Value: record.Object{{Name: "deep", Value: record.Objects(recs)}, {Name: "s", Value: engine.Scenario{Name: "q"}}}}},
		record.Objects(recs),
	} {
		var got bytes.Buffer
		if err := record.WriteIndented(&got, v); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(json.RawMessage(compact(t, v))); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("writeIndented:\n%s\njson.Encoder:\n%s", got.String(), want.String())
		}
	}
}

// compact renders v as compact JSON the way the outputs were first written:
// objects in field order, values through marshalValue.
func compact(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	switch x := v.(type) {
	case record.Object:
		b.WriteByte('{')
		for i, f := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(f.Name)
			b.Write(k)
			b.WriteByte(':')
			b.Write(compact(t, f.Value))
		}
		b.WriteByte('}')
	case []record.Object:
		b.WriteByte('[')
		for i, o := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(compact(t, o))
		}
		b.WriteByte(']')
	case record.Seq:
		return compact(t, record.Objects(x.Collect()))
	default:
		raw, err := record.MarshalValue(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(raw)
	}
	return b.Bytes()
}
