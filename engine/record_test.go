package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/routelab/routelab/internal/record"
	"github.com/routelab/routelab/internal/testutil"
)

// interestingFloats are where encoding/json's float format changes, or
// where a float is not a plain number.
var interestingFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.999999999999999e-7, 1e-7, 1.5e-9, 1e-300, 5e-324,
	1e20, 999999999999999900000, 1e21, 1.2345e22, math.MaxFloat64, -1e21, -1e-7, 0.9975369458128078,
	123.456, math.NaN(), math.Float64frombits(0x7ff8000000000001),
}

// randomSummary sets every field of a RunSummary at random (a field added
// to it included, which the whole record must then learn), the serving
// summary half the time.
func randomSummary(r *rand.Rand) RunSummary {
	var s RunSummary
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if r.IntN(2) == 0 {
				v.SetZero()
				return
			}
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				fill(v.Field(i))
			}
		case reflect.Int, reflect.Int64:
			v.SetInt(r.Int64() >> r.IntN(64) * int64(1-2*r.IntN(2)))
		case reflect.Uint64:
			v.SetUint(r.Uint64() >> r.IntN(64))
		case reflect.Float64:
			switch r.IntN(3) {
			case 0:
				v.SetFloat(interestingFloats[r.IntN(len(interestingFloats))])
			case 1:
				v.SetFloat(r.NormFloat64() * math.Pow(10, float64(r.IntN(60)-30)))
			default:
				if f := math.Float64frombits(r.Uint64()); !math.IsInf(f, 0) {
					v.SetFloat(f)
				}
			}
		case reflect.String:
			pieces := []string{"least-queue", "adaptive(c=0.1)", "my<policy>", "a&b", `quote"d`, `back\slash`, "tab\t", "é", "\u2028", "burst.json"} // UTF-8: JSON holds no other
			var b strings.Builder
			for range r.IntN(4) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			v.SetString(b.String())
		default:
			panic("randomSummary: RunSummary has a field of kind " + v.Kind().String() + ": teach the whole record to keep it")
		}
	}
	fill(reflect.ValueOf(&s).Elem())
	return s
}

// A whole record reads back as the summary it was written from, every
// field, every float's bits (a NaN reads back as NaN: JSON's null has no
// payload), with and without a serving summary and a lead member.
func TestWholeRecordRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	serving := 0
	for i := range 5000 {
		want := randomSummary(r)
		if want.Serving != nil {
			serving++
		}
		var lead []Field
		if i%2 == 0 {
			lead = []Field{{Name: "run", Value: i}}
		}
		data, err := AppendRunJSON(nil, &want, lead...)
		if err != nil {
			t.Fatal(err)
		}
		var got RunSummary
		run := -1
		if lead != nil {
			lead = []Field{{Name: "run", Value: &run}}
		}
		if err := DecodeRunJSON(data, &got, lead...); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !testutil.SameBits(got, want) || lead != nil && run != i {
			t.Fatalf("%s read back as %+v (run %d)", data, got, run)
		}
	}
	if serving < 1000 {
		t.Fatalf("only %d of 5,000 summaries had a serving summary", serving)
	}
}

// The whole record is JSON as json.Marshal writes it, and starts with the
// run's record as compare --json writes it: one name per field.
func TestWholeRecordStartsWithRunRecord(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		s := randomSummary(r)
		data, err := AppendRunJSON(nil, &s)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := record.WriteIndented(&b, record.Object(RunRecord(&s))); err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, b.Bytes()); err != nil {
			t.Fatal(err)
		}
		prefix := strings.TrimSuffix(compact.String(), "}") + ","
		if !strings.HasPrefix(string(data), prefix) {
			t.Fatalf("the whole record\n%s\ndoes not start with the run's record\n%s", data, prefix)
		}
		var members map[string]any
		if err := json.Unmarshal(data, &members); err != nil || !json.Valid(data) {
			t.Fatalf("%s: %v", data, err)
		}
	}
}

// A summary with an infinity is refused, naming the field.
func TestWholeRecordRefusesInfinity(t *testing.T) {
	for _, c := range []struct {
		s    RunSummary
		name string
	}{
		{RunSummary{Latency: LatencyStats{P99: math.Inf(1)}}, "p99_ms"},
		{RunSummary{Serving: &ServingSummary{ITL: LatencyStats{Max: math.Inf(-1)}}}, "itl_max_ms"},
	} {
		if _, err := AppendRunJSON(nil, &c.s); err == nil || !strings.Contains(err.Error(), c.name+" is infinite") {
			t.Errorf("%v, want an error naming %s", err, c.name)
		}
	}
}

