package kernel

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

// The kernel's listening sockets. zmq4 v0.17.0 does the ZMTP handshake and
// decodes frames (zmq4.Open, Conn.RecvMsg); this file owns what its socket
// types get wrong for a kernel: their accept loop runs each handshake inline
// (one silent peer blocks every later connection) without recovering from
// malformed metadata, they write every frame header and body with its own
// syscall, PUB queues without a flush, and frame sizes are not bounded.
// PUB here gives each subscriber its own bounded queue and writer: the
// kernel publishes at the pace of its subscribers, except one that has
// stopped taking data, which loses messages instead of stalling the others.

const (
	handshakeTimeout = 10 * time.Second
	// writeTimeout drops a peer that stops reading instead of stalling the kernel.
	writeTimeout = 10 * time.Second
	// maxFrame bounds the size of a received frame (zmq4 allocates what the
	// header claims before reading it).
	maxFrame = 1 << 30
	// queueMessages and queueBytes bound what waits for one subscriber
	// (the first is libzmq's default high-water mark). Publishing waits
	// while a subscriber's queue is full, unless that subscriber is stalled:
	// it has not taken a byte for stallAfter. A stalled subscriber loses
	// the messages that do not fit; writeTimeout later it is dropped.
	queueMessages = 1000
	queueBytes    = 64 << 20
	stallAfter    = 500 * time.Millisecond
	// writeChunk is the most written at once to a subscriber, so progress
	// (and a stall) is seen during a long write.
	writeChunk = 256 << 10
	// flushTimeout bounds how long closing waits for queued messages.
	flushTimeout = time.Second
)

// zsocket is a listening ZeroMQ socket of one of the kinds a kernel serves:
// ROUTER (shell, control, stdin), PUB (iopub) or REP (heartbeat).
type zsocket struct {
	kind zmq4.SocketType
	name string // the channel, for logs
	ln   net.Listener
	logf func(format string, args ...any)
	in   chan [][]byte // ROUTER: received messages, routing id first
	done chan struct{}
	wg   sync.WaitGroup

	mu    sync.Mutex
	room  chan struct{}     // PUB: closed (and replaced) when a queue drains or a subscriber leaves
	conns map[net.Conn]bool // every accepted connection, for Close
	peers map[*peer]bool    // connections past the handshake
	byID  map[string]*peer  // ROUTER routing ids
	seq   uint32            // ROUTER ids for peers that send none
}

// peer is one connection. It is also the net.Conn zmq4 speaks ZMTP over:
// reads are buffered and checked for oversized frames; zmq4's own writes
// (handshake, PONG) are held until the reader flushes them as one write.
type peer struct {
	net.Conn
	r       *bufio.Reader
	guard   frameGuard
	pending []byte
	wmu     sync.Mutex
	z       *zmq4.Conn
	id      string
	topics  map[string]bool // PUB subscriptions, guarded by zsocket.mu
	queue   *sendQueue      // PUB: messages waiting for this subscriber
	gone    chan struct{}   // closed when the connection has ended
}

func (p *peer) Read(b []byte) (int, error) {
	if err := p.flush(); err != nil {
		return 0, err
	}
	n, err := p.r.Read(b)
	if gerr := p.guard.scan(b[:n]); gerr != nil {
		return 0, gerr
	}
	return n, err
}

func (p *peer) Write(b []byte) (int, error) {
	p.pending = append(p.pending, b...)
	return len(b), nil
}

func (p *peer) flush() error {
	if len(p.pending) == 0 {
		return nil
	}
	err := p.write(p.pending)
	p.pending = p.pending[:0]
	return err
}

// write sends bytes as one write, serialised with other senders.
func (p *peer) write(b []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	p.Conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err := p.Conn.Write(b)
	p.Conn.SetWriteDeadline(time.Time{})
	return err
}

// frameGuard follows the ZMTP frame stream zmq4 reads after the handshake
// and fails a frame whose declared size exceeds maxFrame before zmq4
// allocates it.
type frameGuard struct {
	on    bool
	state int // 0 flags, 1 short size, 2..9 long size bytes, 10 body
	size  uint64
	long  bool
}

