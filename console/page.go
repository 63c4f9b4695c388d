package console

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/routelab/routelab/live"
)

// page is the simulation of one open console page: a live session, the
// setup it started from, and the event streams the page reads. It is freed
// when the page has had no stream for the server's grace period (the page
// was closed), or when the server stops.
type page struct {
	id  string
	srv *Server
	ctx context.Context // ends when the page is freed
	end context.CancelFunc

	mu         sync.Mutex // guards everything below
	setup      setup
	baseEvents int // events of the setup's scenario; the session's controls follow
	sess       *live.Session
	gen        int // counts sessions, so frames of a replaced one are dropped
	userPaused bool
	hidden     bool
	streams    map[*stream]bool
	idle       *time.Timer // frees the page; running while it has no stream
	freed      bool
	lastFrame  []byte // the last frame sent, to skip repeats while paused
	comparing  bool
}

// newPage starts a page's simulation from the default setup.
func newPage(srv *Server, id string) (*page, error) {
	p := &page{id: id, srv: srv, setup: defaultSetup(), streams: map[*stream]bool{}}
	p.ctx, p.end = context.WithCancel(srv.base)
	if err := p.start(p.setup); err != nil {
		p.end()
		return nil, err
	}
	// The timer is made under p.mu: its function reads p.idle (release
	// stops it), and with a short grace period it can fire before newPage
	// returns, so it must wait for the assignment.
	p.mu.Lock()
	p.idle = time.AfterFunc(srv.cfg.Grace, func() { srv.free(p) })
	p.mu.Unlock()
	return p, nil
}

// start replaces the session with a fresh one from su (a reset); the old
// one is stopped outside the lock, since its last frame takes the lock.
func (p *page) start(su setup) error {
	if err := su.validate(p.srv.policies); err != nil {
		return err
	}
	scn, err := su.scenario()
	if err != nil {
		return err
	}
	pol, _ := p.srv.policies.lookup(su.Policy) // validate found it
	p.mu.Lock()
	p.gen++
	gen := p.gen
	p.mu.Unlock()
	sess, err := live.Start(p.ctx, live.Options{Scenario: scn, Policy: pol.spec, Seed: su.Seed, Speed: su.Speed},
		func(f live.Frame) { p.publish(gen, f) })
	if err != nil {
		return err
	}
	p.mu.Lock()
	old := p.sess
	p.sess, p.setup, p.baseEvents, p.lastFrame = sess, su, len(scn.Events), nil
	p.pauseLocked()
	p.mu.Unlock()
	if old != nil {
		old.Stop()
	}
	return nil
}

// pauseLocked pauses the session while the user paused it or the page is
// hidden; p.mu is held.
func (p *page) pauseLocked() {
	if p.userPaused || p.hidden {
		p.sess.Pause()
	} else {
		p.sess.Resume()
	}
}

// publish sends a frame of session gen to every stream, unless it repeats
// the last one (a paused session publishes the same picture every tick).
// The message is {"published_unix_ms": …, "frame": {…}}: when the server
// published it, so a reader can measure delivery, and the frame.
func (p *page) publish(gen int, f live.Frame) {
	body, err := json.Marshal(f)
	if err != nil {
		p.send("problem", map[string]string{"error": "a frame could not be sent: " + err.Error()})
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if gen != p.gen || bytes.Equal(body, p.lastFrame) {
		return
	}
	p.lastFrame = body
	msg := event("frame", fmt.Appendf(nil, `{"published_unix_ms":%.3f,"frame":%s}`, float64(time.Now().UnixMicro())/1000, body))
	for s := range p.streams {
		s.pushFrame(msg)
	}
}

// send queues a message for every stream of the page.
func (p *page) send(name string, v any) {
	msg := mustJSON(v)
	p.mu.Lock()
	defer p.mu.Unlock()
	for s := range p.streams {
		s.push(event(name, msg))
	}
}

// attach adds a stream; while the page has one it is not freed. It
// reports false when the page has been freed already.
func (p *page) attach(s *stream) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.freed {
		return false
	}
	p.streams[s] = true
	p.idle.Stop()
	p.lastFrame = nil // the new stream needs a frame now
	return true
}

// detach removes a stream; the page is freed after the grace period
// unless another stream attaches.
func (p *page) detach(s *stream) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.streams, s)
	if len(p.streams) == 0 && p.ctx.Err() == nil {
		p.idle.Reset(p.srv.cfg.Grace)
	}
}

// release marks the page freed when it has no stream (or when forced, as
// the server stops), and reports whether it did.
func (p *page) release(force bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.freed || (len(p.streams) > 0 && !force) {
		return false
	}
	p.freed = true
	p.idle.Stop()
	return true
}

// stop ends the page's simulation and its streams; release came first.
func (p *page) stop() {
	p.end()
	p.session().Stop()
}

// session is the running session.
func (p *page) session() *live.Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sess
}

// stateMessage tells a page what it steers: the setup, why it is paused,
// and the timeline recorded so far.
type stateMessage struct {
	Setup      setup          `json:"setup"`
	UserPaused bool           `json:"user_paused"`
	Hidden     bool           `json:"hidden"`
	Timeline   []timelineItem `json:"timeline"`
}

type timelineItem struct {
	At   float64 `json:"at_ms"`
	Text string  `json:"text"`
	Live bool    `json:"live"` // a control given in this session, not the scenario's own
}

// state describes the page now.
func (p *page) state() stateMessage {
	p.mu.Lock()
	st := stateMessage{Setup: p.setup, UserPaused: p.userPaused, Hidden: p.hidden, Timeline: []timelineItem{}}
	sess := p.sess
	base := p.baseEvents
	p.mu.Unlock()
	rec := sess.Recording()
	for i, e := range rec.Scenario.Events {
		st.Timeline = append(st.Timeline, timelineItem{At: e.At, Text: e.String(), Live: i >= base})
	}
	for _, sw := range rec.Session.Switches {
		st.Timeline = append(st.Timeline, timelineItem{At: sw.At, Text: fmt.Sprintf("%gs: %s routes", sw.At/1000, sw.Policy), Live: true})
	}
	slices.SortStableFunc(st.Timeline, func(a, b timelineItem) int { return cmp.Compare(a.At, b.At) })
	return st
}

// event is one server-sent event.
func event(name string, data []byte) []byte {
	b := make([]byte, 0, len(name)+len(data)+16)
	b = append(b, "event: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
}
