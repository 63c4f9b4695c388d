package kernel

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

// The expected signature was computed with jupyter_client's Session.sign.
func TestSignMatchesJupyterClient(t *testing.T) {
	s, err := newSigner("hmac-sha256", "secret")
	if err != nil {
		t.Fatal(err)
	}
	parts := [4][]byte{[]byte(`{"msg_id":"1","msg_type":"kernel_info_request"}`), []byte("{}"), []byte("{}"), []byte("{}")}
	const want = "0fca6e189cdcc0095e523565e0900c86cd24e5e0bfab2105ab98d33a07a29a4e"
	if got := string(s.sign(parts)); got != want {
		t.Fatalf("sign = %s, want %s", got, want)
	}
	if err := s.verify([]byte(strings.ToUpper(want)), parts); err != nil {
		t.Errorf("upper-case hex rejected: %v", err)
	}
	parts[3] = []byte(`{"x":1}`)
	if err := s.verify([]byte(want), parts); err == nil {
		t.Error("signature accepted for altered content")
	}
}

func TestSignerSchemes(t *testing.T) {
	for _, scheme := range []string{"hmac-sha256", "hmac-sha512", "hmac-sha1"} {
		if _, err := newSigner(scheme, "k"); err != nil {
			t.Errorf("%s: %v", scheme, err)
		}
	}
	if _, err := newSigner("hmac-md5", "k"); err == nil || !strings.Contains(err.Error(), "hmac-sha256") {
		t.Errorf("hmac-md5: %v (want an error naming the supported schemes)", err)
	}
	s, _ := newSigner("hmac-sha256", "")
	if s.enabled() || len(s.sign([4][]byte{})) != 0 {
		t.Error("an empty key must disable signing")
	}
}

func TestEncodeParseRoundTrip(t *testing.T) {
	s, _ := newSigner("hmac-sha256", "k")
	var id identity
	id.session = "s"
	h := id.header("execute_request")
	frames, err := encode(s, [][]byte{[]byte("peer")}, h, []byte(`{"msg_id":"p"}`), nil, map[string]any{"code": "echo 1"})
	if err != nil {
		t.Fatal(err)
	}
	frames = append(frames, []byte("buffer"))
	m, err := parseMessage(frames, s)
	if err != nil {
		t.Fatal(err)
	}
	if m.header != h || string(m.content) != `{"code":"echo 1"}` || len(m.ids) != 1 || len(m.buffers) != 1 {
		t.Errorf("round trip: %+v", m)
	}
	if h2 := id.header("x"); h2.MsgID == h.MsgID || h2.Version != ProtocolVersion || h2.Date == "" {
		t.Errorf("headers %+v %+v", h, h2)
	}
}

// FuzzParseMessage checks that no input makes the parser panic, that only
// correctly signed messages pass, and that a correctly signed message is
// accepted exactly when its frames are JSON objects with a msg_type.
func FuzzParseMessage(f *testing.F) {
	f.Add([]byte("id"), []byte(""), []byte(`{"msg_id":"1","msg_type":"execute_request"}`), []byte("{}"), []byte("{}"), []byte(`{"code":"x"}`), uint8(0))
	f.Add([]byte(""), []byte("00"), []byte(`{"msg_type":""}`), []byte("[]"), []byte("{}"), []byte("{"), uint8(3))
	f.Add([]byte("<IDS|MSG>"), []byte("zz"), []byte("\xff\xfe"), []byte("{}"), []byte("null"), []byte("{}"), uint8(9))
	s, _ := newSigner("hmac-sha256", "fuzz-key")
	unsigned, _ := newSigner("hmac-sha256", "")
	f.Fuzz(func(t *testing.T, ids, sig, hdr, parent, meta, content []byte, shape uint8) {
		parts := [4][]byte{hdr, parent, meta, content}
		frames := [][]byte{ids, []byte(delimiter), sig, hdr, parent, meta, content}
		if shape&1 == 1 {
			frames = frames[1:] // no identity
		}
		if cut := int(shape>>1) % 8; cut > 0 && cut < len(frames) {
			frames = frames[:len(frames)-cut] // too few frames
		}
		if _, err := parseMessage(frames, s); err == nil && !bytes.Equal(ids, []byte(delimiter)) {
			got, _ := hex.DecodeString(string(sig))
			if !bytes.Equal(got, s.mac(parts)) {
				t.Fatalf("accepted a bad signature %q", sig)
			}
		}
		good := [][]byte{ids, []byte(delimiter), s.sign(parts), hdr, parent, meta, content}
		if bytes.Equal(ids, []byte(delimiter)) {
			good = good[1:] // an identity equal to the delimiter would shift the frames
		}
		m, err := parseMessage(good, s)
		mu, erru := parseMessage(good, unsigned)
		if (err == nil) != (erru == nil) {
			t.Fatalf("signed and unsigned kernels disagree: %v / %v", err, erru)
		}
		if err != nil {
			if strings.Contains(err.Error(), "signature") {
				t.Fatalf("a correctly signed message failed verification: %v", err)
			}
			return
		}
		for _, p := range parts {
			if !isJSONObject(p) {
				t.Fatalf("accepted a non-object frame %q", p)
			}
		}
		if m.header.MsgType == "" || !bytes.Equal(m.content, content) || m.header != mu.header {
			t.Fatalf("parsed %+v from %q", m.header, hdr)
		}
	})
}
