package worker

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/kernel"
)

const (
	// startTimeout bounds the wait for a fresh worker to say it is ready.
	startTimeout = 30 * time.Second
	// queryTimeout bounds completion, inspection and is-complete requests:
	// a front end asking while the session is wedged gets an empty answer.
	queryTimeout = 5 * time.Second
	// commOpenTimeout bounds the wait for the session's yes or no to a
	// comm the front end opens: the kernel's shell waits for it.
	commOpenTimeout = 2 * time.Second
)

// Config says how to start workers and where the kernel side reports.
type Config struct {
	// Path is the worker program, Name its argv[0] (default Path) and Args
	// the rest of its command line; it must run Serve on its standard input
	// and output (routelab's hidden "worker" subcommand).
	Path, Name string
	Args       []string
	// Env and Dir are the worker's environment and working directory (nil
	// and "": the kernel's).
	Env []string
	Dir string
	// Log receives the workers' standard error, their deaths and restarts
	// (default: os.Stderr); LogName is how cells refer to it (default "the
	// kernel's log").
	Log     *log.Logger
	LogName string
	// OutOfMemoryHint is added to "out of memory" deaths, e.g. how to change
	// the worker's memory limit.
	OutOfMemoryHint string
	// Background receives output a worker sends outside any running cell
	// (nil: logged and dropped); SetBackgroundSink replaces it.
	Background display.Sink
}

// Supervisor is a kernel.Interpreter whose session lives in a worker
// process. When the worker dies, the cell that was running fails with a
// SessionDied error saying why, a fresh worker starts at once and the next
// cell runs in it; a worker that dies while no cell runs is replaced too,
// and the next cell says so before it runs.
type Supervisor struct {
	cfg        Config
	background atomic.Pointer[display.Sink] // Config.Background, or what SetBackgroundSink set

	exec sync.Mutex // Execute calls, one at a time

	mu     sync.Mutex
	cur    *child // the worker in use, maybe starting; nil before Start or after Close
	closed bool
	lost   *death // a death no cell has reported yet
}

// death is a worker that ended and why.
type death struct {
	c      *child
	reason string
}

var (
	_ kernel.Interpreter  = (*Supervisor)(nil)
	_ kernel.Backgrounder = (*Supervisor)(nil)
	_ kernel.Commer       = (*Supervisor)(nil)
)

// New returns a supervisor; no worker runs until Start or the first call.
func New(cfg Config) *Supervisor {
	if cfg.Name == "" {
		cfg.Name = cfg.Path
	}
	if cfg.Log == nil {
		cfg.Log = log.New(os.Stderr, "", log.LstdFlags)
	}
	if cfg.LogName == "" {
		cfg.LogName = "the kernel's log"
	}
	s := &Supervisor{cfg: cfg}
	if cfg.Background != nil {
		s.SetBackgroundSink(cfg.Background)
	}
	return s
}

// SetBackgroundSink makes sink receive the output workers send outside any
// running cell, from now on (kernel.Serve sets its own).
func (s *Supervisor) SetBackgroundSink(sink display.Sink) { s.background.Store(&sink) }

// backgroundSink is where output outside a cell goes, nil when nowhere.
func (s *Supervisor) backgroundSink() display.Sink {
	if p := s.background.Load(); p != nil {
		return *p
	}
	return nil
}

// Start starts a worker in the background, so that it is ready by the
// first cell.
func (s *Supervisor) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed && s.cur == nil {
		s.cur = s.startChild()
	}
}

func (s *Supervisor) startChild() *child { return startChild(s.cfg, s.backgroundSink, s.ended) }

// ended runs when a worker process has ended. A worker that was serving
// is replaced at once; one that never became ready is not (its failure is
// reported, and the next cell tries again).
func (s *Supervisor) ended(c *child) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.cur != c || c.startErr != nil {
		return
	}
	s.cfg.Log.Printf("worker %d died: %s; starting a fresh session", c.pid(), c.reason)
	s.lost = &death{c: c, reason: c.reason}
	s.cur = s.startChild()
}

// Execute runs a cell in the current worker, starting one if none runs.
func (s *Supervisor) Execute(ctx context.Context, code string, sink display.Sink) (display.Bundle, error) {
	s.exec.Lock()
	defer s.exec.Unlock()
	c, k, err := s.send(ctx, code, sink)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, c.interrupt)
	defer stop()
	select {
	case ev := <-k.done:
		return result(ev)
	case <-c.dead:
		select {
		case ev := <-k.done: // the cell ended just before the worker
			return result(ev)
		default:
			return nil, s.died(ctx, c, k)
		}
	}
}

