package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// controlWire is controlMsg with every field optional: the encoding a
// page's script sends, with a field that is absent left out.
type controlWire struct {
	Seq     *int64          `json:"seq,omitempty"`
	Action  string          `json:"action,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	Replica json.RawMessage `json:"replica,omitempty"`
	Policy  *string         `json:"policy,omitempty"`
	Hidden  *bool           `json:"hidden,omitempty"`
	Setup   *setup          `json:"setup,omitempty"`
}

// FuzzControl posts control messages to a page of a running console, as its
// script does, through the server's handler. For every body: no panic; the
// answer is 200 with an ack echoing seq and action, or 400 with an error
// that names what was wrong as it was sent (the body when it is not a
// message, the action when it is unknown, the field when the action does
// not take it, and the value of rate, speed or replica when it is out of
// range). A message that decodes, encoded again with only its present
// fields, decodes to the same message.
func FuzzControl(f *testing.F) {
	for _, seed := range []string{
		`{"seq": 1, "action": "rate", "value": 250}`,
		`{"seq": 2, "action": "speed", "value": 400}`,
		`{"seq": 3, "action": "burst"}`,
		`{"seq": 4, "action": "straggler", "replica": 2}`,
		`{"seq": 5, "action": "fail", "replica": 3}`,
		`{"seq": 6, "action": "recover", "replica": 3}`,
		`{"seq": 7, "action": "policy", "policy": "least-queue"}`,
		`{"seq": 8, "action": "pause"}`,
		`{"seq": 9, "action": "resume"}`,
		`{"seq": 10, "action": "visibility", "hidden": true}`,
		`{"seq": 11, "action": "reset", "setup": {"scenario": "steady", "rate_rps": 100, "heterogeneity": "high", "replicas": 4, "seed": 2, "speed": 120, "policy": "adaptive"}}`,
		`{"action": "rate", "value": 1e999}`,
		`{"action": "rate", "value": "NaN"}`,
		`{"action": "fail", "replica": 2.5}`,
		`{"action": "fail", "replica": 9}`,
		`{"action": "burst", "value": null}`,
		`{"action": "explode"}`,
		`{"action": "rate", "value": 5} {}`,
		`{"action": "rate", "colour": 5}`,
		`[1]`,
		``,
	} {
		f.Add([]byte(seed))
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.Cleanup(cancel)
	srv, err := New(ctx, Config{Grace: time.Hour})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(srv.Close)
	h := srv.Handler()
	post := func(path string, body []byte) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080"+path, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	var created struct{ ID string }
	if w := post("/api/pages", []byte("{}")); w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &created) != nil {
		f.Fatalf("a page: %d %s", w.Code, w.Body)
	}
	srv.mu.Lock()
	p := srv.pages[created.ID]
	srv.mu.Unlock()
	runs := 0

	f.Fuzz(func(t *testing.T, body []byte) {
		if runs++; runs%500 == 0 {
			// The session records every control; start afresh now and
			// then so that a long run does not slow down.
			if err := p.start(defaultSetup()); err != nil {
				t.Fatal(err)
			}
		}
		p.mu.Lock()
		replicas := p.setup.Replicas
		p.mu.Unlock()

		w := post("/api/pages/"+created.ID+"/control", body)
		var answer struct {
			Seq    *int64  `json:"seq"`
			Action string  `json:"action"`
			Error  string  `json:"error"`
			At     float64 `json:"at_ms"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil {
			t.Fatalf("the answer %d is not JSON: %v: %s", w.Code, err, w.Body)
		}
		if w.Code != http.StatusOK && w.Code != http.StatusBadRequest {
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body)
		}
		if w.Code == http.StatusBadRequest && answer.Error == "" {
			t.Fatalf("a refusal without an error: %s", w.Body)
		}

		var m controlMsg
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil || dec.More() {
			if w.Code != http.StatusBadRequest || !strings.Contains(answer.Error, "the message "+asJSON(quote(body))+" is not one") {
				t.Fatalf("%q is not a message, yet the answer is %d %s", body, w.Code, w.Body)
			}
			return
		}

		// A message re-encoded with its present fields reads the same.
		again, err := json.Marshal(controlWire(m))
		if err != nil {
			t.Fatalf("%+v does not encode: %v", m, err)
		}
		var back controlMsg
		dec = json.NewDecoder(bytes.NewReader(again))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&back); err != nil {
			t.Fatalf("%s, re-encoded from %q, does not decode: %v", again, body, err)
		}
		if !reflect.DeepEqual(compactRaw(t, m), compactRaw(t, back)) {
			t.Fatalf("%q re-encoded as %s reads as %+v, not %+v", body, again, back, m)
		}

		if w.Code == http.StatusOK {
			if !reflect.DeepEqual(answer.Seq, m.Seq) || answer.Action != m.Action {
				t.Fatalf("the ack %s does not echo seq %v and action %q", w.Body, m.Seq, m.Action)
			}
			return
		}
		var act *action
		for _, a := range actions() {
			if a.name == m.Action {
				act = &a
			}
		}
		if act == nil {
			if want := fmt.Sprintf("action: %q is not allowed", m.Action); !strings.HasPrefix(answer.Error, want) {
				t.Fatalf("an unknown action: %q, want it to start %q", answer.Error, want)
			}
			return
		}
		if !strings.HasPrefix(answer.Error, m.Action+": ") {
			t.Fatalf("the error %q does not name the action %q", answer.Error, m.Action)
		}
		for _, name := range m.present() {
			if !slices.Contains(act.fields, name) {
				if want := fmt.Sprintf("field %q is not allowed", name); !strings.Contains(answer.Error, want) {
					t.Fatalf("the error %q does not name the field %s, which %s does not take", answer.Error, name, m.Action)
				}
				return
			}
		}
		raw, bad := badValue(m, replicas)
		if bad && !strings.Contains(answer.Error, ": "+asJSON(quote(raw))+" is not allowed (want ") {
			t.Fatalf("the error %q does not name the bad value %s as sent", answer.Error, raw)
		}
	})
}

