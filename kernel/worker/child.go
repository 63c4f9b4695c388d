package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"os/exec"
	"slices"
	"sync"
	"time"

	"github.com/routelab/routelab/display"
)

const (
	// pipeGrace is how long a worker's pipes may stay open after it exited
	// (a process it started may hold them) before they are closed: its own
	// last words are in the pipes already.
	pipeGrace = 250 * time.Millisecond
	// stopGrace is how long a worker gets to exit after its requests end.
	stopGrace = 3 * time.Second
)

// child is one worker process.
type child struct {
	log        *log.Logger
	background func() display.Sink // where output outside a cell goes
	onEnd      func(*child)

	cmd    *exec.Cmd
	req    *lineWriter // the worker's standard input
	reqEnd *os.File
	stderr *stderrLog

	readyOnce sync.Once
	ready     chan struct{} // closed once the worker is ready or cannot be
	startErr  error         // why it cannot be (set before ready closes)
	dead      chan struct{} // closed once the process ended and its pipes were read
	reason    string        // why it ended (set before dead closes)

	mu     sync.Mutex
	calls  map[uint64]*call
	nextID uint64
	// comms are the comms open between the session and the front end,
	// whichever side opened them; nil once the worker has ended.
	comms map[string]struct{}
}

// call is a request waiting for its result.
type call struct {
	id        uint64
	sink      display.Sink // an execute's output
	done      chan event   // the result
	line, col int          // where the cell was last reported to run
	// ctx ends with the call: a question to the user for its cell is
	// withdrawn then.
	ctx    context.Context
	cancel context.CancelFunc
}

// startChild starts a worker process; onEnd runs once it has ended.
func startChild(cfg Config, background func() display.Sink, onEnd func(*child)) *child {
	c := &child{log: cfg.Log, background: background, onEnd: onEnd,
		ready: make(chan struct{}), dead: make(chan struct{}), calls: map[uint64]*call{}, comms: map[string]struct{}{}}
	go c.run(cfg)
	return c
}

func (c *child) run(cfg Config) {
	events, errs, err := c.spawn(cfg)
	if err != nil {
		c.markReady(fmt.Errorf("cannot start the worker process: %w", err))
		c.reason = err.Error()
		c.onEnd(c)
		close(c.dead)
		return
	}
	eventsDone, errsDone := make(chan struct{}), make(chan struct{})
	go func() { defer close(eventsDone); c.readEvents(events) }()
	go func() { defer close(errsDone); c.stderr.read(errs) }()
	c.cmd.Wait() // the exit status is in ProcessState
	for _, p := range []struct {
		done <-chan struct{}
		f    *os.File
	}{{eventsDone, events}, {errsDone, errs}} {
		select {
		case <-p.done:
		case <-time.After(pipeGrace):
			p.f.Close() // a process the worker started holds the other end
			<-p.done
		}
		p.f.Close()
	}
	c.reqEnd.Close()
	c.mu.Lock()
	for _, k := range c.calls {
		k.cancel() // a question to the user for a dead worker's cell
	}
	c.mu.Unlock()
	c.reason = c.stderr.reason(c.cmd.ProcessState)
	c.markReady(errors.New(c.reason))
	c.closeComms()
	// Before dead closes: a cell that sees it finds the death recorded and
	// the fresh worker started.
	c.onEnd(c)
	close(c.dead)
}

// spawn starts the process with its three pipes and returns the kernel's
// ends of its standard output (events) and standard error.
func (c *child) spawn(cfg Config) (events, errs *os.File, err error) {
	var ends []*os.File // the worker's ends, closed here once it has them
	defer func() {
		for _, f := range ends {
			f.Close()
		}
	}()
	pipe := func() (r, w *os.File) {
		if err == nil {
			r, w, err = os.Pipe()
		}
		return r, w
	}
	reqR, reqW := pipe()
	evR, evW := pipe()
	errR, errW := pipe()
	ends = append(ends, reqR, evW, errW)
	if err != nil {
		for _, f := range []*os.File{reqW, evR, errR} {
			f.Close()
		}
		return nil, nil, err
	}
	c.cmd = &exec.Cmd{Path: cfg.Path, Args: append([]string{cfg.Name}, cfg.Args...), Env: cfg.Env, Dir: cfg.Dir,
		Stdin: reqR, Stdout: evW, Stderr: errW}
	if err = c.cmd.Start(); err != nil {
		for _, f := range []*os.File{reqW, evR, errR} {
			f.Close()
		}
		return nil, nil, err
	}
	c.req, c.reqEnd = newLineWriter(reqW), reqW
	c.stderr = newStderrLog(c.log, c.cmd.Process.Pid)
	return evR, errR, nil
}

