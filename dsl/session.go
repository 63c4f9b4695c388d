package dsl

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// DefaultInterruptGrace is how long an interrupted cell gets to return on
// its own (after its run context is canceled) before the interpreter is
// stopped.
const DefaultInterruptGrace = 150 * time.Millisecond

// Options configure a Session.
type Options struct {
	// Libraries are the compiled packages cells can use besides the
	// standard library.
	Libraries []Library
	// Env is the environment cells see through os.Getenv and friends
	// ("KEY=value" entries); the process environment stays private.
	Env []string
	// Args are what cells see as os.Args (default: just "routelab").
	Args []string
	// InterruptGrace overrides DefaultInterruptGrace when positive.
	InterruptGrace time.Duration
	// MaxCallDepth bounds the nesting of calls of interpreted functions:
	// deeper, a call fails with a StackOverflow error instead of growing
	// the stack until the process dies. 0: interp.DefaultMaxCallDepth.
	MaxCallDepth int
	// MaxAllocBytes bounds what one make, append or array of a cell may
	// allocate: more fails with a MemoryError instead of the process running
	// out of memory. 0: half the machine's memory (DefaultMaxAlloc);
	// negative: no bound.
	MaxAllocBytes int64
}

// Session runs Go cells and scripts in one yaegi interpreter, keeping their
// declarations and variables from one cell to the next. It implements the
// kernel's Interpreter interface. Execute calls are serialized; Interrupt,
// Complete, Inspect and IsComplete may be called at any time.
type Session struct {
	in      *interp.Interpreter
	out     *output
	devnull *os.File
	syms    *symtab
	exports map[string]map[string]reflect.Value // import path -> compiled symbols
	names   map[string]string                   // import path -> package name
	docs    map[string]map[string]string        // import path -> symbol docs
	grace   time.Duration

	srcDocsOnce sync.Once
	srcDocs     map[string]map[string]string // interpreted std package -> func -> doc

	base context.Context
	stop context.CancelFunc

	// exitCode is the code of the last os.Exit a cell called, or -1; 2
	// when a goroutine a script started panicked.
	exitCode atomic.Int64
	// goLive counts the goroutines cells started that have not ended.
	goLive atomic.Int64

	// bound counts calls in progress of libraries' session-bound functions
	// (lab's runs): compiled code that may still call back into the cell.
	bound atomic.Int64

	// at and atCell locate the top-level statement running (see Position).
	at, atCell atomic.Int64

	// positionHook and background are set by a supervisor (SetPositionHook,
	// SetBackgroundSink).
	positionHook atomic.Pointer[func(line, col int)]
	background   atomic.Pointer[display.Sink]
	// comms is the library handler of the front end's comm messages
	// (Host.HandleComms).
	comms atomic.Pointer[CommHandler]

	// work is the background work libraries run (Host.Background): its
	// context, ended by the next interrupt, and how many are running.
	work      sync.Mutex
	workCtx   context.Context
	workEnd   context.CancelFunc
	workCount atomic.Int64

	cbMu sync.Mutex               // held while a library calls back into cells
	rand atomic.Pointer[cellRand] // the generator of the callback running, if any
	// lastRand is the generator of the last callback (guarded by cbMu): a
	// run calls back with the same source thousands of times.
	lastRand *cellRand
	// calling is set while a library's callback runs cell code; wallClock
	// records that such code read the wall clock (clockSymbols).
	calling, wallClock atomic.Bool

	std map[string][]string // standard package name -> import paths
	// disabledPasses turns rewrite passes off (gaps_test.go shows the gap
	// each one closes).
	disabledPasses map[string]bool
	preImported    []string // import paths of the pre-imported libraries
	// failedDecls are names declared by declarations that did not compile,
	// with their cells.
	failedDecls map[string]int
	// stateless is Library.Stateless by import path.
	stateless map[string]map[string]string
	script    bool // running a script: tracebacks say "the script"

	// goPanic folds repeated reports of goroutine panics.
	goPanic struct {
		sync.Mutex
		last    string
		repeats int
	}

	// check is Go's type checker over the session (typecheck.go); hidden
	// are packages imported under hidden names for the types it writes out.
	check  *goChecker
	hidden map[string]string

	exec  sync.Mutex // held by Execute
	mu    sync.Mutex // guards cur
	cur   *cellRun
	cells int // cells executed, for messages
}

