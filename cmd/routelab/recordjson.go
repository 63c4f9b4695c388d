package main

import (
	"encoding/json"
	"math"
	"strconv"
)

// A shard file is mostly its runs' records, and encoding/json spends most
// of a shard's writing on reflection and on a nested Marshal for every
// number. The records are appended here instead, exactly as json.Marshal
// writes them (TestRecordJSONIsMarshal compares the two on random
// records); a value json.Marshal refuses (an infinity) makes appendJSON
// report false, and the caller asks json.Marshal, for its error.

// jsonObject appends one JSON object's members.
type jsonObject struct {
	b  []byte
	n  int  // members so far
	ok bool // false after a value JSON cannot hold
}

func newJSONObject(b []byte) jsonObject { return jsonObject{b: append(b, '{'), ok: true} }

func (o *jsonObject) key(name string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(o.b, '"')
	o.b = append(o.b, name...)
	o.b = append(o.b, '"', ':')
}

func (o *jsonObject) int(name string, v int64) {
	o.key(name)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *jsonObject) uint(name string, v uint64) {
	o.key(name)
	o.b = strconv.AppendUint(o.b, v, 10)
}

// str appends a string as json.Marshal does: one with nothing to escape
// (printable ASCII but for the quote, the backslash and the characters
// HTML escaping takes) as it is, any other through json.Marshal.
func (o *jsonObject) str(name, v string) {
	o.key(name)
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(v) // a string always encodes
			o.b = append(o.b, q...)
			return
		}
	}
	o.b = append(o.b, '"')
	o.b = append(o.b, v...)
	o.b = append(o.b, '"')
}

func (o *jsonObject) num(name string, v number) {
	o.key(name)
	var ok bool
	o.b, ok = appendNumber(o.b, v)
	o.ok = o.ok && ok
}

// appendNumber appends v as number.MarshalJSON writes it: NaN as null,
// others as encoding/json writes a float64 (the shortest decimal that
// reads back the same, with an exponent below 1e-6 and from 1e21); false
// for an infinity, which JSON cannot hold.
func appendNumber(b []byte, v number) ([]byte, bool) {
	f := float64(v)
	switch {
	case math.IsNaN(f):
		return append(b, "null"...), true
	case math.IsInf(f, 0):
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-07 is written e-7
		b = b[:n-1]
	}
	return b, true
}

// object appends a member whose value is an object, which add fills.
func (o *jsonObject) object(name string, add func(*jsonObject)) {
	o.key(name)
	inner := newJSONObject(o.b)
	add(&inner)
	o.b, o.ok = inner.close(), o.ok && inner.ok
}

func (o *jsonObject) close() []byte { return append(o.b, '}') }

// appendJSON appends the record as json.Marshal writes it; false when it
// holds an infinity.
func (r *runRecord) appendJSON(b []byte) ([]byte, bool) {
	o := newJSONObject(b)
	o.int("run", int64(r.Run))
	o.str("policy", r.Policy)
	o.str("scenario", r.Scenario)
	o.uint("seed", r.Seed)
	o.str("workload_fingerprint", r.Fingerprint)
	o.int("cohort_arrivals", int64(r.Cohort))
	o.int("completed", int64(r.Completed))
	o.int("shed", int64(r.Shed))
	o.int("unfinished", int64(r.Unfinished))
	o.int("on_time", int64(r.OnTime))
	o.int("latency_count", int64(r.LatencyCount))
	o.num("mean_ms", r.Mean)
	o.num("p50_ms", r.P50)
	o.num("p90_ms", r.P90)
	o.num("p95_ms", r.P95)
	o.num("p99_ms", r.P99)
	o.num("max_ms", r.Max)
	o.num("slo_miss_rate", r.SLOMissRate)
	o.num("shed_rate", r.ShedRate)
	o.num("attainment", r.Attainment)
	o.num("goodput_rps", r.GoodputRPS)
	o.num("throughput_rps", r.ThroughputRPS)
	if s := r.Serving; s != nil {
		o.object("serving", s.add)
	}
	return o.close(), o.ok
}

func (s *servingRecord) add(o *jsonObject) {
	o.object("ttft", s.TTFT.add)
	o.object("itl", s.ITL.add)
	o.object("itl_tail", s.ITLTail.add)
	o.int("on_time", int64(s.OnTime))
	o.num("attainment", s.Attainment)
	o.int("preemptions", int64(s.Preemptions))
	o.int("preempted", int64(s.Preempted))
	o.int("cached_tokens", s.CachedTokens)
	o.int("prefix_tokens", s.PrefixTokens)
	o.num("hit_rate", s.HitRate)
	o.num("mean_batch", s.MeanBatch)
	o.num("mean_kv_util", s.MeanKVUtil)
}

func (l *latencyRecord) add(o *jsonObject) {
	o.int("count", int64(l.Count))
	o.num("mean_ms", l.Mean)
	o.num("p50_ms", l.P50)
	o.num("p90_ms", l.P90)
	o.num("p95_ms", l.P95)
	o.num("p99_ms", l.P99)
	o.num("max_ms", l.Max)
}

// appendNumbers appends a list of numbers as json.Marshal writes a
// []number; false when one is an infinity.
func appendNumbers(b []byte, list []number) ([]byte, bool) {
	if list == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendNumber(b, v); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}