// send hands the cell to the current worker. A worker that ended before it
// could be written to died between cells: the cell goes to its successor,
// after the note that says so.
func (s *Supervisor) send(ctx context.Context, code string, sink display.Sink) (*child, *call, error) {
	for attempt := 1; ; attempt++ {
		c, err := s.worker(ctx)
		if err != nil {
			return nil, nil, err
		}
		if d := s.unreported(nil); d != nil {
			sink.Stream("stderr", fmt.Sprintf("[routelab: the session died while no cell was running (%s); "+
				"a fresh session was started, and the variables of earlier cells are lost]\n", s.explain(d.reason)))
		}
		hl, ok := sink.(display.Headless)
		_, stdin := sink.(display.Inputter)
		_, status := sink.(display.Statuser)
		k, err := c.request(request{Op: opExecute, Code: code, Headless: ok && hl.Headless(), Stdin: stdin, StatusLine: status}, sink)
		if err == nil {
			return c, k, nil
		}
		<-c.dead // writing fails only once the worker is going
		if attempt == 2 {
			return nil, nil, s.died(ctx, c, nil)
		}
	}
}

func result(ev event) (display.Bundle, error) {
	if ev.Error != nil {
		return nil, ev.Error
	}
	if len(ev.Data) == 0 {
		return nil, nil
	}
	return ev.Data, nil
}

// worker returns the current worker once it is ready, starting one when
// none runs or the last one could not start.
func (s *Supervisor) worker(ctx context.Context) (*child, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, &display.Error{Name: "SessionError", Value: "the session is closed"}
	}
	if s.cur == nil || s.cur.ended() {
		s.cur = s.startChild()
	}
	c := s.cur
	s.mu.Unlock()
	if err := waitReady(ctx, c); err != nil {
		return nil, &display.Error{Name: "SessionError", Value: fmt.Sprintf("the Go session could not start: %v (%s has the details)",
			err, s.cfg.LogName)}
	}
	return c, nil
}

func waitReady(ctx context.Context, c *child) error {
	t := time.NewTimer(startTimeout)
	defer t.Stop()
	select {
	case <-c.ready:
		return c.startErr
	case <-ctx.Done():
		return fmt.Errorf("stopped while waiting for it: %w", ctx.Err())
	case <-t.C:
		return fmt.Errorf("it was not ready after %v", startTimeout)
	}
}

// unreported takes the death no cell has reported yet, if any; with c set,
// only c's (a cell about to report it).
func (s *Supervisor) unreported(c *child) *death {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.lost
	if d == nil || c != nil && d.c != c {
		return nil
	}
	s.lost = nil
	return d
}

// died is the error of a cell whose worker died under it.
func (s *Supervisor) died(ctx context.Context, c *child, k *call) error {
	s.unreported(c)
	where := ""
	if k != nil {
		c.mu.Lock()
		if k.line > 0 {
			where = fmt.Sprintf(" at line %d:%d", k.line, k.col)
		}
		c.mu.Unlock()
	}
	msg := fmt.Sprintf("the session died%s: %s; its variables are lost; %s", where, s.explain(c.reason), s.fresh(ctx))
	return &display.Error{Name: "SessionDied", Value: msg,
		Traceback: []string{"SessionDied: " + msg, "(the Go runtime's report is in " + s.cfg.LogName + ")"}}
}

func (s *Supervisor) explain(reason string) string {
	if s.cfg.OutOfMemoryHint != "" && strings.HasPrefix(reason, "out of memory") {
		return reason + " (" + s.cfg.OutOfMemoryHint + ")"
	}
	return reason
}

// fresh waits for the worker that replaced a dead one and says how it went.
func (s *Supervisor) fresh(ctx context.Context) string {
	s.mu.Lock()
	c, closed := s.cur, s.closed
	s.mu.Unlock()
	if closed || c == nil {
		return "the kernel is shutting down"
	}
	if err := waitReady(ctx, c); err != nil {
		return fmt.Sprintf("a fresh session could not start: %v (the next cell tries again)", err)
	}
	return "a fresh session is ready"
}

// Interrupt stops the running cell, if any; it is one write to the worker.
func (s *Supervisor) Interrupt() {
	s.mu.Lock()
	c := s.cur
	s.mu.Unlock()
	if c != nil && c.isReady() && !c.ended() {
		c.interrupt()
	}
}

// Complete asks the worker; it answers while a cell runs.
func (s *Supervisor) Complete(code string, cursor int) display.Completion {
	ev, ok := s.query(request{Op: opComplete, Code: code, Cursor: cursor})
	if !ok {
		return display.Completion{Start: cursor, End: cursor}
	}
	return display.Completion{Matches: ev.Matches, Start: ev.Start, End: ev.End}
}