// cellRun is the state of the running cell.
type cellRun struct {
	ctx        context.Context // Host.Context(): canceled first on interrupt
	cancelRun  context.CancelFunc
	evalCtx    context.Context // yaegi's: canceled after the grace period
	cancelEval context.CancelFunc
	sink       display.Sink
	code       string

	once        sync.Once
	interrupted atomic.Bool

	shown []display.Bundle
	// aside: work a front end's message started (Host.Aside), run like a
	// cell; its comm messages go out between cells.
	aside bool

	stuck bool // the stopped evaluation did not end in time
}

// New creates a session with the standard library, the given libraries and
// the prelude (display, min, max, clear, the missing slices and maps
// helpers).
func New(opts Options) (*Session, error) {
	if err := validateOptions(opts); err != nil {
		return nil, err
	}
	out, err := newOutput()
	if err != nil {
		return nil, fmt.Errorf("dsl: output pipes: %w", err)
	}
	s := &Session{
		out:     out,
		syms:    newSymtab(),
		exports: map[string]map[string]reflect.Value{},
		names:   map[string]string{},
		docs:    map[string]map[string]string{},
		grace:   DefaultInterruptGrace,
		std:     stdIndex(),
		hidden:  map[string]string{},
	}
	if opts.InterruptGrace > 0 {
		s.grace = opts.InterruptGrace
	}
	s.base, s.stop = context.WithCancel(context.Background())
	if err := s.init(opts); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func validateOptions(opts Options) error {
	seen := map[string]bool{runtimePath: true}
	for i := range opts.Libraries {
		l := &opts.Libraries[i]
		if err := l.validate(); err != nil {
			return fmt.Errorf("dsl: %w", err)
		}
		if seen[l.Path] || stdlib.Symbols()[l.Path+"/"+path.Base(l.Path)] != nil {
			return fmt.Errorf("dsl: library path %q is registered twice or shadows a standard package", l.Path)
		}
		seen[l.Path] = true
	}
	for _, e := range opts.Env {
		if !strings.Contains(e, "=") {
			return fmt.Errorf("dsl: environment entry %q: want KEY=value", e)
		}
	}
	return nil
}

func (s *Session) init(opts Options) error {
	args := opts.Args
	if len(args) == 0 {
		args = []string{"routelab"}
	}
	var err error
	if s.devnull, err = os.Open(os.DevNull); err != nil {
		return fmt.Errorf("dsl: %w", err)
	}
	maxAlloc := opts.MaxAllocBytes
	if maxAlloc == 0 {
		maxAlloc = DefaultMaxAlloc()
	}
	stdin, fmtIn, bufioIn := s.inputSymbols()
	s.in = interp.New(interp.Options{
		Stdin:         stdin,
		Stdout:        s.out.outW,
		Stderr:        s.out.stderr,
		Args:          args,
		Env:           opts.Env,
		MaxCallDepth:  opts.MaxCallDepth,
		MaxAllocBytes: maxAlloc,
		Lean:          true,
	})
	rand1, rand2 := s.randSymbols()
	uses := []interp.Exports{
		// Standard input: lines from the front end (input.go). Merged into
		// the standard tables: yaegi loads its standard packages again on
		// every Use that names fmt.
		withSymbols(stdlib.Symbols(), map[string]map[string]reflect.Value{"fmt/fmt": fmtIn, "bufio/bufio": bufioIn}),
		// os.Stderr: the interpreter's Stderr option is a filter, not a file,
		// so yaegi would leave the process's in place.
		// os.Stdin: the null device (fmt.Scan reads the Stdin option).
		{"os/os": {"Stderr": reflect.ValueOf(&s.out.errW).Elem(), "Stdin": reflect.ValueOf(&s.devnull).Elem(), "Exit": reflect.ValueOf(s.exit)}},
		{runtimePath + "/" + runtimeName: s.runtimeSymbols()},
		introspectionSymbols(),
		// time.Sleep in cells: an interrupt ends it at once; time.Now, Since
		// and Until note a policy reading the wall clock (callback.go).
		{"time/time": s.timeSymbols()},
		// math/rand's top-level functions: seeded in lab runs (callback.go).
		{"math/rand/rand": rand1, "math/rand/v2/rand": rand2},
	}
	h := host{s}
	for i := range opts.Libraries {
		l := &opts.Libraries[i]
		syms, err := l.symbols(h, &s.bound)
		if err != nil {
			return fmt.Errorf("dsl: %w", err)
		}
		uses = append(uses, interp.Exports{l.exportKey(): syms})
		s.docs[l.Path] = l.Docs
	}
	for _, u := range uses {
		if err := s.in.Use(u); err != nil {
			return fmt.Errorf("dsl: loading symbols: %w", err)
		}
		for key, syms := range u {
			s.exports[path.Dir(key)] = mergeSymbols(s.exports[path.Dir(key)], syms)
			s.names[path.Dir(key)] = path.Base(key)
		}
	}
	if err := s.loadPrelude(); err != nil {
		return err
	}
	if s.check, err = newSessionChecker(opts.Libraries); err != nil {
		return fmt.Errorf("dsl: %w", err)
	}
	for _, l := range opts.Libraries {
		if len(l.Stateless) > 0 {
			if s.stateless == nil {
				s.stateless = map[string]map[string]string{}
			}
			s.stateless[l.Path] = l.Stateless
		}
		if l.PreImport {
			s.preImported = append(s.preImported, l.Path)
			if err := s.evalSource(fmt.Sprintf("import %s %q", l.Name, l.Path)); err != nil {
				return fmt.Errorf("dsl: pre-importing %s: %w", l.Path, err)
			}
			s.syms.addImport(l.Name, l.Path)
		}
	}
	return nil
}

// mergeSymbols adds the symbols of b (replacements of some standard
// functions, such as time.Sleep) to a copy of a.
func mergeSymbols(a, b map[string]reflect.Value) map[string]reflect.Value {
	if a == nil {
		return b
	}
	out := make(map[string]reflect.Value, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func (s *Session) loadPrelude() error {
	if err := s.loadGenericSources(); err != nil {
		return fmt.Errorf("dsl: generic sources: %w", err)
	}
	for _, src := range []string{preludeSlices, preludeMaps, "package main;" + preludeMain} {
		if err := s.evalRenamed(src, false); err != nil {
			return fmt.Errorf("dsl: prelude: %w", err)
		}
	}
	s.syms.addImport(runtimeLocal, runtimePath)
	s.syms.addImport("_rlfmt", "fmt")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "prelude.go", "package main;"+preludeMain, parser.ParseComments)
	if err != nil {
		return fmt.Errorf("dsl: prelude: %w", err)
	}
	for _, sym := range declSymbols(fset, f, preludeMain, len("package main;")) {
		s.syms.put(sym)
	}
	return nil
}

// evalSource compiles and runs trusted source (prelude, pre-imports).
func (s *Session) evalSource(src string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	prog, err := s.in.Compile(src)
	if err != nil {
		return err
	}
	_, err = s.in.Execute(prog)
	return err
}

// closeGrace bounds how long Close waits for background work to end.
const closeGrace = time.Second

// Close releases the session's pipes and cancels its context, which ends
// its background work (waiting up to closeGrace for it). Goroutines that
// cells left running stop writing output.
func (s *Session) Close() error {
	s.stop()
	for deadline := time.Now().Add(closeGrace); s.workCount.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	s.out.close()
	if s.devnull != nil {
		s.devnull.Close()
	}
	return nil
}

// Execute runs one cell (see the kernel's Interpreter interface). Streams
// and displays go to sink while the cell runs; the returned bundle is the
// value of its final expression, nil when there is none. A failure is a
// *display.Error whose Name is one of CompileError, RuntimeError,
// PanicError or Interrupted; the session stays usable and keeps its state.
func (s *Session) Execute(ctx context.Context, code string, sink display.Sink) (display.Bundle, error) {
	s.exec.Lock()
	defer s.exec.Unlock()
	if s.base.Err() != nil {
		return nil, &display.Error{Name: CompileError, Value: "session is closed"}
	}
	s.cells++
	s.atCell.Store(int64(s.cells))
	s.at.Store(0)
	r := s.startCell(ctx, code, sink)
	stop := context.AfterFunc(ctx, func() { s.interruptRun(r) })
	err := s.runCell(r, code)
	stop()
	return s.endCell(r, err)
}

func (s *Session) startCell(ctx context.Context, code string, sink display.Sink) *cellRun {
	r := &cellRun{sink: sink, code: code}
	r.ctx, r.cancelRun = context.WithCancel(s.base)
	r.evalCtx, r.cancelEval = context.WithCancel(s.base)
	s.out.attach(sink)
	s.flushRepeats(true)
	s.wallClock.Store(false) // background work's, between cells: not this cell's
	s.out.stderr.take()
	s.mu.Lock()
	s.cur = r
	s.mu.Unlock()
	return r
}

func (s *Session) endCell(r *cellRun, err error) (display.Bundle, error) {
	s.flushRepeats(false)
	s.noteWallClock()
	s.out.flush()
	s.mu.Lock()
	s.cur = nil
	s.mu.Unlock()
	r.cancelRun()
	r.cancelEval()
	var result display.Bundle
	if err == nil && len(r.shown) > 0 {
		for _, b := range r.shown[:len(r.shown)-1] {
			r.sink.Display(b, "", false)
		}
		result = r.shown[len(r.shown)-1]
	}
	s.out.detach()
	if err != nil {
		var de *display.Error
		if !errors.As(err, &de) {
			de = newError(CompileError, &cellError{Msg: err.Error()}, nil, r.code)
		}
		return nil, de
	}
	return result, nil
}

// Interrupt ends the session's background work (Host.Background) and
// stops the running cell, if any: it cancels the cell's run context at once
// (library calls watching Host.Context return) and stops the interpreter if
// the cell has not returned after the grace period.
func (s *Session) Interrupt() {
	// The cell first: a cell waiting on background work (a live view's
	// Wait) then sees its own interrupt, not only the work's end.
	s.mu.Lock()
	r := s.cur
	s.mu.Unlock()
	if r != nil {
		s.interruptRun(r)
	}
	s.endWork()
}

// interruptRun cancels the run context, then stops the interpreter as soon
// as no session-bound library call or background work is in progress (at
// once for interpreted loops), or after the grace period if one does not
// return: stopping the interpreter under compiled code that still calls
// back into the cell would feed that code zero values.
func (s *Session) interruptRun(r *cellRun) {
	r.once.Do(func() {
		r.interrupted.Store(true)
		r.cancelRun()
		go func() {
			deadline := time.Now().Add(s.grace)
			for s.bound.Load() > 0 && time.Now().Before(deadline) && r.evalCtx.Err() == nil {
				time.Sleep(time.Millisecond)
			}
			if r.evalCtx.Err() != nil {
				return // the cell has ended
			}
			r.cancelEval()
		}()
	})
}

func (s *Session) current() *cellRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// show records a value of the cell's final expression.
func (s *Session) show(b display.Bundle) {
	if r := s.current(); r != nil {
		s.mu.Lock()
		r.shown = append(r.shown, b)
		s.mu.Unlock()
	}
}

// displayBundle sends b to the running cell's sink after the output written
// before it, so text and displays keep their order.
func (s *Session) displayBundle(b display.Bundle, id string, update bool) {
	r := s.current()
	if r == nil {
		if bg := s.background.Load(); bg != nil {
			(*bg).Display(b, id, update)
			return
		}
		fmt.Fprintf(s.out.errW, "[routelab: display outside a running cell ignored: %s]\n", firstLine(b.Text()))
		return
	}
	s.out.flush()
	r.sink.Display(b, id, update)
}

// clearOutput clears the running cell's output (with wait, when the next
// output arrives), after the output written before it.
func (s *Session) clearOutput(wait bool) {
	if r := s.current(); r != nil {
		s.out.flush()
		r.sink.Clear(wait)
	}
}

// sleep is the cells' time.Sleep: it ends with a panic (reported as the
// interrupt) when the running cell is interrupted, instead of sleeping on
// in the background after the interpreter has been stopped.
func (s *Session) sleep(d time.Duration) {
	ctx := host{s}.Context()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		if ctx != s.base {
			panic("interrupted during time.Sleep")
		}
		<-t.C
	}
}

// goroutinePanic reports a panic recovered in a goroutine a cell started.
// The same report again (a goroutine started by a policy, at every
// decision) is counted, not repeated: the count follows when another
// report comes or the cell ends.
func (s *Session) goroutinePanic(v any) {
	if _, exit := v.(exitPanic); exit && s.script {
		// os.Exit in a goroutine ends a script, as it ends a Go program:
		// the running cell is stopped, and RunScript returns the code
		// os.Exit stored.
		s.Interrupt()
		return
	}
	msg := fmt.Sprintf("panic in a goroutine started by a cell: %v\n", v)
	if tb := s.traceback(s.out.stderr.take()); len(tb) > 0 {
		msg += strings.Join(tb, "\n") + "\n"
	}
	if s.script {
		// A panic in a goroutine ends a script with status 2, as it ends a
		// Go program: recovered, a program waiting for that goroutine
		// would wait for ever.
		io.WriteString(s.out.errW, msg)
		s.exitCode.CompareAndSwap(-1, 2)
		s.Interrupt()
		return
	}
	s.goPanic.Lock()
	defer s.goPanic.Unlock()
	if msg == s.goPanic.last {
		s.goPanic.repeats++
		return
	}
	s.flushRepeatsLocked()
	s.goPanic.last = msg
	io.WriteString(s.out.errW, msg+"(recovered by routelab; the goroutine stopped, the session goes on)\n")
}

// flushRepeats reports how often the last goroutine panic was repeated.
// At the end of a cell the report is kept (its goroutines may go on
// panicking alike); a new cell shows its first panic in full again.
func (s *Session) flushRepeats(newCell bool) {
	s.goPanic.Lock()
	defer s.goPanic.Unlock()
	s.flushRepeatsLocked()
	if newCell {
		s.goPanic.last = ""
	}
}

func (s *Session) flushRepeatsLocked() {
	if s.goPanic.repeats > 0 {
		fmt.Fprintf(s.out.errW, "(the same panic %d more times)\n", s.goPanic.repeats)
		s.goPanic.repeats = 0
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + "..."
	}
	return s
}

// host is the Host a session gives its libraries.
type host struct{ s *Session }

func (h host) Context() context.Context {
	if r := h.s.current(); r != nil {
		return r.ctx
	}
	return h.s.base
}

func (h host) Stdout() io.Writer { return h.s.out.outW }

func (h host) Display(v any) { h.s.displayBundle(display.Of(v), "", false) }

func (h host) Callback(src RandSource, call func()) { h.s.callback(src, call) }

func (h host) Headless() bool {
	r := h.s.current()
	if r == nil {
		return false
	}
	hl, ok := r.sink.(display.Headless)
	return ok && hl.Headless()
}

func (h host) Background() (context.Context, func()) { return h.s.startWork() }

func (h host) Comms() display.Comms { return h.s.commsNow() }

func (h host) Status(line string) bool {
	r := h.s.current()
	if r == nil {
		return false
	}
	st, ok := r.sink.(display.Statuser)
	if ok {
		st.Status(line)
	}
	return ok
}

func (h host) HandleComms(c CommHandler) { h.s.comms.Store(&c) }

func (h host) CommOutput(id string) display.Sink { return h.s.commOutput(id) }

func (h host) Aside(ctx context.Context, sink display.Sink, f func()) error {
	return h.s.aside(ctx, sink, f)
}

// Warn writes to the running cell's stderr; between cells, to the
// background sink's at once (the pipes would hold it for the next cell).
func (h host) Warn(msg string) {
	line := "[routelab: " + msg + "]\n"
	if bg := h.s.background.Load(); bg != nil && h.s.current() == nil {
		(*bg).Stream("stderr", line)
		return
	}
	fmt.Fprint(h.s.out.errW, line)
}

func (h host) DisplayWithID(v any, id string, update bool) {
	h.s.displayBundle(display.Of(v), id, update)
}

// startWork starts a piece of background work: it counts as a bound call
// in progress (see interruptRun) until done is called, and its context ends
// at the next interrupt or when the session closes.
func (s *Session) startWork() (context.Context, func()) {
	s.work.Lock()
	if s.workCtx == nil {
		s.workCtx, s.workEnd = context.WithCancel(s.base)
	}
	ctx := s.workCtx
	s.work.Unlock()
	s.bound.Add(1)
	s.workCount.Add(1)
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			s.workCount.Add(-1)
			s.bound.Add(-1)
		})
	}
}

// endWork ends the background work running now; later work gets a fresh
// context.
func (s *Session) endWork() {
	s.work.Lock()
	defer s.work.Unlock()
	if s.workEnd != nil {
		s.workEnd()
	}
	s.workCtx, s.workEnd = nil, nil
}

// SetPositionHook makes the session call hook with the line and column of
// every top-level statement of a cell before running it, so that a
// supervisor knows where a session that dies was.
func (s *Session) SetPositionHook(hook func(line, col int)) { s.positionHook.Store(&hook) }

// SetBackgroundSink gives the session where to show displays made outside a
// running cell (a live view updating between cells, by id); without one they
// are dropped with a note on stderr.
func (s *Session) SetBackgroundSink(sink display.Sink) { s.background.Store(&sink) }

// atStatement records the top-level statement about to run
// (line*atScale+col).
func (s *Session) atStatement(at int) {
	s.at.Store(int64(at))
	if h := s.positionHook.Load(); h != nil {
		(*h)(at/atScale, at%atScale)
	}
}