func (g *frameGuard) scan(b []byte) error {
	for i := 0; g.on && i < len(b); {
		switch {
		case g.state == 0:
			g.long, g.size = b[i]&2 != 0, 0
			g.state = 1
			if g.long {
				g.state = 2
			}
			i++
		case g.state == 1:
			g.size, g.state = uint64(b[i]), 10
			i++
		case g.state < 10:
			g.size = g.size<<8 | uint64(b[i])
			g.state++
			i++
			if g.state == 10 && g.size > maxFrame {
				return fmt.Errorf("frame of %d bytes exceeds the %d-byte limit", g.size, maxFrame)
			}
		default:
			skip := min(uint64(len(b)-i), g.size)
			g.size -= skip
			i += int(skip)
		}
		if g.state == 10 && g.size == 0 {
			g.state = 0
		}
	}
	return nil
}

// listenZMQ binds a socket of the given kind to a tcp:// or ipc:// endpoint.
func listenZMQ(kind zmq4.SocketType, name, endpoint string, logf func(string, ...any)) (*zsocket, error) {
	network, addr, ok := strings.Cut(endpoint, "://")
	if network == "ipc" {
		network = "unix"
	}
	if !ok || (network != "tcp" && network != "unix") {
		return nil, fmt.Errorf("endpoint %q is not tcp:// or ipc://", endpoint)
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	return serveZMQ(kind, name, ln, logf), nil
}

// serveZMQ serves a socket of the given kind on a listener.
func serveZMQ(kind zmq4.SocketType, name string, ln net.Listener, logf func(string, ...any)) *zsocket {
	s := &zsocket{kind: kind, name: name, ln: ln, logf: logf, in: make(chan [][]byte, 256), done: make(chan struct{}),
		conns: map[net.Conn]bool{}, peers: map[*peer]bool{}, byID: map[string]*peer{}}
	s.room = make(chan struct{})
	s.wg.Add(1)
	go s.accept()
	return s
}

func (s *zsocket) accept() {
	defer s.wg.Done()
	delay := 5 * time.Millisecond
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if s.closed() {
				return
			}
			s.logf("%s: accept failed: %v", s.name, err)
			time.Sleep(delay)
			delay = min(2*delay, time.Second)
			continue
		}
		delay = 5 * time.Millisecond
		s.mu.Lock()
		if s.closed() {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = true
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serve(c)
	}
}

func (s *zsocket) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// serve runs one connection: handshake, then receive until it closes.
func (s *zsocket) serve(c net.Conn) {
	defer s.wg.Done()
	p := &peer{Conn: c, r: bufio.NewReaderSize(c, 64<<10), gone: make(chan struct{})}
	defer s.drop(p)
	if err := s.handshake(p); err != nil {
		if !isDisconnect(err) {
			s.logf("%s: dropped connection from %s: %v", s.name, c.RemoteAddr(), err)
		}
		return
	}
	for {
		frames, err := p.receive()
		if err != nil {
			if !s.closed() && !isDisconnect(err) {
				s.logf("%s: dropped connection from %s: %v", s.name, c.RemoteAddr(), err)
			}
			return
		}
		if frames != nil && !s.deliver(p, frames) {
			return
		}
	}
}

// handshake runs zmq4's ZMTP greeting and NULL-security handshake under a
// deadline, then registers the peer.
func (s *zsocket) handshake(p *peer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed handshake: %v", r)
		}
	}()
	p.SetDeadline(time.Now().Add(handshakeTimeout))
	z, err := zmq4.Open(p, null.Security(), s.kind, zmq4.SocketIdentity("routelab"), true, nil)
	if err != nil {
		return err
	}
	if err := p.flush(); err != nil {
		return err
	}
	p.SetDeadline(time.Time{})
	p.z, p.guard.on = z, true
	s.register(p)
	return nil
}

// receive reads one message; ZMTP commands come back as nil frames.
func (p *peer) receive() (frames [][]byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed frame: %v", r)
		}
	}()
	m, err := p.z.RecvMsg()
	if ferr := p.flush(); err == nil {
		err = ferr
	}
	if err != nil || m.Type == zmq4.CmdMsg {
		return nil, err
	}
	return m.Frames, nil
}

