package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/routelab/routelab/internal/record"
)

// A run's whole record is its summary as one flat JSON object, every field
// under its one snake_case name: RunRecord's fields (who ran what, then
// every metric of Metrics(), as compare --json writes a run), then the
// figures no metric reports (the latency counts, the serving latencies'
// other percentiles). It is lossless, each float to its last bit, NaN as
// null: what a shard file keeps of a run, so that merged shards give the
// unsharded result byte for byte.

// fingerprint is how a record writes RunSummary.Fingerprint: 16 hex digits.
type fingerprint uint64

func (f fingerprint) String() string { return fmt.Sprintf("%016x", uint64(f)) }

// recordField is one field of the whole record.
type recordField struct {
	name string
	// ref points at the field in a summary: *string, *uint64, *fingerprint,
	// *int, *int64 or *float64; nil for a figure derived from others, which
	// is written and, when read, checked against them.
	ref     func(*RunSummary) any
	derived func(*RunSummary) int
	serving bool // of the serving model: in the record exactly when r.Serving is
}

// identity are the fields that say who and what ran.
func identity() []recordField {
	return []recordField{
		{name: "policy", ref: func(r *RunSummary) any { return &r.Policy }},
		{name: "scenario", ref: func(r *RunSummary) any { return &r.Scenario }},
		{name: "seed", ref: func(r *RunSummary) any { return &r.Seed }},
		{name: "workload_fingerprint", ref: func(r *RunSummary) any { return (*fingerprint)(&r.Fingerprint) }},
	}
}

// text is an identity field's value as a record holds it.
func (f recordField) text(r *RunSummary) any {
	switch p := f.ref(r).(type) {
	case *string:
		return *p
	case *fingerprint:
		return p.String()
	case *uint64:
		return *p
	}
	return nil // identity has no other kind
}

// unreported are the summary's stored figures that no metric reports, so
// that the record keeps every one of them.
func unreported() []recordField {
	serving := func(name string, f func(*ServingSummary) any) recordField {
		return recordField{name: name, serving: true, ref: func(r *RunSummary) any { return f(r.Serving) }}
	}
	return []recordField{
		{name: "latency_count", ref: func(r *RunSummary) any { return &r.Latency.Count }},
		serving("ttft_count", func(s *ServingSummary) any { return &s.TTFT.Count }),
		serving("ttft_p95_ms", func(s *ServingSummary) any { return &s.TTFT.P95 }),
		serving("ttft_max_ms", func(s *ServingSummary) any { return &s.TTFT.Max }),
		serving("itl_count", func(s *ServingSummary) any { return &s.ITL.Count }),
		serving("itl_p90_ms", func(s *ServingSummary) any { return &s.ITL.P90 }),
		serving("itl_p95_ms", func(s *ServingSummary) any { return &s.ITL.P95 }),
		serving("itl_max_ms", func(s *ServingSummary) any { return &s.ITL.Max }),
		serving("itl_tail_count", func(s *ServingSummary) any { return &s.ITLTail.Count }),
		serving("itl_tail_p50_ms", func(s *ServingSummary) any { return &s.ITLTail.P50 }),
		serving("itl_tail_p90_ms", func(s *ServingSummary) any { return &s.ITLTail.P90 }),
		serving("itl_tail_p95_ms", func(s *ServingSummary) any { return &s.ITLTail.P95 }),
		serving("itl_tail_max_ms", func(s *ServingSummary) any { return &s.ITLTail.Max }),
	}
}

// recordFields lists the whole record's fields in order, and indexes them
// by name.
var recordFields = sync.OnceValues(func() ([]recordField, map[string]int) {
	fields := identity()
	for _, m := range Metrics() {
		f := recordField{name: m.Key, ref: m.ref, serving: m.Optional()}
		if m.ref == nil {
			value := m.value
			f.derived = func(r *RunSummary) int { return int(value(r)) }
		}
		fields = append(fields, f)
	}
	index := make(map[string]int, len(fields))
	for i, f := range fields {
		index[f.name] = i
	}
	// A figure that has become a metric is written once, where the metrics
	// are: adding a metric is its line in Metrics() alone.
	for _, f := range unreported() {
		if _, ok := index[f.name]; !ok {
			index[f.name] = len(fields)
			fields = append(fields, f)
		}
	}
	return fields, index
})

