package kernel

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/routelab/routelab/display"
)

// request is one message being answered on the channel it came from.
type request struct {
	k  *kernel
	ch *channel
	m  *message
}

// withStatus publishes busy and idle around f, both with the request as
// parent, as clients expect for every request.
func (r request) withStatus(f func()) {
	r.k.publish(r.m, "status", statusContent{"busy"})
	defer r.k.publish(r.m, "status", statusContent{"idle"})
	f()
}

// reply answers on the request's channel with the matching *_reply type.
func (r request) reply(content any) {
	t := strings.TrimSuffix(r.m.header.MsgType, "_request") + "_reply"
	r.send(t, content)
}

func (r request) send(msgType string, content any) {
	frames, err := encode(r.k.sign, r.m.ids, r.k.id.header(msgType), r.m.rawHeader, nil, content)
	if err != nil {
		r.k.log.Printf("%s: cannot encode %s: %v", r.ch.name, msgType, err)
		return
	}
	if err := r.ch.send(frames); err != nil {
		r.k.log.Printf("%s: cannot send %s: %v", r.ch.name, msgType, err)
	}
}

func (r request) publish(msgType string, content any) { r.k.publish(r.m, msgType, content) }

// decode reads the request content; on failure it sends an error reply and
// returns false.
func (r request) decode(v any) bool {
	if err := json.Unmarshal(r.m.content, v); err != nil {
		r.k.log.Printf("%s: bad %s content: %v", r.ch.name, r.m.header.MsgType, err)
		r.reply(errorReply("BadRequest", fmt.Sprintf("%s content: %v", r.m.header.MsgType, err)))
		return false
	}
	return true
}

// errorContent is the error part of replies and the iopub error message.
type errorContent struct {
	Status    string   `json:"status,omitempty"`
	EName     string   `json:"ename"`
	EValue    string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

func errorReply(name, value string) errorContent {
	return errorContent{Status: "error", EName: name, EValue: value, Traceback: []string{name + ": " + value}}
}

// abortedReply answers an execute request aborted after an error: it ran
// nothing, so it carries no execution count (as ipykernel's).
type abortedReply struct {
	Status string `json:"status"`
}

// handleShell dispatches one shell request (shell worker goroutine only).
func (k *kernel) handleShell(m *message) {
	r := request{k: k, ch: k.shell, m: m}
	switch m.header.MsgType {
	case "execute_request":
		r.withStatus(func() { k.execute(r) })
	case "complete_request":
		r.withStatus(func() { k.complete(r) })
	case "inspect_request":
		r.withStatus(func() { k.inspect(r) })
	case "is_complete_request":
		r.withStatus(func() { k.isComplete(r) })
	case "history_request":
		r.withStatus(func() { k.historyRequest(r) })
	case "comm_open":
		r.withStatus(func() { k.commOpen(r) })
	case "comm_msg":
		r.withStatus(func() { k.commMsg(r) })
	case "comm_close":
		r.withStatus(func() { k.commClose(r) })
	default:
		k.common(r)
	}
}

// handleControl serves control requests on the control reader goroutine, so
// they are answered while a cell runs.
func (k *kernel) handleControl(c *channel, m *message) {
	r := request{k: k, ch: c, m: m}
	switch m.header.MsgType {
	case "interrupt_request":
		r.withStatus(func() {
			k.interp.Interrupt()
			r.reply(map[string]string{"status": "ok"})
		})
	default:
		k.common(r)
	}
}

// common handles requests that are valid on both shell and control.
func (k *kernel) common(r request) {
	switch r.m.header.MsgType {
	case "kernel_info_request":
		r.withStatus(func() { r.reply(k.info.reply()) })
	case "comm_info_request":
		r.withStatus(func() {
			var c struct {
				TargetName string `json:"target_name"`
			}
			if r.decode(&c) {
				r.reply(map[string]any{"status": "ok", "comms": k.comms.info(c.TargetName)})
			}
		})
	case "connect_request":
		r.withStatus(func() {
			c := k.conn
			r.reply(map[string]any{"status": "ok", "shell_port": c.ShellPort, "iopub_port": c.IOPubPort,
				"stdin_port": c.StdinPort, "hb_port": c.HBPort, "control_port": c.ControlPort})
		})
	case "shutdown_request":
		k.shutdownRequest(r)
	default:
		k.unknown(r)
	}
}

// unknown logs a message type this kernel does not handle and, for requests,
// sends the error reply the protocol expects.
func (k *kernel) unknown(r request) {
	t := r.m.header.MsgType
	if !strings.HasSuffix(t, "_request") {
		k.log.Printf("%s: ignored message of unknown type %q", r.ch.name, t)
		return
	}
	k.log.Printf("%s: unsupported request %q answered with an error", r.ch.name, t)
	r.withStatus(func() {
		r.reply(errorReply("UnsupportedRequest", fmt.Sprintf("the routelab kernel does not handle %s", t)))
	})
}

func (k *kernel) shutdownRequest(r request) {
	var c struct {
		Restart bool `json:"restart"`
	}
	r.withStatus(func() {
		if !r.decode(&c) {
			return
		}
		content := map[string]any{"status": "ok", "restart": c.Restart}
		r.reply(content)
		r.publish("shutdown_reply", content)
		k.shutdown()
	})
}

type codeRequest struct {
	Code      string `json:"code"`
	CursorPos *int   `json:"cursor_pos"`
}

// cursor converts the protocol's cursor (in Unicode code points, defaulting
// to the end) to a byte offset into code.
func (c codeRequest) cursor() int {
	if c.CursorPos == nil {
		return len(c.Code)
	}
	return byteOffset(c.Code, *c.CursorPos)
}

func byteOffset(s string, runes int) int {
	if runes <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == runes {
			return i
		}
		n++
	}
	return len(s)
}

