package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/kernel"
)

const (
	// exitGrace is how long a worker whose kernel went away lets the running
	// cell stop after interrupting it.
	exitGrace = time.Second
)

// Positioner is an Interpreter that can say where its running cell is. The
// worker installs a hook the interpreter calls with the cell's line and
// column before each top-level statement it runs; the worker sends a new
// position to the kernel at once (a death may follow within microseconds),
// and a session that dies names that line.
type Positioner interface {
	SetPositionHook(func(line, col int))
}

// Serve is the worker side of the protocol: it creates the interpreter with
// start, announces it (or why it could not be created), then answers the
// requests read from in, writing events to out, until in ends: the kernel
// closed it or died. The running cell is then interrupted and given
// exitGrace to stop. Logs (panics of the interpreter) go to logw without
// timestamps: the kernel's log, which receives the worker's standard
// error, adds its own.
func Serve(start func() (kernel.Interpreter, error), in io.Reader, out io.Writer, logw io.Writer) error {
	w := newLineWriter(out)
	interp, err := start()
	if err != nil {
		ready := event{Type: evReady, Version: protocolVersion, Error: &display.Error{Name: "SessionError", Value: err.Error()}}
		return errors.Join(err, w.send(ready))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &server{interp: interp, out: w, ctx: ctx, log: log.New(logw, "", 0), input: make(chan request, 1)}
	s.hooks()
	if err := w.send(event{Type: evReady, Version: protocolVersion}); err != nil {
		return err
	}
	err = s.readRequests(in)
	s.stop()
	return err
}

// server answers requests. Executes run one at a time on their own
// goroutine; other requests run concurrently with them.
type server struct {
	interp kernel.Interpreter
	out    *lineWriter
	ctx    context.Context
	log    *log.Logger

	running  atomic.Bool   // an execute is in progress
	cellID   atomic.Uint64 // the running execute's request id
	position atomic.Uint64 // line<<32 | col last sent for the running cell, 0 none
	cellDone chan struct{} // closed when the running execute ends
	mu       sync.Mutex    // guards cellDone
	input    chan request  // the kernel's answer to the running cell's evInput
}

func (s *server) hooks() {
	if p, ok := s.interp.(Positioner); ok {
		p.SetPositionHook(s.positioned)
	}
	if b, ok := s.interp.(kernel.Backgrounder); ok {
		b.SetBackgroundSink(sink{s: s})
	}
}

func (s *server) readRequests(in io.Reader) error {
	dec := json.NewDecoder(in)
	for {
		var r request
		if err := dec.Decode(&r); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("worker: reading requests: %w", err)
		}
		s.handle(r)
	}
}

func (s *server) handle(r request) {
	switch r.Op {
	case opInterrupt:
		s.guard("interrupt", s.interp.Interrupt)
	case opExecute:
		s.startExecute(r)
	case opComplete, opInspect, opIsComplete:
		go s.answer(r)
	case opComm:
		s.comm(r)
	case opInput:
		select {
		case s.input <- r:
		default:
			s.log.Printf("ignored an input answer that no cell asked for")
		}
	default:
		s.log.Printf("ignored a request with unknown op %q", r.Op)
		s.reply(event{ID: r.ID, Type: evResult, Error: &display.Error{Name: "BadRequest", Value: "unknown op " + r.Op}})
	}
}

// comm hands the front end's comm message to the session, on the read
// loop: kernel.Commer's calls return at once, and running them in order
// keeps a comm's messages in order.
func (s *server) comm(r request) {
	m := r.Comm
	if m == nil || m.Kind != kindOpen && m.Kind != kindMsg && m.Kind != kindClose {
		s.log.Printf("ignored a comm request without a known kind: %+v", m)
		if r.ID != 0 {
			s.reply(event{ID: r.ID, Type: evResult, Error: &display.Error{Name: "BadRequest", Value: fmt.Sprintf("bad comm request %+v", m)}})
		}
		return
	}
	c, ok := s.interp.(kernel.Commer)
	if !ok {
		if m.Kind == kindOpen {
			s.reply(event{ID: r.ID, Type: evResult})
		} else {
			s.log.Printf("dropped comm %s on comm %q: the session does not answer comms", m.Kind, m.ID)
		}
		return
	}
	var accepted bool
	err := s.guard("comm "+m.Kind, func() {
		switch m.Kind {
		case kindOpen:
			accepted = c.CommOpen(m.ID, m.Target, m.Data)
		case kindMsg:
			c.CommMsg(m.ID, m.Data)
		case kindClose:
			c.CommClose(m.ID, m.Data)
		}
	})
	if m.Kind == kindOpen {
		s.reply(event{ID: r.ID, Type: evResult, Accepted: accepted && err == nil})
	}
}

func (s *server) reply(ev event) {
	if err := s.out.send(ev); err != nil {
		s.log.Printf("cannot send %s: %v", ev.Type, err)
	}
}

// startExecute runs a cell unless one is running: the kernel sends one at a
// time, so a second one is a bug on its side and fails rather than queues.
func (s *server) startExecute(r request) {
	if !s.running.CompareAndSwap(false, true) {
		s.reply(event{ID: r.ID, Type: evResult, Error: &display.Error{Name: "InternalError", Value: "a cell is already running in this session"}})
		return
	}
	done := make(chan struct{})
	s.mu.Lock()
	s.cellDone = done
	s.mu.Unlock()
	s.position.Store(0)
	s.cellID.Store(r.ID)
	go s.execute(r, done)
}

// positioned sends the running cell's new position.
func (s *server) positioned(line, col int) {
	p := uint64(line)<<32 | uint64(uint32(col))
	if !s.running.Load() || s.position.Swap(p) == p {
		return
	}
	s.reply(event{ID: s.cellID.Load(), Type: evPosition, Line: line, Col: col})
}

