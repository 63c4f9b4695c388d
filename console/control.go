package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/routelab/routelab/live"
)

// maxControl bounds a control message: a control is a few dozen bytes.
const maxControl = 64 << 10

// The scenario triggers: the specification's burst (traffic ×2 for 3 s)
// and straggler (a replica ×5 slower for 5 s), starting now.
const (
	burstFactor     = 2.0
	burstMs         = 3000.0
	stragglerFactor = 5.0
	stragglerMs     = 5000.0
)

// controlMsg is one control a page posts, a JSON object such as
// {"seq": 12, "action": "fail", "replica": 2}. seq is the page's number for
// it, echoed in the ack or error. Numbers are kept raw so that a bad one is
// named as it was sent.
type controlMsg struct {
	Seq     *int64          `json:"seq"`
	Action  string          `json:"action"`
	Value   json.RawMessage `json:"value"`
	Replica json.RawMessage `json:"replica"`
	Policy  *string         `json:"policy"`
	Hidden  *bool           `json:"hidden"`
	Setup   *setup          `json:"setup"`
}

// action is one kind of control: the fields it takes and what it does.
type action struct {
	name   string
	fields []string // besides seq and action
	apply  func(p *page, m controlMsg) error
}

// actions is the one list of controls; messages, errors and docs follow it.
func actions() []action {
	return []action{
		{"rate", []string{"value"}, (*page).setRate},
		{"speed", []string{"value"}, (*page).setSpeed},
		{"burst", nil, (*page).burst},
		{"straggler", []string{"replica"}, (*page).straggler},
		{"fail", []string{"replica"}, func(p *page, m controlMsg) error { return p.onReplica(m, live.Fail) }},
		{"recover", []string{"replica"}, func(p *page, m controlMsg) error { return p.onReplica(m, live.Recover) }},
		{"policy", []string{"policy"}, (*page).usePolicy},
		{"pause", nil, func(p *page, _ controlMsg) error { return p.setPaused(func() { p.userPaused = true }) }},
		{"resume", nil, func(p *page, _ controlMsg) error { return p.setPaused(func() { p.userPaused = false }) }},
		{"visibility", []string{"hidden"}, (*page).visibility},
		{"reset", []string{"setup"}, (*page).reset},
	}
}

// control applies one control message. The page learns the outcome on its
// own stream (an ack, or a control-error naming the bad value and what is
// allowed) and in the response; a bad message changes nothing.
func (s *Server) control(w http.ResponseWriter, r *http.Request, p *page) {
	var m controlMsg
	err := readJSON(w, r, &m, `{"action": "fail", "replica": 2}`)
	if err == nil {
		err = p.apply(m)
	}
	if err != nil {
		p.send("control-error", map[string]any{"seq": m.Seq, "error": err.Error()})
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	ack := map[string]any{"seq": m.Seq, "action": m.Action, "at_ms": p.session().Now()}
	p.send("ack", ack)
	p.send("state", p.state())
	writeJSON(w, http.StatusOK, ack)
}

// readJSON decodes a request body of one JSON object into v, refusing
// bodies over maxControl bytes, unknown fields and trailing data; an error
// shows the start of the body as sent and an example of what is wanted.
func readJSON(w http.ResponseWriter, r *http.Request, v any, example string) error {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxControl))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return fmt.Errorf("a message of more than %d bytes refused (want a small JSON object such as %s)", tooBig.Limit, example)
	}
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("data after the object")
	}
	if err != nil {
		return fmt.Errorf("the message %s is not one: %v (want a JSON object such as %s)", quote(data), err, example)
	}
	return nil
}

// apply checks the message's action and fields and applies it.
func (p *page) apply(m controlMsg) error {
	var names []string
	for _, a := range actions() {
		names = append(names, a.name)
		if a.name != m.Action {
			continue
		}
		for _, f := range m.present() {
			if !slices.Contains(a.fields, f) {
				return fmt.Errorf("%s: field %q is not allowed (%s takes %s)", a.name, f, a.name, takes(a.fields))
			}
		}
		if err := a.apply(p, m); err != nil {
			return fmt.Errorf("%s: %w", a.name, err)
		}
		return nil
	}
	return field("action", m.Action, "one of "+strings.Join(names, ", "))
}

