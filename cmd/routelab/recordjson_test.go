package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// interestingFloats are where encoding/json's float format changes, or
// where a float is not a plain number.
var interestingFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.999999999999999e-7, 1e-7, 1.5e-9, 1e-300, 5e-324,
	1e20, 999999999999999900000, 1e21, 1.2345e22, math.MaxFloat64, -1e21, -1e-7, 0.9975369458128078,
	123.456, math.NaN(),
}

// fillRandom sets every field of the struct v points to (ints, strings,
// numbers, nested structs and pointers to them, nil pointers half the
// time) at random, so a field added to a record is exercised without
// naming it here.
func fillRandom(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if r.IntN(2) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fillRandom(r, v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			fillRandom(r, v.Field(i))
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
		pieces := []string{"least-queue", "adaptive(c=0.1)", "my<policy>", "a&b", `quote"d`, `back\slash`, "tab\t", "é", "\u2028", "\xff", "burst.json", "/tmp/x y"}
		var b strings.Builder
		for range r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		v.SetString(b.String())
	default:
		panic("fillRandom: a field of kind " + v.Kind().String() + ": teach it")
	}
}

// A run record appended by appendJSON is what json.Marshal writes, for
// random records with and without a serving summary, and for lists of
// attainments.
func TestRecordJSONIsMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	serving := 0
	for i := range 20000 {
		var rec runRecord
		fillRandom(r, reflect.ValueOf(&rec).Elem())
		if rec.Serving != nil {
			serving++
		}
		want, err := json.Marshal(&rec)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := rec.appendJSON([]byte("prefix"))
		if !ok || string(got) != "prefix"+string(want) {
			t.Fatalf("record %d (ok %v):\n got %s\nwant prefix%s", i, ok, got, want)
		}
	}
	if serving < 5000 {
		t.Fatalf("only %d of 20,000 records had a serving summary", serving)
	}
	for _, list := range [][]number{nil, {}, {1}, {number(math.NaN()), 0.5, 1e-7, 1e21}} {
		want, _ := json.Marshal(list)
		if got, ok := appendNumbers(nil, list); !ok || string(got) != string(want) {
			t.Errorf("%v: got %s, want %s", list, got, want)
		}
	}
}

// A record or attainment json.Marshal refuses (an infinity) is refused
// with json.Marshal's error.
func TestRecordJSONRefusesInfinity(t *testing.T) {
	for _, f := range []*shardFile{
		{Records: []runRecord{{Run: 7, P99: number(math.Inf(1))}}},
		{Records: []runRecord{{Run: 8, Serving: &servingRecord{ITL: latencyRecord{Max: number(math.Inf(-1))}}}}},
		{Attainment: []number{0.5, number(math.Inf(1))}},
	} {
		if len(f.Records) > 0 {
			if _, fine := f.Records[0].appendJSON(nil); fine {
				t.Errorf("run %d with an infinity appended", f.Records[0].Run)
			}
		}
		_, err := f.encode()
		if err == nil || !strings.Contains(err.Error(), "unsupported value") || !strings.Contains(err.Error(), "Inf") {
			t.Errorf("encode: %v; want json.Marshal's error about the infinity", err)
		}
	}
}

func FuzzRecordJSON(f *testing.F) {
	f.Add("least-queue", "burst", uint64(0x3fefeb4b6f7c1c1a), int64(-3))
	f.Add("<&>", "\xff\u2028", uint64(0x7ff8000000000001), int64(1)<<62)
	f.Fuzz(func(t *testing.T, policy, scenario string, bits uint64, n int64) {
		x := number(math.Float64frombits(bits))
		rec := runRecord{Policy: policy, Scenario: scenario, Run: int(n), Seed: bits, Mean: x, Attainment: x / 3,
			Serving: &servingRecord{CachedTokens: n, HitRate: x * 7, TTFT: latencyRecord{P99: -x}}}
		want, err := json.Marshal(&rec)
		got, ok := rec.appendJSON(nil)
		if (err == nil) != ok || ok && string(got) != string(want) {
			t.Fatalf("got %s (ok %v), want %s (%v)", got, ok, want, err)
		}
	})
}
