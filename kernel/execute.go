package kernel

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/routelab/routelab/display"
)

const (
	// streamFlushDelay batches the many small writes of a printing loop into
	// fewer stream messages; output never waits longer than this.
	streamFlushDelay = 50 * time.Millisecond
	// streamFlushSize flushes large output without waiting.
	streamFlushSize = 64 << 10
)

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	StopOnError     *bool             `json:"stop_on_error"`
	AllowStdin      *bool             `json:"allow_stdin"`
}

// execute runs one cell (shell worker only). silent cells publish nothing
// but status; only store_history cells advance the execution count.
func (k *kernel) execute(r request) {
	var c executeRequest
	if !r.decode(&c) {
		return
	}
	store := !c.Silent && (c.StoreHistory == nil || *c.StoreHistory)
	stopOnError := c.StopOnError == nil || *c.StopOnError
	if store {
		k.execCount++
	}
	k.displays.executed(r.m)
	count := k.execCount
	if !c.Silent {
		r.publish("execute_input", map[string]any{"code": c.Code, "execution_count": count})
	}

	var sink display.Sink = discardSink{}
	var out *iopubSink
	if !c.Silent {
		// A client that cannot answer input is a headless runner
		// (nbclient, so nbconvert and papermill): nobody watches its
		// displays change. Notebook front ends allow stdin.
		out = &iopubSink{r: r, headless: c.AllowStdin != nil && !*c.AllowStdin, stdin: c.AllowStdin != nil && *c.AllowStdin}
		sink = out
	}
	result, err := k.run(c.Code, sink)
	if out != nil {
		out.flush()
	}

	if err != nil {
		e := asDisplayError(err)
		if !c.Silent {
			r.publish("error", errorContent{EName: e.Name, EValue: e.Value, Traceback: e.Traceback})
		}
		if store {
			k.history.add(count, c.Code, nil)
		}
		if stopOnError {
			// Counted before the reply goes out, so only requests sent
			// before the client could know of the failure are aborted.
			k.abortCount = len(k.shellQ)
		}
		r.reply(struct {
			errorContent
			ExecutionCount  int            `json:"execution_count"`
			UserExpressions map[string]any `json:"user_expressions"`
			Payload         []any          `json:"payload"`
		}{errorContent{"error", e.Name, e.Value, e.Traceback}, count, map[string]any{}, []any{}})
		return
	}

	var text *string
	if result != nil {
		data := k.wireBundle(result)
		if !c.Silent {
			r.publish("execute_result", map[string]any{"execution_count": count, "data": data, "metadata": map[string]any{}})
		}
		if t, ok := data[display.TextPlain].(string); ok {
			text = &t
		}
	}
	if store {
		k.history.add(count, c.Code, text)
	}
	r.reply(map[string]any{
		"status": "ok", "execution_count": count, "payload": []any{},
		"user_expressions": k.userExpressions(c.UserExpressions),
	})
}

// run executes code, marking the kernel busy so shutdown can interrupt it.
func (k *kernel) run(code string, sink display.Sink) (result display.Bundle, err error) {
	k.running.Store(true)
	defer k.running.Store(false)
	if gerr := k.guard("execute", func() { result, err = k.interp.Execute(k.cellCtx, code, sink) }); gerr != nil {
		return nil, &display.Error{Name: "InternalError", Value: gerr.Error()}
	}
	return result, err
}

// userExpressions evaluates each expression after a successful cell, in key
// order, reporting each result or error separately.
func (k *kernel) userExpressions(exprs map[string]string) map[string]any {
	out := map[string]any{}
	keys := make([]string, 0, len(exprs))
	for key := range exprs {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		b, err := k.run(exprs[key], discardSink{})
		if err != nil {
			e := asDisplayError(err)
			out[key] = errorContent{"error", e.Name, e.Value, e.Traceback}
			continue
		}
		data := map[string]any{}
		if b != nil {
			data = k.wireBundle(b)
		}
		out[key] = map[string]any{"status": "ok", "data": data, "metadata": map[string]any{}}
	}
	return out
}