// readEvents dispatches the worker's events until its output ends. A line
// that is not an event (something wrote to the worker's real standard
// output) is logged and skipped.
func (c *child) readEvents(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 1 {
			var ev event
			if jerr := json.Unmarshal(line, &ev); jerr != nil {
				c.log.Printf("worker %d: not an event: %.200q", c.pid(), line)
			} else {
				c.dispatch(ev)
			}
		}
		if err != nil {
			return
		}
	}
}

func (c *child) pid() int { return c.cmd.Process.Pid }

func (c *child) dispatch(ev event) {
	switch ev.Type {
	case evReady:
		var err error
		switch {
		case ev.Version != protocolVersion:
			err = fmt.Errorf("the worker speaks protocol %d, this kernel %d (was the routelab binary replaced? restart the kernel)",
				ev.Version, protocolVersion)
			c.stop()
		case ev.Error != nil:
			err = errors.New(ev.Error.Value)
		}
		c.markReady(err)
	case evStream, evDisplay, evClear, evComm, evStatus:
		c.output(ev)
	case evInput:
		go c.input(ev)
	case evPosition:
		c.mu.Lock()
		if k := c.calls[ev.ID]; k != nil {
			k.line, k.col = ev.Line, ev.Col
		}
		c.mu.Unlock()
	case evResult:
		c.mu.Lock()
		k := c.calls[ev.ID]
		delete(c.calls, ev.ID)
		c.mu.Unlock()
		if k != nil {
			k.cancel()
			k.done <- ev
		}
	default:
		c.log.Printf("worker %d: ignored an event of unknown type %q", c.pid(), ev.Type)
	}
}

// output delivers a cell's output to its sink, and output outside any cell
// to the background sink.
func (c *child) output(ev event) {
	c.mu.Lock()
	var to display.Sink
	if k := c.calls[ev.ID]; k != nil {
		to = k.sink
	}
	c.mu.Unlock()
	if ev.Type == evComm {
		c.comm(ev.Comm, to)
		return
	}
	if ev.Type == evStatus {
		// A status line belongs to its cell's sink only; late, it is moot.
		if st, ok := to.(display.Statuser); ok {
			st.Status(ev.Text)
		}
		return
	}
	if to == nil {
		to = c.background()
	}
	if to == nil {
		c.log.Printf("worker %d: dropped %s output sent outside a cell", c.pid(), ev.Type)
		return
	}
	switch ev.Type {
	case evStream:
		if cs, ok := to.(display.CommStreamer); ok && ev.CommID != "" {
			cs.CommStream(ev.CommID, ev.Name, ev.Text)
			return
		}
		to.Stream(ev.Name, ev.Text)
	case evDisplay:
		to.Display(ev.Data, ev.DisplayID, ev.Update)
	case evClear:
		to.Clear(ev.Wait)
	}
}

// comm delivers the session's comm message to the cell's sink, or else
// the background sink, whichever speaks comms, and keeps count of the comms
// open.
func (c *child) comm(m *commMsg, cell display.Sink) {
	if m == nil {
		c.log.Printf("worker %d: ignored a comm event without its message", c.pid())
		return
	}
	if m.Kind == kindClose {
		c.commClosed(m.ID)
	}
	to, ok := cell.(display.Comms)
	if !ok {
		to, ok = c.background().(display.Comms)
	}
	if !ok {
		c.log.Printf("worker %d: dropped comm %s on comm %q: no sink speaks comms", c.pid(), m.Kind, m.ID)
		return
	}
	switch m.Kind {
	case kindOpen:
		c.commOpened(m.ID) // only once the front end knows of it
		to.CommOpen(m.ID, m.Target, m.Data, m.Metadata)
	case kindMsg:
		to.CommMsg(m.ID, m.Data, m.Metadata)
	case kindClose:
		to.CommClose(m.ID, m.Data)
	default:
		c.log.Printf("worker %d: ignored comm %q of unknown kind %q", c.pid(), m.ID, m.Kind)
	}
}

