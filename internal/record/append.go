package record

import (
	"encoding/json"
	"math"
	"strconv"
)

// A shard file is mostly its runs' records, and encoding/json spends most
// of their writing on reflection and on a nested Marshal for every number.
// Records are appended with JSONObject instead, byte for byte as
// json.Marshal writes the same members (the tests compare the two on
// random values).

// JSONObject appends one JSON object's members, compact.
type JSONObject struct {
	b   []byte
	n   int    // members so far
	bad string // the first member whose value JSON cannot hold
}

// NewJSONObject starts an object at the end of b.
func NewJSONObject(b []byte) JSONObject { return JSONObject{b: append(b, '{')} }

func (o *JSONObject) key(name string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = appendString(o.b, name)
	o.b = append(o.b, ':')
}

// Int appends an integer member.
func (o *JSONObject) Int(name string, v int64) {
	o.key(name)
	o.b = strconv.AppendInt(o.b, v, 10)
}

// Uint appends an unsigned integer member.
func (o *JSONObject) Uint(name string, v uint64) {
	o.key(name)
	o.b = strconv.AppendUint(o.b, v, 10)
}

// Str appends a string member.
func (o *JSONObject) Str(name, v string) {
	o.key(name)
	o.b = appendString(o.b, v)
}

// Float appends a number member as AppendFloat does; an infinity makes
// Close report the member.
func (o *JSONObject) Float(name string, v float64) {
	o.key(name)
	var ok bool
	if o.b, ok = AppendFloat(o.b, v); !ok && o.bad == "" {
		o.bad = name
	}
}

// Close ends the object and returns the bytes; bad names the first member
// whose value JSON cannot hold (an infinity), "" when there is none.
func (o *JSONObject) Close() (b []byte, bad string) { return append(o.b, '}'), o.bad }

// appendString appends v as json.Marshal does: a string with nothing to
// escape (printable ASCII but for the quote, the backslash and the
// characters HTML escaping takes) as it is, any other through json.Marshal.
func appendString(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(v) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, v...)
	return append(b, '"')
}

// AppendFloat appends v as MarshalValue writes it: NaN as null, others as
// encoding/json writes a float64 (the shortest decimal that reads back the
// same, with an exponent below 1e-6 and from 1e21); false for an infinity,
// which a record cannot hold to the bit.
func AppendFloat(b []byte, v float64) ([]byte, bool) {
	switch {
	case math.IsNaN(v):
		return append(b, "null"...), true
	case math.IsInf(v, 0):
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if n := len(b); format == 'e' && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-07 is written e-7
		b = b[:n-1]
	}
	return b, true
}
