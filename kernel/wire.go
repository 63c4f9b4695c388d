package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"sync/atomic"
	"time"
)

// ProtocolVersion is the Jupyter messaging protocol version spoken here.
const ProtocolVersion = "5.3"

// delimiter separates routing identities from the signed message frames.
const delimiter = "<IDS|MSG>"

// signer computes and checks message signatures. A nil hash means signing is
// disabled (empty key), as the protocol specifies.
type signer struct {
	key     []byte
	newHash func() hash.Hash
}

func newSigner(scheme, key string) (signer, error) {
	s := signer{key: []byte(key)}
	switch scheme {
	case "hmac-sha256":
		s.newHash = sha256.New
	case "hmac-sha512":
		s.newHash = sha512.New
	case "hmac-sha1":
		s.newHash = sha1.New
	default:
		return s, fmt.Errorf("signature_scheme %q is not supported (want hmac-sha256, hmac-sha512 or hmac-sha1)", scheme)
	}
	if key == "" {
		s.newHash = nil
	}
	return s, nil
}

func (s signer) enabled() bool { return s.newHash != nil }

// mac returns the raw HMAC of the four signed frames.
func (s signer) mac(parts [4][]byte) []byte {
	m := hmac.New(s.newHash, s.key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// sign returns the hex signature frame, empty when signing is disabled.
func (s signer) sign(parts [4][]byte) []byte {
	if !s.enabled() {
		return []byte{}
	}
	sum := s.mac(parts)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// verify checks a received signature in constant time.
func (s signer) verify(sig []byte, parts [4][]byte) error {
	if !s.enabled() {
		return nil
	}
	if len(sig) == 0 {
		return errors.New("missing signature")
	}
	got := make([]byte, hex.DecodedLen(len(sig)))
	if _, err := hex.Decode(got, sig); err != nil {
		return errors.New("signature is not hex")
	}
	if !hmac.Equal(got, s.mac(parts)) {
		return errors.New("signature mismatch")
	}
	return nil
}

// header is a Jupyter message header.
type header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// message is one received request. The raw header is kept so replies can
// echo it verbatim as their parent header.
type message struct {
	ids       [][]byte
	header    header
	rawHeader json.RawMessage
	content   json.RawMessage
	buffers   [][]byte
}

// parseMessage splits, verifies and decodes a multipart message. Signatures
// are checked before any JSON is parsed.
func parseMessage(frames [][]byte, s signer) (*message, error) {
	at := -1
	for i, f := range frames {
		if string(f) == delimiter {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("no <IDS|MSG> delimiter among %d frames", len(frames))
	}
	rest := frames[at+1:]
	if len(rest) < 5 {
		return nil, fmt.Errorf("%d frames after the delimiter, want at least 5", len(rest))
	}
	parts := [4][]byte{rest[1], rest[2], rest[3], rest[4]}
	if err := s.verify(rest[0], parts); err != nil {
		return nil, err
	}
	names := [4]string{"header", "parent header", "metadata", "content"}
	for i, p := range parts {
		if !isJSONObject(p) {
			return nil, fmt.Errorf("%s is not a JSON object", names[i])
		}
	}
	m := &message{ids: frames[:at], rawHeader: parts[0], content: parts[3], buffers: rest[5:]}
	if err := json.Unmarshal(parts[0], &m.header); err != nil {
		return nil, fmt.Errorf("bad header: %v", err)
	}
	if m.header.MsgType == "" {
		return nil, errors.New("header has no msg_type")
	}
	return m, nil
}

func isJSONObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// identity names this kernel's messages: a session id and a counter, so
// message ids are unique without a random source per message.
type identity struct {
	session string
	seq     atomic.Uint64
}

func (id *identity) header(msgType string) header {
	n := id.seq.Add(1)
	return header{
		MsgID:    id.session + "_" + strconv.FormatUint(n, 10),
		Session:  id.session,
		Username: "kernel",
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// encode builds the frames of an outgoing message. parent may be nil (no
// parent); metadata nil means {}.
func encode(s signer, prefix [][]byte, h header, parent json.RawMessage, metadata, content any) ([][]byte, error) {
	hb, err := marshalJSON(h)
	if err != nil {
		return nil, err
	}
	pb := []byte(parent)
	if len(pb) == 0 {
		pb = []byte("{}")
	}
	mb := []byte("{}")
	if metadata != nil {
		if mb, err = marshalJSON(metadata); err != nil {
			return nil, fmt.Errorf("%s metadata: %w", h.MsgType, err)
		}
	}
	cb, err := marshalJSON(content)
	if err != nil {
		return nil, fmt.Errorf("%s content: %w", h.MsgType, err)
	}
	parts := [4][]byte{hb, pb, mb, cb}
	frames := make([][]byte, 0, len(prefix)+6)
	frames = append(frames, prefix...)
	frames = append(frames, []byte(delimiter), s.sign(parts))
	return append(frames, parts[:]...), nil
}

// marshalJSON encodes v without escaping <, > and &: HTML outputs (charts
// are hundreds of kilobytes of markup and script) stay their own size.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
