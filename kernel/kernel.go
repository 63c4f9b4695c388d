package kernel

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
)

const (
	// workerGrace is how long shutdown waits for an interrupted cell to return.
	workerGrace = 2 * time.Second
	// parentPoll is how often a kernel started by Jupyter checks its parent.
	parentPoll = time.Second
)

// Option adjusts how Serve runs.
type Option func(*serveConfig)

type serveConfig struct {
	info      Info
	signals   <-chan os.Signal
	listening func()
	sockets   map[int]*os.File
}

// WithInfo sets what kernel_info_reply reports (default DefaultInfo()).
func WithInfo(info Info) Option {
	return func(c *serveConfig) { c.info = info }
}

// WithSignals makes Serve interrupt the running cell on every value received
// from ch instead of subscribing to the process's SIGINT itself.
func WithSignals(ch <-chan os.Signal) Option {
	return func(c *serveConfig) { c.signals = ch }
}

// WithListening makes Serve call f once its sockets listen, before it
// serves: work that would compete with binding for the CPU (starting a
// session process) waits until clients can connect, since a client that
// connects before the kernel listens retries only 100–200 ms later.
func WithListening(f func()) Option {
	return func(c *serveConfig) { c.listening = f }
}

// WithListeners gives Serve sockets already listening on some of the
// connection file's ports (by port), as a launcher that binds them early
// would; Serve takes ownership of the files and binds the other ports
// itself.
func WithListeners(sockets map[int]*os.File) Option {
	return func(c *serveConfig) { c.sockets = sockets }
}

// Serve runs a Jupyter kernel on the channels named by connectionFile until a
// shutdown_request arrives or ctx is cancelled; both return nil. Errors are
// returned only for start-up problems (connection file, signature scheme,
// ports). Dropped messages and other events are logged, one line each, to
// logw (os.Stderr when nil).
func Serve(ctx context.Context, connectionFile string, interp Interpreter, logw io.Writer, opts ...Option) error {
	if interp == nil {
		return errors.New("kernel: Serve needs an Interpreter, got nil")
	}
	if logw == nil {
		logw = os.Stderr
	}
	cfg := serveConfig{info: DefaultInfo()}
	for _, o := range opts {
		o(&cfg)
	}
	ci, err := ReadConnectionFile(connectionFile)
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	k, err := newKernel(ci, interp, cfg.info, logw)
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	if b, ok := interp.(Backgrounder); ok {
		b.SetBackgroundSink(backgroundSink{k})
	}
	if err := k.bind(connectionFile, cfg.sockets); err != nil {
		return err
	}
	if cfg.listening != nil {
		cfg.listening()
	}
	signals := cfg.signals
	if signals == nil {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt)
		defer signal.Stop(ch)
		signals = ch
	}
	k.serve(ctx, signals)
	return nil
}

// kernel is one running kernel. The fields under "shell worker state" are
// only touched by the shell worker goroutine.
type kernel struct {
	interp Interpreter
	info   Info
	conn   ConnectionInfo
	log    *log.Logger
	sign   signer
	id     identity

	shell   *channel
	control *channel
	stdin   *channel
	iopub   *channel
	hb      *channel

	shellQ   chan *message
	stop     chan struct{}
	stopOnce sync.Once
	running  atomic.Bool
	cellCtx  context.Context
	displays displayParents
	comms    commRegistry
	// inputs carries the client's input_reply values to the cell waiting
	// for one (a cell runs at a time, so one waits at most).
	inputs inputWait

	// shell worker state
	execCount  int
	history    history
	abortCount int // queued requests to scan for executes to abort
}