// commOpened records an open comm; false when the worker has ended (its
// comms were closed already).
func (c *child) commOpened(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.comms == nil {
		return false
	}
	c.comms[id] = struct{}{}
	return true
}

func (c *child) commClosed(id string) {
	c.mu.Lock()
	delete(c.comms, id)
	c.mu.Unlock()
}

// closeComms closes on the front end, through the background sink, the
// comms an ended worker left open: the session behind them is gone, and
// so should its widgets be.
func (c *child) closeComms() {
	c.mu.Lock()
	ids := slices.Sorted(maps.Keys(c.comms))
	c.comms = nil
	c.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	to, ok := c.background().(display.Comms)
	if !ok {
		// No front end outside cells (routelab run): the widgets died
		// with the run, there is nobody to tell.
		return
	}
	for _, id := range ids {
		to.CommClose(id, map[string]any{})
	}
}

func (c *child) markReady(err error) {
	c.readyOnce.Do(func() {
		c.startErr = err
		close(c.ready)
	})
}

// isReady reports whether the worker is up and serving.
func (c *child) isReady() bool {
	select {
	case <-c.ready:
		return c.startErr == nil
	default:
		return false
	}
}

// ended reports whether the process has ended.
func (c *child) ended() bool {
	select {
	case <-c.dead:
		return true
	default:
		return false
	}
}

// request sends r under a fresh id and returns the call its result will
// complete, or an error when the worker can no longer be written to.
func (c *child) request(r request, sink display.Sink) (*call, error) {
	k := &call{sink: sink, done: make(chan event, 1)}
	k.ctx, k.cancel = context.WithCancel(context.Background())
	c.mu.Lock()
	c.nextID++
	r.ID, k.id = c.nextID, c.nextID
	c.calls[r.ID] = k
	c.mu.Unlock()
	if err := c.req.send(r); err != nil {
		c.forget(r.ID)
		return nil, err
	}
	return k, nil
}

func (c *child) forget(id uint64) {
	c.mu.Lock()
	if k := c.calls[id]; k != nil {
		k.cancel()
	}
	delete(c.calls, id)
	c.mu.Unlock()
}

// input asks the sink of the cell that asked for a line and sends the
// worker the answer, or why there is none.
func (c *child) input(ev event) {
	c.mu.Lock()
	k := c.calls[ev.ID]
	c.mu.Unlock()
	a := request{Op: opInput, ID: ev.ID, Error: display.ErrNoInput.Error()}
	if k != nil {
		if ask, ok := k.sink.(display.Inputter); ok {
			line, err := ask.Input(k.ctx, ev.Text, ev.Password)
			a.Code, a.Error = line, ""
			if err != nil {
				a.Error = err.Error()
			}
		}
	}
	if err := c.req.send(a); err != nil {
		c.log.Printf("worker %d: cannot send input: %v", c.pid(), err)
	}
}

// interrupt asks the worker to stop its running cell.
func (c *child) interrupt() {
	if err := c.req.send(request{Op: opInterrupt}); err != nil {
		c.log.Printf("worker %d: cannot send interrupt: %v", c.pid(), err)
	}
}

// stop ends the worker: its requests end, so it interrupts its cell and
// exits; one that does not within stopGrace is killed. It does not wait.
func (c *child) stop() {
	if c.reqEnd != nil {
		c.reqEnd.Close()
	}
	go func() {
		select {
		case <-c.dead:
		case <-time.After(stopGrace):
			c.log.Printf("worker %d did not exit within %v of being stopped; killing it", c.pid(), stopGrace)
			c.cmd.Process.Kill()
		}
	}()
}
