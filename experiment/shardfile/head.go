package shardfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
)

// A study's second round reads the first round's heads only: the part of
// each development shard before its runs' records.

// ReadHead reads a development shard's head (everything before its
// runs' records), checked as Read checks it, its runs left out:
// what a study's second round needs. A file laid out otherwise than Encode
// writes it is read whole.
func ReadHead(data []byte) (*File, error) { return new(HeadReader).Read(data) }

// HeadReader reads development shards' heads, as ReadHead. Every
// validation shard reads every development shard's head, and the heads of
// one study are alike but for their shard and attainments. Knowing the
// study's configuration as a head holds it (config, the bytes Encode
// writes, and cfg, what decoding them gives), a head whose configuration
// is those bytes gets cfg without decoding them again. It reads every
// file's head into one buffer (load): nothing read keeps a reference to
// it, so reading 30 heads touches no fresh memory after the first.
type HeadReader struct {
	config []byte
	cfg    Config
	buf    []byte
}

// NewHeadReader is a HeadReader that knows cfg; one that does not when
// cfg's bytes hold a "config" key (see decodeRest).
func NewHeadReader(cfg Config) *HeadReader {
	config, err := json.MarshalIndent(&cfg, "  ", "  ") // as nested in Encode's head
	if err != nil || bytes.Contains(bytes.ToLower(config), []byte(`"config"`)) {
		return new(HeadReader)
	}
	f, err := decodeShardFile(fmt.Appendf(nil, `{"format":%q,"format_version":%d,"config":%s}`, Format, FormatVersion, config))
	if err != nil {
		return new(HeadReader)
	}
	return &HeadReader{config: config, cfg: f.Config}
}

// load reads the head of the file name, into r's buffer.
func (r *HeadReader) Load(name string) ([]byte, error) {
	var err error
	r.buf, err = readFileHead(name, r.buf[:0])
	return r.buf, err
}

func (r *HeadReader) Read(data []byte) (*File, error) {
	i := bytes.Index(data, []byte(runsKey))
	if i < 0 {
		return Read(data)
	}
	head := data[:i:i]
	f, err := r.decodeHead(head)
	if err != nil {
		return nil, err
	}
	if err := f.checkHead(); err != nil {
		return nil, err
	}
	if f.Phase != "development" || len(f.Attainment) != f.Shard.Shard().Size(f.Total) {
		return nil, fmt.Errorf("a %s shard with %d development attainments for its %d runs", yesNo(f.Phase == "", "non-study", f.Phase), len(f.Attainment), f.Shard.Shard().Size(f.Total))
	}
	return f, nil
}

// attainmentKey starts a development shard's attainments as Encode writes
// them, on one line that ends the head.
const attainmentKey = ",\n  \"development_attainment\": ["

// decodeHead decodes a head (with no runs). The attainments are most of
// it: laid out as Encode writes them, they are read by parseNumbers, and
// only the rest through encoding/json (see decodeRest). What that accepts,
// decoding the whole head accepts alike — the attainments' line is the
// object's last member (a raw newline is never inside a JSON string, and
// the rest must close as one object), each element a JSON number or null,
// a later key winning as it would — so anything else (an error included)
// takes the whole decode.
func (r *HeadReader) decodeHead(head []byte) (*File, error) {
	whole := func() (*File, error) {
		return decodeShardFile(append(head, runsKey+"]\n}\n"...))
	}
	j := bytes.LastIndexByte(head, '\n') - 1
	if j < 0 || !bytes.HasPrefix(head[j:], []byte(attainmentKey)) || !bytes.HasSuffix(head, []byte("],")) {
		return whole()
	}
	att, ok := parseNumbers(head[j+len(attainmentKey) : len(head)-2])
	if !ok {
		return whole()
	}
	f, err := r.decodeRest(append(head[:j:j], ","+runsKey+"]\n}\n"...))
	if err != nil {
		return whole()
	}
	f.Attainment = att
	return f, nil
}

