package console

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

// maxQueued bounds the messages a stream holds for a reader that has
// stopped reading; past it the stream ends (the page reconnects and is sent
// its state afresh), so a stuck page cannot grow the server's memory.
const maxQueued = 1024

// keepAlive is how often an idle stream sends a comment, so that a dead
// connection is noticed even while the simulation is paused.
const keepAlive = 15 * time.Second

// stream is one connected event stream of a page (its EventSource).
// Frames are pictures of the present, so a slow reader skips to the newest
// one; every other message (acks, errors, state) is delivered in order.
type stream struct {
	every time.Duration // at most one frame per this (reduced motion: 1 s)

	mu       sync.Mutex
	frame    []byte   // newest frame not yet written
	msgs     [][]byte // messages not yet written, in order
	overflow bool
	wake     chan struct{}
}

func newStream(every time.Duration) *stream {
	return &stream{every: every, wake: make(chan struct{}, 1)}
}

// pushFrame replaces the frame waiting to be written.
func (s *stream) pushFrame(msg []byte) {
	s.mu.Lock()
	s.frame = msg
	s.mu.Unlock()
	s.poke()
}

// push queues a message.
func (s *stream) push(msg []byte) {
	s.mu.Lock()
	if len(s.msgs) >= maxQueued {
		s.overflow = true
	} else {
		s.msgs = append(s.msgs, msg)
	}
	s.mu.Unlock()
	s.poke()
}

func (s *stream) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

var errOverflow = errors.New("the page stopped reading its event stream")

// serve writes the stream to w until ctx ends or writing fails.
func (s *stream) serve(ctx context.Context, w http.ResponseWriter) error {
	rc := http.NewResponseController(w)
	lastFrame, lastWrite := time.Time{}, time.Now()
	timer := time.NewTimer(keepAlive)
	defer timer.Stop()
	for {
		msgs, frame, wait, overflow := s.take(lastFrame)
		if overflow {
			return errOverflow
		}
		if frame != nil {
			lastFrame = time.Now()
			msgs = append(msgs, frame)
		}
		if len(msgs) == 0 && time.Since(lastWrite) >= keepAlive {
			msgs = [][]byte{[]byte(": keep-alive\n\n")}
		}
		if len(msgs) > 0 {
			if err := write(w, rc, msgs); err != nil {
				return err
			}
			lastWrite = time.Now()
		}
		timer.Reset(min(wait, keepAlive-time.Since(lastWrite)))
		select {
		case <-ctx.Done():
			return nil
		case <-s.wake:
		case <-timer.C:
		}
	}
}

// take removes what is due: every queued message, and the frame unless one
// was written less than s.every ago (then wait says when it is due).
func (s *stream) take(lastFrame time.Time) (msgs [][]byte, frame []byte, wait time.Duration, overflow bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msgs, s.msgs = s.msgs, nil
	wait = keepAlive
	if s.frame != nil {
		if since := time.Since(lastFrame); since >= s.every {
			frame, s.frame = s.frame, nil
		} else {
			wait = s.every - since
		}
	}
	return msgs, frame, wait, s.overflow
}

func write(w http.ResponseWriter, rc *http.ResponseController, msgs [][]byte) error {
	for _, m := range msgs {
		if _, err := w.Write(m); err != nil {
			return err
		}
	}
	return rc.Flush()
}