func (s *server) execute(r request, done chan struct{}) {
	defer close(done)
	ev := event{ID: r.ID, Type: evResult}
	var v display.Bundle
	var err error
	var k display.Sink = sink{s: s, id: r.ID, headless: r.Headless, stdin: r.Stdin}
	if r.StatusLine {
		k = statusSink{k.(sink)}
	}
	if perr := s.guard("execute", func() { v, err = s.interp.Execute(s.ctx, r.Code, k) }); perr != nil {
		err = &display.Error{Name: "InternalError", Value: perr.Error()}
	}
	switch {
	case err != nil:
		ev.Error = displayError(err)
	case v != nil:
		ev.Data = kernel.WireBundle(v, s.log.Printf)
	}
	s.running.Store(false)
	s.reply(ev)
}

func (s *server) answer(r request) {
	ev := event{ID: r.ID, Type: evResult}
	err := s.guard(r.Op, func() {
		switch r.Op {
		case opComplete:
			c := s.interp.Complete(r.Code, r.Cursor)
			ev.Matches, ev.Start, ev.End = c.Matches, c.Start, c.End
		case opInspect:
			var doc display.Bundle
			doc, ev.Found = s.interp.Inspect(r.Code, r.Cursor)
			if ev.Found {
				ev.Data = kernel.WireBundle(doc, s.log.Printf)
			}
		case opIsComplete:
			ev.Status, ev.Indent = s.interp.IsComplete(r.Code)
		}
	})
	if err != nil {
		ev = event{ID: r.ID, Type: evResult, Error: &display.Error{Name: "InternalError", Value: err.Error()}}
	}
	s.reply(ev)
}

// stop interrupts the running cell, if any, and waits up to exitGrace for it.
func (s *server) stop() {
	if !s.running.Load() {
		return
	}
	s.mu.Lock()
	done := s.cellDone
	s.mu.Unlock()
	s.guard("interrupt", s.interp.Interrupt)
	select {
	case <-done:
	case <-time.After(exitGrace):
		s.log.Printf("the running cell did not stop within %v of the kernel going away", exitGrace)
	}
}

// guard runs an interpreter call, turning a panic into an error (and a log
// line with its stack) so a bug in the session does not end the worker.
func (s *server) guard(what string, f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Printf("%s panicked: %v\n%s", what, p, debug.Stack())
			err = fmt.Errorf("%s panicked: %v", what, p)
		}
	}()
	f()
	return nil
}

// displayError gives any error the shape a cell shows.
func displayError(err error) *display.Error {
	var de *display.Error
	if errors.As(err, &de) {
		return de
	}
	return &display.Error{Name: "Error", Value: err.Error()}
}

// sink sends a cell's output to the kernel; id 0 is output outside a cell.
// It is headless when the kernel's sink for the cell is.
type sink struct {
	s        *server
	id       uint64
	headless bool
	stdin    bool // the kernel's sink can answer input
}

var _ display.Comms = sink{}

func (k sink) Headless() bool { return k.headless }

// statusSink is the sink of a cell whose kernel sink shows a status line.
type statusSink struct{ sink }

func (k statusSink) Status(line string) {
	k.s.reply(event{ID: k.id, Type: evStatus, Text: line})
}

func (k sink) Stream(name, text string) {
	k.s.reply(event{ID: k.id, Type: evStream, Name: name, Text: text})
}

// CommStream sends a stream of the cell that opened comm id.
func (k sink) CommStream(id, name, text string) {
	k.s.reply(event{ID: k.id, Type: evStream, Name: name, Text: text, CommID: id})
}

func (k sink) Display(b display.Bundle, id string, update bool) {
	k.s.reply(event{ID: k.id, Type: evDisplay, Data: kernel.WireBundle(b, k.s.log.Printf), DisplayID: id, Update: update})
}

func (k sink) Clear(wait bool) {
	k.s.reply(event{ID: k.id, Type: evClear, Wait: wait})
}

// CommOpen, CommMsg and CommClose send the session's side of a comm with
// the cell's other output, so the front end sees them in the order sent.
func (k sink) CommOpen(id, target string, data, metadata map[string]any) {
	k.s.reply(event{ID: k.id, Type: evComm, Comm: &commMsg{Kind: kindOpen, ID: id, Target: target, Data: data, Metadata: metadata}})
}

func (k sink) CommMsg(id string, data, metadata map[string]any) {
	k.s.reply(event{ID: k.id, Type: evComm, Comm: &commMsg{Kind: kindMsg, ID: id, Data: data, Metadata: metadata}})
}

func (k sink) CommClose(id string, data map[string]any) {
	k.s.reply(event{ID: k.id, Type: evComm, Comm: &commMsg{Kind: kindClose, ID: id, Data: data}})
}

// Input asks the kernel for a line for the running cell and waits for it,
// or for ctx (the cell interrupted).
func (k sink) Input(ctx context.Context, prompt string, password bool) (string, error) {
	if !k.stdin {
		return "", display.ErrNoInput
	}
	for {
		select {
		case <-k.s.input: // an answer to an earlier cell's question, too late
			continue
		default:
		}
		break
	}
	k.s.reply(event{ID: k.id, Type: evInput, Text: prompt, Password: password})
	for {
		select {
		case a := <-k.s.input:
			if a.ID != k.id {
				continue
			}
			if a.Error == display.ErrNoInput.Error() {
				return "", display.ErrNoInput
			} else if a.Error != "" {
				return "", errors.New(a.Error)
			}
			return a.Code, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}