// AppendRunJSON appends r's whole record to b, one JSON object on one line,
// after lead's members (a shard file's run number); a lead value is an
// int. A summary holding an infinity is refused, naming the field.
func AppendRunJSON(b []byte, r *RunSummary, lead ...Field) ([]byte, error) {
	o := record.NewJSONObject(b)
	for _, f := range lead {
		o.Int(f.Name, int64(f.Value.(int)))
	}
	fields, _ := recordFields()
	for _, f := range fields {
		if f.serving && r.Serving == nil {
			continue
		}
		if f.ref == nil {
			o.Int(f.name, int64(f.derived(r)))
			continue
		}
		switch p := f.ref(r).(type) {
		case *string:
			o.Str(f.name, *p)
		case *uint64:
			o.Uint(f.name, *p)
		case *fingerprint:
			o.Str(f.name, p.String())
		case *int:
			o.Int(f.name, int64(*p))
		case *int64:
			o.Int(f.name, *p)
		case *float64:
			o.Float(f.name, *p)
		}
	}
	b, bad := o.Close()
	if bad != "" {
		return nil, fmt.Errorf("%s is infinite: a record holds finite numbers and NaN (null) only", bad)
	}
	return b, nil
}

// DecodeRunJSON decodes a whole record, as AppendRunJSON writes it, into r,
// and lead's members into the *int each lead value points to. It is
// strict: every field once, in any order, the serving model's all or
// none; no other; each of its type (an integer for a count, a number or
// null for a figure); a derived field equal to what it derives from.
// Errors name the field.
func DecodeRunJSON(data []byte, r *RunSummary, lead ...Field) error {
	fields, index := recordFields()
	*r = RunSummary{Serving: new(ServingSummary)}
	seen := make([]bool, len(fields))
	leadSeen := make([]bool, len(lead))
	type read struct {
		field int
		value json.Token
	}
	var derived []read // checked once what they derive from is read
	err := members(data, func(name string, v json.Token) error {
		i, ok := index[name]
		l := leadIndex(lead, name)
		if !ok && l < 0 {
			return fmt.Errorf("unknown field %q", name)
		}
		if d, ok := v.(json.Delim); ok {
			return fmt.Errorf("field %q: got a JSON %s, want %s", name, map[json.Delim]string{'{': "object", '[': "array"}[d], "a number or a string")
		}
		if l >= 0 {
			if leadSeen[l] {
				return fmt.Errorf("field %q twice", name)
			}
			leadSeen[l] = true
			n, err := integer(name, v)
			*lead[l].Value.(*int) = int(n)
			return err
		}
		if seen[i] {
			return fmt.Errorf("field %q twice", name)
		}
		seen[i] = true
		f := fields[i]
		if f.ref == nil {
			derived = append(derived, read{i, v})
			return nil
		}
		return decodeField(name, v, f.ref(r))
	})
	if err != nil {
		return err
	}
	serving, err := checkFields(fields, seen, lead, leadSeen)
	if err != nil {
		return err
	}
	if !serving {
		r.Serving = nil
	}
	for _, d := range derived {
		f := fields[d.field]
		got, err := integer(f.name, d.value)
		if err != nil {
			return err
		}
		if want := f.derived(r); got != int64(want) {
			return fmt.Errorf("field %q is %d; the record's other fields give %d (edited?)", f.name, got, want)
		}
	}
	return nil
}