func newKernel(ci ConnectionInfo, interp Interpreter, info Info, logw io.Writer) (*kernel, error) {
	s, err := newSigner(ci.SignatureScheme, ci.Key)
	if err != nil {
		return nil, err
	}
	var sid [16]byte
	if _, err := rand.Read(sid[:]); err != nil {
		return nil, fmt.Errorf("cannot make a session id: %w", err)
	}
	k := &kernel{
		interp: interp,
		info:   info,
		conn:   ci,
		log:    log.New(logw, "routelab kernel: ", log.LstdFlags),
		sign:   s,
		shellQ: make(chan *message, 256),
		stop:   make(chan struct{}),
	}
	k.id.session = hex.EncodeToString(sid[:])
	k.history.session = 1
	return k, nil
}

// channel is one of the kernel's five sockets, named for logs.
type channel struct {
	name string
	*zsocket
}

// bind listens on the five channels where the connection file says, on
// the given sockets where there are; on failure the channels already
// bound are closed again.
func (k *kernel) bind(file string, sockets map[int]*os.File) error {
	kinds := map[string]zmq4.SocketType{"shell": zmq4.Router, "control": zmq4.Router,
		"stdin": zmq4.Router, "iopub": zmq4.Pub, "heartbeat": zmq4.Rep}
	var bound []*channel
	defer func() {
		for _, f := range sockets {
			f.Close() // net.FileListener keeps its own copy
		}
	}()
	for _, p := range k.conn.ports() {
		ep := k.conn.endpoint(p.port)
		zs, err := k.listen(kinds[p.channel], p.channel, ep, sockets[p.port])
		if err != nil {
			for _, c := range bound {
				c.Close()
			}
			return fmt.Errorf("kernel: cannot listen on %s (%s %d in %s): %v", ep, p.field, p.port, file, err)
		}
		c := &channel{name: p.channel, zsocket: zs}
		bound = append(bound, c)
		switch p.channel {
		case "shell":
			k.shell = c
		case "control":
			k.control = c
		case "stdin":
			k.stdin = c
		case "iopub":
			k.iopub = c
		case "heartbeat":
			k.hb = c
		}
	}
	return nil
}

// listen serves one channel on socket, or on a socket of its own when nil.
func (k *kernel) listen(kind zmq4.SocketType, name, endpoint string, socket *os.File) (*zsocket, error) {
	if socket == nil {
		return listenZMQ(kind, name, endpoint, k.log.Printf)
	}
	ln, err := net.FileListener(socket)
	if err != nil {
		return nil, err
	}
	return serveZMQ(kind, name, ln, k.log.Printf), nil
}

func (k *kernel) closeSockets() {
	for _, c := range []*channel{k.shell, k.control, k.stdin, k.iopub, k.hb} {
		c.Close()
	}
}

// serve runs until shutdown or ctx cancellation, then tears down.
func (k *kernel) serve(ctx context.Context, signals <-chan os.Signal) {
	cellCtx, cancelCells := context.WithCancel(ctx)
	defer cancelCells()
	k.cellCtx = cellCtx
	k.publish(nil, "status", statusContent{"starting"})

	var readers sync.WaitGroup
	readers.Add(3)
	go func() { defer readers.Done(); k.readLoop(k.shell, k.enqueueShell) }()
	go func() { defer readers.Done(); k.readLoop(k.control, k.handleControl) }()
	go func() { defer readers.Done(); k.readLoop(k.stdin, k.handleStdin) }()
	workerDone := make(chan struct{})
	go func() { defer close(workerDone); k.shellWorker() }()
	go k.watchSignals(signals)
	if os.Getenv("JPY_PARENT_PID") != "" {
		go k.watchParent(os.Getppid())
	}

	select {
	case <-ctx.Done():
		k.shutdown()
	case <-k.stop:
	}
	if k.running.Load() {
		k.interp.Interrupt()
	}
	select {
	case <-workerDone:
	case <-time.After(workerGrace):
		k.log.Printf("the running cell did not stop within %v of shutdown; exiting anyway", workerGrace)
	}
	cancelCells()
	k.closeSockets() // after sending what is queued for subscribers
	readers.Wait()
}

// shutdown starts the teardown; safe to call many times.
func (k *kernel) shutdown() {
	k.stopOnce.Do(func() { close(k.stop) })
}