// Inspect asks the worker; it answers while a cell runs.
func (s *Supervisor) Inspect(code string, cursor int) (display.Bundle, bool) {
	ev, ok := s.query(request{Op: opInspect, Code: code, Cursor: cursor})
	return ev.Data, ok && ev.Found
}

// IsComplete asks the worker; it answers while a cell runs.
func (s *Supervisor) IsComplete(code string) (string, string) {
	ev, ok := s.query(request{Op: opIsComplete, Code: code})
	if !ok {
		return "unknown", ""
	}
	return ev.Status, ev.Indent
}

// query sends a request that is not an execute and waits for its answer;
// false when there is no answer (no worker, a dead one, a timeout).
func (s *Supervisor) query(r request) (event, bool) {
	s.mu.Lock()
	c := s.cur
	s.mu.Unlock()
	if c == nil {
		return event{}, false
	}
	t := time.NewTimer(queryTimeout)
	defer t.Stop()
	select {
	case <-c.ready:
	case <-t.C:
		return event{}, false
	}
	if c.startErr != nil {
		return event{}, false
	}
	k, err := c.request(r, nil)
	if err != nil {
		return event{}, false
	}
	select {
	case ev := <-k.done:
		return ev, ev.Error == nil
	case <-c.dead:
		return event{}, false
	case <-t.C:
		c.forget(k.id)
		s.cfg.Log.Printf("worker %d did not answer a %s request within %v", c.pid(), r.Op, queryTimeout)
		return event{}, false
	}
}

// CommOpen asks the worker's session whether it takes the comm the front
// end opened; false when no session runs (or none is ready within
// commOpenTimeout), it does not answer comms or it does not answer in
// time. A worker that ends later closes the comm on the front end.
func (s *Supervisor) CommOpen(id, target string, data map[string]any) bool {
	s.mu.Lock()
	c := s.cur
	s.mu.Unlock()
	if c == nil || c.ended() {
		s.cfg.Log.Printf("refused comm %q on target %q: no session runs", id, target)
		return false
	}
	t := time.NewTimer(commOpenTimeout)
	defer t.Stop()
	select {
	case <-c.ready:
	case <-t.C:
		s.cfg.Log.Printf("refused comm %q on target %q: the session was not ready within %v", id, target, commOpenTimeout)
		return false
	}
	if c.startErr != nil {
		s.cfg.Log.Printf("refused comm %q on target %q: the session could not start: %v", id, target, c.startErr)
		return false
	}
	k, err := c.request(request{Op: opComm, Comm: &commMsg{Kind: kindOpen, ID: id, Target: target, Data: data}}, nil)
	if err != nil {
		s.cfg.Log.Printf("refused comm %q on target %q: cannot send it to worker %d: %v", id, target, c.pid(), err)
		return false
	}
	select {
	case ev := <-k.done:
		// A worker that ended meanwhile has closed its comms already.
		return ev.Error == nil && ev.Accepted && c.commOpened(id)
	case <-c.dead:
		return false
	case <-t.C:
		c.forget(k.id)
		s.cfg.Log.Printf("worker %d did not answer the opening of comm %q within %v; refused it", c.pid(), id, commOpenTimeout)
		return false
	}
}

// CommMsg sends the front end's message to the worker's session, without
// waiting for it.
func (s *Supervisor) CommMsg(id string, data map[string]any) {
	s.sendComm(&commMsg{Kind: kindMsg, ID: id, Data: data})
}

// CommClose tells the worker's session the front end closed a comm,
// without waiting for it.
func (s *Supervisor) CommClose(id string, data map[string]any) {
	s.sendComm(&commMsg{Kind: kindClose, ID: id, Data: data})
}

// sendComm writes m to the current worker if it serves; a worker still
// starting has no session that could know the comm.
func (s *Supervisor) sendComm(m *commMsg) {
	s.mu.Lock()
	c := s.cur
	s.mu.Unlock()
	if c == nil || !c.isReady() || c.ended() {
		s.cfg.Log.Printf("dropped comm %s on comm %q: no session runs", m.Kind, m.ID)
		return
	}
	if m.Kind == kindClose {
		c.commClosed(m.ID)
	}
	if err := c.req.send(request{Op: opComm, Comm: m}); err != nil {
		s.cfg.Log.Printf("worker %d: cannot send comm %s on comm %q: %v", c.pid(), m.Kind, m.ID, err)
	}
}

// Close ends the worker: it interrupts its running cell and exits, or is
// killed if it has not within a few seconds. Close returns once it has
// ended; later calls fail.
func (s *Supervisor) Close() error {
	s.mu.Lock()
	c := s.cur
	s.closed, s.cur = true, nil
	s.mu.Unlock()
	if c != nil {
		c.stop()
		<-c.dead
	}
	return nil
}