// decodeRest decodes a head without its attainments. When r knows the
// configuration, the head's is, if it is r's bytes, cut out before
// decoding and r's decoded configuration stands for it: decoding the same
// bytes into an empty configuration gives the same, and the configuration
// is most of what is left (the study's seeds, one to a line). That needs
// the head's "config" key to be the only one encoding/json matches to it
// (case-insensitively and after unescaping; no letter of "config" has a
// non-ASCII fold, only k and s do): so a head with a backslash, or with
// "config" twice in any case, is decoded whole. r's configuration holds no
// such key (NewHeadReader), so the head has it twice exactly when what is
// left once it is cut out does. What is left decodes exactly when the
// head does (the configuration is one whole JSON value, and "null" is
// another); when it does not, the head is decoded whole, for its error.
func (r *HeadReader) decodeRest(rest []byte) (*File, error) {
	member := r.member()
	i := bytes.Index(rest, member)
	if member == nil || i < 0 || bytes.IndexByte(rest, '\\') >= 0 {
		return decodeShardFile(rest)
	}
	left := slices.Concat(rest[:i], []byte(`"config": null`), rest[i+len(member):])
	if bytes.Count(bytes.ToLower(left), []byte(`"config"`)) != 1 {
		return decodeShardFile(rest)
	}
	var raw struct {
		File
		Config json.RawMessage `json:"config"`
	}
	if err := decodeStrict(left, &raw, &raw.File); err != nil || string(raw.Config) != "null" {
		return decodeShardFile(rest)
	}
	f := raw.File
	f.Config = r.cfg
	return &f, nil
}

// member is the configuration's member of a head as Encode writes it, nil
// when r does not know the configuration.
func (r *HeadReader) member() []byte {
	if r.config == nil {
		return nil
	}
	return slices.Concat([]byte(`"config": `), r.config)
}

// parseNumbers reads the elements of a JSON array of numbers and nulls
// written without spaces (json.Marshal's []number), a null as NaN, as
// number.UnmarshalJSON reads each; ok is false for anything else.
func parseNumbers(list []byte) (out []number, ok bool) {
	if len(list) == 0 {
		return []number{}, true
	}
	out = make([]number, 0, bytes.Count(list, []byte(","))+1)
	for len(list) > 0 {
		elem := list
		if k := bytes.IndexByte(list, ','); k >= 0 {
			elem, list = list[:k], list[k+1:]
			if len(list) == 0 {
				return nil, false // a trailing comma
			}
		} else {
			list = nil
		}
		if string(elem) == "null" {
			out = append(out, number(math.NaN()))
			continue
		}
		if !isJSONNumber(elem) {
			return nil, false
		}
		v, err := strconv.ParseFloat(string(elem), 64)
		if err != nil {
			return nil, false
		}
		out = append(out, number(v))
	}
	return out, true
}

// isJSONNumber reports whether b is a number in JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(b []byte) bool {
	digits := func() bool {
		n := 0
		for len(b) > 0 && b[0] >= '0' && b[0] <= '9' {
			b, n = b[1:], n+1
		}
		return n > 0
	}
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	switch {
	case len(b) == 0:
		return false
	case b[0] == '0':
		b = b[1:]
	case !digits():
		return false
	}
	if len(b) > 0 && b[0] == '.' {
		b = b[1:]
		if !digits() {
			return false
		}
	}
	if len(b) > 0 && (b[0] == 'e' || b[0] == 'E') {
		b = b[1:]
		if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
			b = b[1:]
		}
		if !digits() {
			return false
		}
	}
	return len(b) == 0
}

// readFileHead reads a shard file up to the start of its runs' records,
// or whole when they do not start as Encode writes them: what
// ReadHead reads, without reading (and collecting) every record of
// every development shard in each validation shard. It appends to data, a
// chunk at a time.
func readFileHead(name string, data []byte) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	const chunk = 16 << 10
	for {
		if cap(data)-len(data) < chunk {
			data = slices.Grow(data, chunk)
		}
		n, err := f.Read(data[len(data):cap(data)])
		// The key may straddle two chunks: search from just before this one.
		from := max(len(data)-len(runsKey), 0)
		data = data[:len(data)+n]
		if bytes.Contains(data[from:], []byte(runsKey)) {
			return data, nil
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err // a *PathError naming the file, as os.ReadFile's
		}
	}
}