func (k *kernel) stopped() bool {
	select {
	case <-k.stop:
		return true
	default:
		return false
	}
}

// readLoop takes messages from a ROUTER socket until it closes, dropping
// those that fail to parse or verify.
func (k *kernel) readLoop(c *channel, handle func(*channel, *message)) {
	for {
		var frames [][]byte
		select {
		case frames = <-c.in:
		case <-c.done:
			return
		}
		m, err := parseMessage(frames, k.sign)
		if err != nil {
			k.log.Printf("%s: dropped a message: %v", c.name, err)
			continue
		}
		if k.stopped() {
			k.log.Printf("%s: dropped %s received during shutdown", c.name, m.header.MsgType)
			continue
		}
		handle(c, m)
	}
}

func (k *kernel) enqueueShell(_ *channel, m *message) {
	select {
	case k.shellQ <- m:
	case <-k.stop:
	}
}

// shellWorker handles shell requests one at a time, in arrival order.
func (k *kernel) shellWorker() {
	for {
		select {
		case <-k.stop:
			return
		case m := <-k.shellQ:
			if k.stopped() {
				return
			}
			k.handleShell(m)
			if k.abortCount > 0 {
				k.abortQueued()
			}
		}
	}
}

// abortQueued answers the execute requests that were queued when a cell
// failed with status "aborted" (stop_on_error); other requests among them
// run normally, and requests that arrive later are not affected.
func (k *kernel) abortQueued() {
	n := k.abortCount
	k.abortCount = 0
	for range n {
		m := <-k.shellQ
		if m.header.MsgType != "execute_request" {
			k.handleShell(m)
			continue
		}
		r := request{k: k, ch: k.shell, m: m}
		r.withStatus(func() {
			r.reply(abortedReply{Status: "aborted"})
		})
	}
}

func (k *kernel) handleStdin(_ *channel, m *message) {
	if m.header.MsgType != "input_reply" {
		k.log.Printf("stdin: ignored a %s", m.header.MsgType)
		return
	}
	var c struct {
		Value *string `json:"value"`
	}
	if err := json.Unmarshal(m.content, &c); err != nil || c.Value == nil {
		k.log.Printf("stdin: ignored an input_reply without a string value: %.200s", m.content)
		return
	}
	if !k.inputs.deliver(*c.Value) {
		k.log.Printf("stdin: ignored an input_reply that no cell asked for")
	}
}

func (k *kernel) watchSignals(signals <-chan os.Signal) {
	for {
		select {
		case <-k.stop:
			return
		case sig, ok := <-signals:
			if !ok {
				return
			}
			k.log.Printf("received %v: interrupting the running cell", sig)
			k.interp.Interrupt()
		}
	}
}

// watchParent shuts the kernel down when the process that started it (a
// Jupyter server, per JPY_PARENT_PID) dies and the kernel is re-parented.
func (k *kernel) watchParent(ppid int) {
	t := time.NewTicker(parentPoll)
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
			if os.Getppid() != ppid {
				k.log.Printf("parent process %d exited; shutting down", ppid)
				k.shutdown()
				return
			}
		}
	}
}

// publish sends a message on iopub; parent may be nil.
func (k *kernel) publish(parent *message, msgType string, content any) {
	k.publishWithMetadata(parent, msgType, nil, content)
}

// publishWithMetadata publishes a message whose metadata part matters (a
// widget's comm_open carries the widget protocol's version there).
func (k *kernel) publishWithMetadata(parent *message, msgType string, metadata, content any) {
	var ph []byte
	if parent != nil {
		ph = parent.rawHeader
	}
	frames, err := encode(k.sign, [][]byte{[]byte(msgType)}, k.id.header(msgType), ph, metadata, content)
	if err != nil {
		k.log.Printf("iopub: cannot encode %s: %v", msgType, err)
		return
	}
	k.iopub.publish(frames)
}

type statusContent struct {
	ExecutionState string `json:"execution_state"`
}