func runeOffset(s string, bytes int) int {
	bytes = max(0, min(bytes, len(s)))
	return utf8.RuneCountInString(s[:bytes])
}

func (k *kernel) complete(r request) {
	var c codeRequest
	if !r.decode(&c) {
		return
	}
	var comp display.Completion
	if err := k.guard("complete", func() { comp = k.interp.Complete(c.Code, c.cursor()) }); err != nil {
		r.reply(errorReply("InternalError", err.Error()))
		return
	}
	matches := comp.Matches
	if matches == nil {
		matches = []string{}
	}
	start, end := comp.Start, comp.End
	if len(comp.Matches) == 0 || start < 0 || end < start || end > len(c.Code) {
		start, end = c.cursor(), c.cursor()
	}
	r.reply(map[string]any{
		"status": "ok", "matches": matches, "metadata": map[string]any{},
		"cursor_start": runeOffset(c.Code, start), "cursor_end": runeOffset(c.Code, end),
	})
}

func (k *kernel) inspect(r request) {
	var c codeRequest
	if !r.decode(&c) {
		return
	}
	var doc display.Bundle
	var found bool
	if err := k.guard("inspect", func() { doc, found = k.interp.Inspect(c.Code, c.cursor()) }); err != nil {
		r.reply(errorReply("InternalError", err.Error()))
		return
	}
	data := map[string]any{}
	if found {
		data = k.wireBundle(doc)
	}
	r.reply(map[string]any{"status": "ok", "found": found, "data": data, "metadata": map[string]any{}})
}

func (k *kernel) isComplete(r request) {
	var c codeRequest
	if !r.decode(&c) {
		return
	}
	var status, indent string
	if err := k.guard("is_complete", func() { status, indent = k.interp.IsComplete(c.Code) }); err != nil {
		status = "unknown"
	}
	switch status {
	case "incomplete":
		r.reply(map[string]string{"status": status, "indent": indent})
	case "complete", "invalid":
		r.reply(map[string]string{"status": status})
	default:
		r.reply(map[string]string{"status": "unknown"})
	}
}

// guard runs an interpreter call, turning a panic into an error so a bug in
// the session never takes the kernel down. The stack goes to the log.
func (k *kernel) guard(what string, f func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			k.log.Printf("%s panicked: %v\n%s", what, p, debug.Stack())
			err = fmt.Errorf("%s panicked: %v", what, p)
		}
	}()
	f()
	return nil
}