func isDisconnect(err error) bool {
	return errors.Is(err, net.ErrClosed) || errors.Is(err, zmq4.ErrClosedConn) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}

func (s *zsocket) register(p *peer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.peers[p] = true
	switch s.kind {
	case zmq4.Router:
		p.id = p.z.Peer.Meta["Identity"]
		if p.id == "" {
			// libzmq's convention for generated ids: a zero byte, then a counter.
			s.seq++
			p.id = string(binary.BigEndian.AppendUint32([]byte{0}, s.seq))
		}
		if old := s.byID[p.id]; old != nil {
			s.logf("%s: a new connection took over routing id %q", s.name, p.id)
		}
		s.byID[p.id] = p
	case zmq4.Pub:
		p.topics = map[string]bool{}
		p.queue = &sendQueue{wake: make(chan struct{}, 1)}
		s.wg.Add(1)
		go s.writeQueued(p)
	}
}

func (s *zsocket) drop(p *peer) {
	p.Close()
	close(p.gone)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, p.Conn)
	delete(s.peers, p)
	if p.id != "" && s.byID[p.id] == p {
		delete(s.byID, p.id)
	}
	s.roomChanged()
}

// deliver acts on a received message; false ends the connection.
func (s *zsocket) deliver(p *peer, frames [][]byte) bool {
	switch s.kind {
	case zmq4.Router:
		select {
		case s.in <- append([][]byte{[]byte(p.id)}, frames...):
		case <-s.done:
			return false
		}
	case zmq4.Rep:
		// A REQ envelope is echoed as is, which is exactly a heartbeat.
		if err := p.write(appendFrames(nil, frames)); err != nil {
			return false
		}
	case zmq4.Pub:
		// ZMTP 3.0 subscriptions: one frame, \x01 or \x00 then the topic.
		if f := frames[0]; len(frames) == 1 && len(f) > 0 && f[0] <= 1 {
			s.mu.Lock()
			if f[0] == 1 {
				p.topics[string(f[1:])] = true
			} else {
				delete(p.topics, string(f[1:]))
			}
			s.mu.Unlock()
		}
	}
	return true
}

// send routes a ROUTER message to the peer named by its first frame.
func (s *zsocket) send(frames [][]byte) error {
	s.mu.Lock()
	p := s.byID[string(frames[0])]
	s.mu.Unlock()
	if p == nil {
		return errors.New("the client has disconnected")
	}
	if err := p.write(appendFrames(nil, frames[1:])); err != nil {
		p.Close()
		return err
	}
	return nil
}

// publish queues a PUB message for every peer subscribed to a prefix of
// its first frame, waiting while one whose queue is full still takes data;
// stalled ones lose the message.
func (s *zsocket) publish(frames [][]byte) {
	data := appendFrames(nil, frames)
	topic := string(frames[0])
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		var to []*peer
		wait := false
		for p := range s.peers {
			for t := range p.topics {
				if strings.HasPrefix(topic, t) {
					to = append(to, p)
					wait = wait || !p.queue.fits(len(data)) && !p.queue.stalled()
					break
				}
			}
		}
		if !wait || s.closed() {
			for _, p := range to {
				if p.queue.push(data) {
					s.logf("%s: a subscriber at %s stopped reading; it loses messages until it reads again", s.name, p.RemoteAddr())
				}
			}
			return
		}
		room := s.room
		s.mu.Unlock()
		select {
		case <-room:
		case <-time.After(stallAfter / 10): // a subscriber may have stalled since
		}
		s.mu.Lock()
	}
}

// roomChanged wakes publishers waiting for room (s.mu held).
func (s *zsocket) roomChanged() {
	close(s.room)
	s.room = make(chan struct{})
}