// members calls member with each member of the JSON object data holds:
// its name and its value as json.Decoder's Token gives it with UseNumber
// (an object or array as its opening Delim, which ends the scan: member is
// to refuse it). It is the
// decoder's Token loop without its state machine, a few times faster:
// json.Valid checks the grammar first, so the scan need only find where
// each string and scalar ends.
func members(data []byte, member func(name string, v json.Token) error) error {
	if !json.Valid(data) {
		return errors.New("a run's record is not valid JSON")
	}
	i := 0
	ws := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
			i++
		}
	}
	str := func() string { // at the opening quote; i ends past the closing one
		start, escaped := i, false
		for i++; data[i] != '"'; i++ {
			if data[i] == '\\' {
				escaped = true
				i++
			}
		}
		i++
		if !escaped {
			return string(data[start+1 : i-1])
		}
		var s string
		_ = json.Unmarshal(data[start:i], &s) // valid JSON string
		return s
	}
	ws()
	if data[i] != '{' {
		return errors.New("a run's record is not a JSON object")
	}
	i++
	for ws(); data[i] != '}'; ws() {
		if data[i] == ',' {
			i++
			ws()
		}
		name := str()
		ws()
		i++ // the colon
		ws()
		var v json.Token
		switch c := data[i]; c {
		case '"':
			v = str()
		case '{', '[':
			return member(name, json.Delim(c)) // which refuses it: the scan cannot go on
		default:
			start := i
			for i < len(data) && !strings.ContainsRune(",} \t\n\r", rune(data[i])) {
				i++
			}
			switch lit := string(data[start:i]); lit {
			case "null":
			case "true", "false":
				v = lit == "true"
			default:
				v = json.Number(lit)
			}
		}
		if err := member(name, v); err != nil {
			return err
		}
	}
	return nil
}

// leadIndex is the index of the lead member named name, -1 if none.
func leadIndex(lead []Field, name string) int {
	for i, f := range lead {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// checkFields requires every lead member and every field, the serving
// model's all or none, and tells which.
func checkFields(fields []recordField, seen []bool, lead []Field, leadSeen []bool) (serving bool, err error) {
	for i, f := range lead {
		if !leadSeen[i] {
			return false, fmt.Errorf("no field %q", f.Name)
		}
	}
	first := -1 // the first field of the serving model present
	for i, f := range fields {
		if f.serving && seen[i] && first < 0 {
			first = i
		}
	}
	for i, f := range fields {
		switch {
		case seen[i]:
		case !f.serving:
			return false, fmt.Errorf("no field %q", f.name)
		case first >= 0:
			return false, fmt.Errorf("no field %q, though %q of the serving model is there", f.name, fields[first].name)
		}
	}
	return first >= 0, nil
}

// decodeField sets the field p points to from v, a JSON scalar.
func decodeField(name string, v json.Token, p any) error {
	switch p := p.(type) {
	case *string:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("field %q: got JSON %s, want a string", name, tokenText(v))
		}
		*p = s
	case *fingerprint:
		s, _ := v.(string)
		fp, err := strconv.ParseUint(s, 16, 64)
		if err != nil || len(s) != 16 {
			return fmt.Errorf("field %q: got JSON %s, want 16 hex digits", name, tokenText(v))
		}
		*p = fingerprint(fp)
	case *uint64:
		n, _ := v.(json.Number)
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil {
			return fmt.Errorf("field %q: got JSON %s, want an integer >= 0", name, tokenText(v))
		}
		*p = u
	case *int:
		n, err := integer(name, v)
		if err != nil {
			return err
		}
		*p = int(n)
	case *int64:
		n, err := integer(name, v)
		if err != nil {
			return err
		}
		*p = n
	case *float64:
		if v == nil {
			*p = math.NaN()
			return nil
		}
		n, _ := v.(json.Number)
		// A JSON number is a decimal ParseFloat reads exactly; one beyond
		// float64's range is refused, not made an infinity.
		x, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return fmt.Errorf("field %q: got JSON %s, want a finite number or null", name, tokenText(v))
		}
		*p = x
	}
	return nil
}

// integer reads a count.
func integer(name string, v json.Token) (int64, error) {
	n, _ := v.(json.Number)
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || int64(int(i)) != i {
		return 0, fmt.Errorf("field %q: got JSON %s, want an integer", name, tokenText(v))
	}
	return i, nil
}

// tokenText shows a JSON scalar as JSON.
func tokenText(v json.Token) string {
	if n, ok := v.(json.Number); ok {
		return string(n)
	}
	b, _ := json.Marshal(v) // a scalar token always encodes
	return string(b)
}