// asJSON is s as a client reads it in a JSON answer: bytes that are not
// UTF-8 (a body of any bytes, or one cut mid-character by quote) arrive
// as U+FFFD.
func asJSON(s string) string {
	b, _ := json.Marshal(s)
	var back string
	json.Unmarshal(b, &back)
	return back
}

// compactRaw is m with its raw values compacted, as json.Marshal writes
// them.
func compactRaw(t *testing.T, m controlMsg) controlMsg {
	for _, raw := range []*json.RawMessage{&m.Value, &m.Replica} {
		if *raw == nil {
			continue
		}
		var b bytes.Buffer
		if err := json.Compact(&b, *raw); err != nil {
			t.Fatalf("the decoder kept %q, which is not JSON: %v", *raw, err)
		}
		*raw = b.Bytes()
	}
	return m
}

// badValue is the raw number of a rate, speed or replica control that the
// console must refuse, worked out independently of control.go: not a
// finite number in the range, or not a replica id of the page's cluster.
func badValue(m controlMsg, replicas int) ([]byte, bool) {
	inRange := func(lo, hi float64) bool {
		v, err := strconv.ParseFloat(string(m.Value), 64)
		return err == nil && !math.IsNaN(v) && v >= lo && v <= hi
	}
	switch m.Action {
	case "rate":
		return m.Value, m.Value != nil && !inRange(MinRate, MaxRate)
	case "speed":
		return m.Value, m.Value != nil && !inRange(MinSpeed, MaxSpeed)
	case "straggler", "fail", "recover":
		id, err := strconv.Atoi(string(m.Replica))
		return m.Replica, m.Replica != nil && (err != nil || id < 1 || id > replicas)
	}
	return nil, false
}