// writeQueued sends a subscriber's queued messages, in as few writes as
// possible, until the connection ends. A subscriber that stops reading is
// dropped after writeTimeout; the messages it could not take meanwhile are
// lost, and the log says how many.
func (s *zsocket) writeQueued(p *peer) {
	defer s.wg.Done()
	for {
		select {
		case <-p.queue.wake:
		case <-p.gone:
			return
		}
		data, lost := p.queue.take()
		if lost > 0 {
			s.logf("%s: a subscriber at %s reads again; it lost %d messages", s.name, p.RemoteAddr(), lost)
		}
		err := s.writeChunks(p, data)
		p.queue.sent(len(data))
		s.mu.Lock()
		s.roomChanged()
		s.mu.Unlock()
		if err != nil {
			s.logf("%s: dropped a subscriber that stopped reading: %v", s.name, err)
			p.Close()
			return
		}
	}
}

func (s *zsocket) writeChunks(p *peer, data []byte) error {
	for len(data) > 0 {
		n := min(len(data), writeChunk)
		if err := p.write(data[:n]); err != nil {
			return err
		}
		p.queue.progress()
		data = data[n:]
	}
	return nil
}

// sendQueue holds the messages published to one subscriber until its
// writer has written them: those waiting and those being written count
// against the bounds, so a subscriber stuck in a write is full.
type sendQueue struct {
	mu           sync.Mutex
	pending      []byte    // messages waiting, already framed
	count        int       // messages waiting or being written
	bytes        int       // their size
	taken        int       // of those, messages being written
	lost         int       // messages refused since the last take
	lastProgress time.Time // when the writer last wrote (or took) data
	wake         chan struct{}
}

// fits reports whether a message of n bytes would be queued.
func (q *sendQueue) fits(n int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.fitsLocked(n)
}

func (q *sendQueue) fitsLocked(n int) bool {
	// An empty queue takes any message: a big one is not lost for its size.
	return q.count == 0 || q.count < queueMessages && q.bytes+n <= queueBytes
}

// stalled reports whether the subscriber has data in flight but has taken
// none for stallAfter.
func (q *sendQueue) stalled() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.taken > 0 && time.Since(q.lastProgress) > stallAfter
}

// push queues data, or counts it lost when the queue is full; true for
// the first loss since the subscriber last took messages.
func (q *sendQueue) push(data []byte) (firstLoss bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.fitsLocked(len(data)) {
		q.lost++
		return q.lost == 1
	}
	q.pending = append(q.pending, data...)
	q.count++
	q.bytes += len(data)
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return false
}

// take hands the waiting messages to the writer and says how many
// messages were lost since the last take.
func (q *sendQueue) take() (data []byte, lost int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	data, lost = q.pending, q.lost
	q.pending, q.lost, q.taken, q.lastProgress = nil, 0, q.count, time.Now()
	return data, lost
}

// progress notes that the subscriber took data.
func (q *sendQueue) progress() {
	q.mu.Lock()
	q.lastProgress = time.Now()
	q.mu.Unlock()
}

// sent releases the taken messages once written (or given up).
func (q *sendQueue) sent(n int) {
	q.mu.Lock()
	q.count -= q.taken
	q.bytes -= n
	q.taken = 0
	q.mu.Unlock()
}

func (q *sendQueue) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.count == 0
}

// flush waits until every subscriber's queue has been written, for at
// most timeout: the last messages (shutdown_reply, idle) reach clients
// that are reading.
func (s *zsocket) flush(timeout time.Duration) {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		busy := false
		for p := range s.peers {
			busy = busy || p.queue != nil && !p.queue.idle()
		}
		s.mu.Unlock()
		if !busy {
			return
		}
	}
}

// appendFrames encodes a multipart message in ZMTP 3 framing.
func appendFrames(dst []byte, frames [][]byte) []byte {
	for i, f := range frames {
		var flags byte
		if i < len(frames)-1 {
			flags |= 1
		}
		if len(f) > 255 {
			dst = binary.BigEndian.AppendUint64(append(dst, flags|2), uint64(len(f)))
		} else {
			dst = append(dst, flags, byte(len(f)))
		}
		dst = append(dst, f...)
	}
	return dst
}

// Close stops accepting, sends what is queued for subscribers (within
// flushTimeout), closes every connection and waits for their goroutines.
func (s *zsocket) Close() {
	s.flush(flushTimeout)
	s.mu.Lock()
	if !s.closed() {
		close(s.done)
	}
	s.roomChanged()
	s.ln.Close()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}
