package kernel

import (
	"context"
	"sync"

	"github.com/routelab/routelab/display"
)

// Input: a cell that reads standard input, in a request whose client
// allows stdin, asks the client with an input_request on the stdin channel
// and waits for its input_reply (or for the cell's end: an interrupt).
// Without allow_stdin the read fails at once with display.ErrNoInput.

// inputWait is the one question to the client that may be open.
type inputWait struct {
	mu      sync.Mutex
	waiting chan string
}

// open makes the channel the next input_reply goes to.
func (w *inputWait) open() chan string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waiting = make(chan string, 1)
	return w.waiting
}

func (w *inputWait) close(ch chan string) {
	w.mu.Lock()
	if w.waiting == ch {
		w.waiting = nil
	}
	w.mu.Unlock()
}

// deliver hands a reply's value to the open question, if any.
func (w *inputWait) deliver(value string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waiting == nil {
		return false
	}
	w.waiting <- value
	w.waiting = nil
	return true
}

// Input asks the client for a line, after the cell's output so far.
func (s *iopubSink) Input(ctx context.Context, prompt string, password bool) (string, error) {
	if !s.stdin {
		return "", display.ErrNoInput
	}
	s.flush()
	k := s.r.k
	reply := k.inputs.open()
	defer k.inputs.close(reply)
	frames, err := encode(k.sign, s.r.m.ids, k.id.header("input_request"), s.r.m.rawHeader, nil, map[string]any{"prompt": prompt, "password": password})
	if err == nil {
		err = k.stdin.send(frames)
	}
	if err != nil {
		// No stdin socket of this client's identity: nobody can answer.
		k.log.Printf("stdin: cannot send input_request: %v", err)
		return "", display.ErrNoInput
	}
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-k.stop:
		return "", display.ErrNoInput
	}
}