// asDisplayError gives any error the ename/evalue/traceback shape, with a
// non-empty traceback (classic Notebook shows only the traceback).
func asDisplayError(err error) *display.Error {
	var de *display.Error
	e := &display.Error{}
	switch {
	case errors.As(err, &de):
		*e = *de
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		e.Name, e.Value = "Canceled", err.Error()
	default:
		e.Name, e.Value = "Error", err.Error()
	}
	if e.Name == "" {
		e.Name = "Error"
	}
	if len(e.Traceback) == 0 {
		e.Traceback = []string{e.Error()}
	}
	return e
}

// wireBundle is WireBundle logging to the kernel's log.
func (k *kernel) wireBundle(b display.Bundle) map[string]any { return WireBundle(b, k.log.Printf) }

// WireBundle is b as it travels in messages and notebooks: raw image bytes
// become base64, other bytes text, and an entry that cannot be encoded as
// JSON is replaced by a note in text/plain (logged through logf).
func WireBundle(b display.Bundle, logf func(string, ...any)) map[string]any {
	out := make(map[string]any, len(b)+1)
	var broken []string
	for mime, v := range b {
		switch x := v.(type) {
		case string:
			out[mime] = x
		case []byte:
			if mime == display.PNG || strings.HasPrefix(mime, "image/") {
				out[mime] = base64.StdEncoding.EncodeToString(x)
			} else {
				out[mime] = string(x)
			}
		default:
			if _, err := json.Marshal(x); err != nil {
				logf("display: dropped %s entry: %v", mime, err)
				broken = append(broken, fmt.Sprintf("(%s unavailable: %v)", mime, err))
				continue
			}
			out[mime] = x
		}
	}
	if _, ok := out[display.TextPlain]; !ok || len(broken) > 0 {
		text, _ := out[display.TextPlain].(string)
		sort.Strings(broken)
		out[display.TextPlain] = strings.TrimPrefix(text+"\n"+strings.Join(broken, "\n"), "\n")
	}
	return out
}

type discardSink struct{}

func (discardSink) Stream(string, string)                {}
func (discardSink) Display(display.Bundle, string, bool) {}
func (discardSink) Clear(bool)                           {}

// Headless: a silent cell's displays are never seen.
func (discardSink) Headless() bool { return true }

// iopubSink publishes a cell's output with the execute request as parent.
// Cells may write from several goroutines, so it locks; consecutive writes to
// one stream are batched for up to streamFlushDelay.
type iopubSink struct {
	r        request
	headless bool
	stdin    bool // the client allows input requests (input.go)
	mu       sync.Mutex
	name     string
	buf      strings.Builder
	timer    *time.Timer
}

func (s *iopubSink) Stream(name, text string) {
	if name != "stderr" {
		name = "stdout"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if name != s.name {
		s.flushLocked()
		s.name = name
	}
	s.buf.WriteString(text)
	switch {
	case s.buf.Len() >= streamFlushSize:
		s.flushLocked()
	case s.timer == nil:
		s.timer = time.AfterFunc(streamFlushDelay, s.flush)
	}
}

// Headless says whether the client watches displays change (see execute).
func (s *iopubSink) Headless() bool { return s.headless }

func (s *iopubSink) Display(b display.Bundle, id string, update bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	msgType, content := s.r.k.displayMessage(b, id, update)
	if id != "" && !update {
		s.r.k.displays.shown(id, s.r.m)
	}
	s.r.publish(msgType, content)
}

func (s *iopubSink) Clear(wait bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	s.r.publish("clear_output", map[string]bool{"wait": wait})
}

func (s *iopubSink) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
}

func (s *iopubSink) flushLocked() {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if s.buf.Len() == 0 {
		return
	}
	s.r.publish("stream", map[string]string{"name": s.name, "text": s.buf.String()})
	s.buf.Reset()
}