// A record that is not whole, or not only a record, is refused, naming the
// field.
func TestDecodeRunJSONRefuses(t *testing.T) {
	spec := RunSummary{Policy: "p", Completed: 5, OnTime: 3, Latency: LatencyStats{Count: 5, P99: 12.5}}
	good, err := AppendRunJSON(nil, &spec, Field{Name: "run", Value: 4})
	if err != nil {
		t.Fatal(err)
	}
	srv := spec
	srv.Serving = &ServingSummary{TTFT: LatencyStats{Count: 5}}
	serving, err := AppendRunJSON(nil, &srv, Field{Name: "run", Value: 4})
	if err != nil {
		t.Fatal(err)
	}
	edit := func(data []byte, old, repl string) []byte {
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s has no %s", data, old)
		}
		return bytes.Replace(data, []byte(old), []byte(repl), 1)
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte(`[1]`), "not a JSON object"},
		{edit(good, `"run":4,`, `"run":4,"run":5,`), `field "run" twice`},
		{edit(good, `"run":4,`, `"run":4.5,`), `field "run": got JSON 4.5, want an integer`},
		{edit(good, `"run":4,`, ``), `no field "run"`},
		{edit(good, `"p99_ms":12.5,`, ``), `no field "p99_ms"`},
		{edit(good, `"p99_ms":12.5,`, `"p99_ms":12.5,"p99_ms":12.5,`), `field "p99_ms" twice`},
		{edit(good, `"p99_ms":12.5`, `"p99_ms":"12.5"`), `field "p99_ms": got JSON "12.5", want a finite number or null`},
		{edit(good, `"p99_ms":12.5`, `"p99_ms":1e400`), `field "p99_ms": got JSON 1e400, want a finite number or null`},
		{edit(good, `"p99_ms":12.5,`, `"serving":{"ttft":{}},`), `unknown field "serving"`},
		{edit(good, `"p99_ms":12.5`, `"p99_ms":[12.5]`), `field "p99_ms": got a JSON array`},
		{edit(good, `"p99_ms":12.5,`, `"p99_ms":12.5,"latency":1,`), `unknown field "latency"`},
		{edit(good, `"seed":0`, `"seed":-1`), `field "seed": got JSON -1, want an integer >= 0`},
		{edit(good, `"workload_fingerprint":"0000000000000000"`, `"workload_fingerprint":"00"`), `field "workload_fingerprint": got JSON "00", want 16 hex digits`},
		{edit(good, `"policy":"p"`, `"policy":7`), `field "policy": got JSON 7, want a string`},
		{edit(good, `"slo_misses":2`, `"slo_misses":3`), `field "slo_misses" is 3; the record's other fields give 2 (edited?)`},
		{edit(good, `"latency_count":5`, `"latency_count":5,"ttft_count":5`), `no field "ttft_mean_ms", though "ttft_count" of the serving model is there`},
		{edit(serving, `"ttft_p99_ms":0,`, ``), `no field "ttft_p99_ms", though "ttft_mean_ms" of the serving model is there`},
	} {
		var r RunSummary
		run := 0
		if err := DecodeRunJSON(c.data, &r, Field{Name: "run", Value: &run}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.data, err, c.want)
		}
	}
}

// The decoder never panics, and a record it accepts writes back to bytes
// that read back the same. Seeds under testdata/fuzz/FuzzDecodeRunJSON are
// regression tests.
func FuzzDecodeRunJSON(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 4 {
		s := randomSummary(r)
		data, err := AppendRunJSON(nil, &s, Field{Name: "run", Value: 3})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"run":1}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return // DecodeRunJSON reads what encoding/json has checked
		}
		var got RunSummary
		run := 0
		if err := DecodeRunJSON(data, &got, Field{Name: "run", Value: &run}); err != nil {
			return
		}
		again, err := AppendRunJSON(nil, &got, Field{Name: "run", Value: run})
		if err != nil {
			t.Fatalf("an accepted record does not write back: %v", err)
		}
		var back RunSummary
		if err := DecodeRunJSON(again, &back, Field{Name: "run", Value: &run}); err != nil || !testutil.SameBits(back, got) {
			t.Fatalf("written back as %s, the record reads back as %+v (%v), not %+v", again, back, err, got)
		}
	})
}
