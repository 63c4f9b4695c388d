package dsl

import (
	"bytes"
	"io"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/routelab/routelab/display"
)

// Output of cells travels through two per-session pipes, one per stream. The
// interpreter's fmt, log, print/println, os.Stdout and os.Stderr all write
// into them, so whatever a cell (or a goroutine it started) prints arrives
// in the order it was written, and the process-wide os.Stdout is never
// touched. A reader goroutine per pipe forwards text to the sink of the
// running cell as soon as it arrives; Flush waits until everything written
// before it has been delivered.

// flushMark is written into a pipe to learn that everything before it has
// been read. It is unlikely in real output and never delivered.
const flushMark = "\x00\x1brouteLab-flush\x1b\x00"

// pendingLimit bounds the output kept between cells (from goroutines that
// outlive their cell); it is delivered at the start of the next cell.
const pendingLimit = 1 << 20

type output struct {
	mu      sync.Mutex
	sink    display.Sink
	pending []pendingText
	dropped int

	outR, outW *os.File
	errR, errW *os.File
	flushed    chan struct{} // one token per stream and flush
	flushMu    sync.Mutex    // one flush at a time
	done       sync.WaitGroup

	stderr *panicFilter // the interpreter's Stderr option
}

type pendingText struct{ name, text string }

func newOutput() (*output, error) {
	o := &output{flushed: make(chan struct{}, 2)}
	var err error
	if o.outR, o.outW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if o.errR, o.errW, err = os.Pipe(); err != nil {
		o.outR.Close()
		o.outW.Close()
		return nil, err
	}
	o.stderr = &panicFilter{w: o.errW}
	o.done.Add(2)
	go o.pump("stdout", o.outR)
	go o.pump("stderr", o.errR)
	return o, nil
}

// attach makes sink the destination of output, first handing it what was
// written while no cell ran.
func (o *output) attach(sink display.Sink) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sink = sink
	for _, p := range o.pending {
		sink.Stream(p.name, p.text)
	}
	if o.dropped > 0 {
		sink.Stream("stderr", "[routelab: output from earlier goroutines was dropped]\n")
	}
	o.pending, o.dropped = nil, 0
}

// detach stops delivering to the current sink; later output waits for the
// next cell.
func (o *output) detach() {
	o.mu.Lock()
	o.sink = nil
	o.mu.Unlock()
}

func (o *output) deliver(name, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.sink != nil {
		o.sink.Stream(name, text)
		return
	}
	size := len(text)
	for _, p := range o.pending {
		size += len(p.text)
	}
	if size > pendingLimit {
		o.dropped += len(text)
		return
	}
	o.pending = append(o.pending, pendingText{name, text})
}

// flush returns once everything written to both streams before the call has
// been delivered.
func (o *output) flush() {
	o.flushMu.Lock()
	defer o.flushMu.Unlock()
	n := 0
	for _, w := range []*os.File{o.outW, o.errW} {
		if _, err := w.WriteString(flushMark); err == nil {
			n++
		}
	}
	for ; n > 0; n-- {
		<-o.flushed
	}
}

// pump copies one pipe to the sink, holding back incomplete UTF-8 sequences
// and possible beginnings of the flush mark.
func (o *output) pump(name string, r io.Reader) {
	defer o.done.Done()
	buf := make([]byte, 32<<10)
	var acc []byte
	for {
		n, err := r.Read(buf)
		acc = append(acc, buf[:n]...)
		for {
			i := bytes.Index(acc, []byte(flushMark))
			if i < 0 {
				break
			}
			if i > 0 {
				o.deliver(name, string(acc[:i]))
			}
			acc = acc[i+len(flushMark):]
			o.flushed <- struct{}{}
		}
		keep := holdBack(acc)
		if err != nil {
			keep = 0
		}
		if len(acc)-keep > 0 {
			o.deliver(name, string(acc[:len(acc)-keep]))
			acc = append(acc[:0], acc[len(acc)-keep:]...)
		}
		if err != nil {
			return
		}
	}
}

// holdBack is how many trailing bytes of b might be the start of the flush
// mark or of an unfinished UTF-8 sequence.
func holdBack(b []byte) int {
	for k := min(len(flushMark)-1, len(b)); k > 0; k-- {
		if bytes.HasSuffix(b, []byte(flushMark[:k])) {
			return k
		}
	}
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

func (o *output) close() {
	o.outW.Close()
	o.errW.Close()
	o.done.Wait()
	o.outR.Close()
	o.errR.Close()
}

// panicFilter is the interpreter's error stream. yaegi writes one
// "L:C: panic: f(...)" line per interpreted frame a panic unwinds; those
// become the traceback of the cell's error instead of stray output.
type panicFilter struct {
	w      io.Writer
	mu     sync.Mutex
	frames []frame
}

func (p *panicFilter) Write(b []byte) (int, error) {
	if f, ok := parsePanicLine(string(b)); ok {
		p.mu.Lock()
		p.frames = append(p.frames, f)
		p.mu.Unlock()
		return len(b), nil
	}
	return p.w.Write(b)
}

// take returns and forgets the frames reported since the last call.
func (p *panicFilter) take() []frame {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.frames
	p.frames = nil
	return f
}