// present lists the optional fields the message has.
func (m controlMsg) present() []string {
	var out []string
	for _, f := range []struct {
		name string
		has  bool
	}{{"value", m.Value != nil}, {"replica", m.Replica != nil}, {"policy", m.Policy != nil}, {"hidden", m.Hidden != nil}, {"setup", m.Setup != nil}} {
		if f.has {
			out = append(out, f.name)
		}
	}
	return out
}

func takes(fields []string) string {
	if len(fields) == 0 {
		return "no other field"
	}
	return strings.Join(fields, ", ")
}

func (p *page) setRate(m controlMsg) error {
	v, err := number("value", m.Value, MinRate, MaxRate, "a rate in req/s")
	if err != nil {
		return err
	}
	return p.session().Do(live.SetRate(v))
}

func (p *page) setSpeed(m controlMsg) error {
	v, err := number("value", m.Value, MinSpeed, MaxSpeed, "simulated ms per real second")
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.setup.Speed = v // a reset keeps the dilation
	p.mu.Unlock()
	return p.session().SetSpeed(v)
}

// burst doubles the traffic for 3 s, then returns it to the rate before.
func (p *page) burst(controlMsg) error {
	sess := p.session()
	f := sess.Frame()
	if err := sess.Do(live.SetRate(f.Rate * burstFactor)); err != nil {
		return err
	}
	return sess.At(f.Now+burstMs, live.SetRate(f.Rate))
}

// straggler slows a replica (1 unless given) ×5 for 5 s.
func (p *page) straggler(m controlMsg) error {
	id := 1
	if m.Replica != nil {
		var err error
		if id, err = p.replica(m.Replica); err != nil {
			return err
		}
	}
	sess := p.session()
	now := sess.Now()
	if err := sess.Do(live.Slow(id, stragglerFactor)); err != nil {
		return err
	}
	return sess.At(now+stragglerMs, live.Restore(id))
}

func (p *page) onReplica(m controlMsg, c func(int) live.Control) error {
	if m.Replica == nil {
		return missing("replica", p.replicaRange())
	}
	id, err := p.replica(m.Replica)
	if err != nil {
		return err
	}
	return p.session().Do(c(id))
}

func (p *page) usePolicy(m controlMsg) error {
	if m.Policy == nil {
		return missing("policy", "one of "+strings.Join(p.srv.policies.names(), ", "))
	}
	pol, err := p.srv.policies.lookup(*m.Policy)
	if err != nil {
		return err
	}
	return p.session().Do(live.Use(pol.spec))
}

func (p *page) setPaused(change func()) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	change()
	p.pauseLocked()
	return nil
}

// visibility pauses the simulation while the page is hidden.
func (p *page) visibility(m controlMsg) error {
	if m.Hidden == nil {
		return missing("hidden", "true or false")
	}
	return p.setPaused(func() { p.hidden = *m.Hidden })
}

func (p *page) reset(m controlMsg) error {
	if m.Setup == nil {
		return missing("setup", "an object with scenario, rate_rps, heterogeneity, replicas, seed, speed and policy")
	}
	return p.start(*m.Setup)
}

// replica reads a replica id of the page's cluster.
func (p *page) replica(raw json.RawMessage) (int, error) {
	v, err := strconv.Atoi(string(raw))
	p.mu.Lock()
	n := p.setup.Replicas
	p.mu.Unlock()
	if err != nil || v < 1 || v > n {
		return 0, field("replica", word(raw), p.replicaRange())
	}
	return v, nil
}

func (p *page) replicaRange() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("a replica id from 1 to %d", p.setup.Replicas)
}

// number reads a finite number in [lo, hi].
func number(name string, raw json.RawMessage, lo, hi float64, what string) (float64, error) {
	allowed := fmt.Sprintf("%s from %g to %g", what, lo, hi)
	if raw == nil {
		return 0, missing(name, allowed)
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsNaN(v) || v < lo || v > hi {
		return 0, field(name, word(raw), allowed)
	}
	return v, nil
}

// missing is a required field left out.
func missing(name, allowed string) error {
	return fmt.Errorf("%s is missing (want %s)", name, allowed)
}

// word shows a raw JSON value as sent, so that an error names it exactly
// ("NaN" stays a string, 1e999 stays 1e999).
type word []byte

func (w word) String() string { return quote(w) }

// quote shortens a message for an error, keeping its start.
func quote(data []byte) string {
	const show = 80
	if len(data) > show {
		return string(data[:show]) + fmt.Sprintf("… (%d bytes)", len(data))
	}
	return string(data)
}
