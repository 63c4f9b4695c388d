package kernel

import (
	"encoding/json"
	"maps"
	"slices"
	"sync"
)

// Comms are Jupyter's two-way channels between a session's objects and the
// front end (widgets are their main use). The session opens, messages and
// closes its side through its sinks (display.Comms, implemented by the
// cell's iopubSink and by backgroundSink); the front end's side arrives on
// shell as comm_open, comm_msg and comm_close and goes to the interpreter
// when it is a Commer. The registry of open comms answers comm_info and
// gives a comm's later messages the parent of the request whose cell opened
// it.

// commRegistry is the set of open comms, whichever side opened them.
type commRegistry struct {
	mu   sync.Mutex
	open map[string]commEntry
}

type commEntry struct {
	target string
	parent *message // the request under which the comm was opened
}

func (c *commRegistry) add(id, target string, parent *message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open == nil {
		c.open = map[string]commEntry{}
	}
	c.open[id] = commEntry{target, parent}
}

// remove forgets comm id, reporting whether it was open.
func (c *commRegistry) remove(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.open[id]
	delete(c.open, id)
	return ok
}

func (c *commRegistry) lookup(id string) (commEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.open[id]
	return e, ok
}

// info is comm_info_reply's comms: every open comm, or those of one target.
func (c *commRegistry) info(target string) map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]any{}
	for _, id := range slices.Sorted(maps.Keys(c.open)) {
		if e := c.open[id]; target == "" || e.target == target {
			out[id] = map[string]string{"target_name": e.target}
		}
	}
	return out
}

// The session's side, published on iopub.

func (k *kernel) commOpened(parent *message, id, target string, data, metadata map[string]any) {
	k.comms.add(id, target, parent)
	k.publishWithMetadata(parent, "comm_open", orEmptyMap(metadata),
		map[string]any{"comm_id": id, "target_name": target, "data": orEmptyMap(data)})
}

func (k *kernel) commMessage(parent *message, id string, data, metadata map[string]any) {
	if _, ok := k.comms.lookup(id); !ok {
		k.log.Printf("dropped a comm_msg the session sent on comm %q, which is not open", id)
		return
	}
	k.publishWithMetadata(parent, "comm_msg", orEmptyMap(metadata),
		map[string]any{"comm_id": id, "data": orEmptyMap(data)})
}

func (k *kernel) commClosed(parent *message, id string, data map[string]any) {
	if !k.comms.remove(id) {
		k.log.Printf("dropped a comm_close the session sent on comm %q, which is not open", id)
		return
	}
	k.publish(parent, "comm_close", map[string]any{"comm_id": id, "data": orEmptyMap(data)})
}

func orEmptyList(v any) any {
	if v == nil {
		return []any{}
	}
	return v
}

func orEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// A cell's comm messages go out under its execute request, in order with
// its other output.

func (s *iopubSink) CommOpen(id, target string, data, metadata map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	s.r.k.commOpened(s.r.m, id, target, data, metadata)
}

func (s *iopubSink) CommMsg(id string, data, metadata map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	s.r.k.commMessage(s.r.m, id, data, metadata)
}

func (s *iopubSink) CommClose(id string, data map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	s.r.k.commClosed(s.r.m, id, data)
}

// Outside a cell, a comm's messages go under the request that opened it.

func (b backgroundSink) CommOpen(id, target string, data, metadata map[string]any) {
	b.k.commOpened(b.k.displays.parent(""), id, target, data, metadata)
}

func (b backgroundSink) CommMsg(id string, data, metadata map[string]any) {
	b.k.commMessage(b.k.commParent(id), id, data, metadata)
}

func (b backgroundSink) CommClose(id string, data map[string]any) {
	b.k.commClosed(b.k.commParent(id), id, data)
}

// CommStream writes a stream under the request that opened comm id, so
// front ends show it in that cell.
func (b backgroundSink) CommStream(id, name, text string) {
	if name != "stderr" {
		name = "stdout"
	}
	b.k.publish(b.k.commParent(id), "stream", map[string]string{"name": name, "text": text})
}

func (k *kernel) commParent(id string) *message {
	if e, ok := k.comms.lookup(id); ok && e.parent != nil {
		return e.parent
	}
	return k.displays.parent("")
}

// The front end's side, from shell.

type commContent struct {
	CommID     string         `json:"comm_id"`
	TargetName string         `json:"target_name"`
	Data       map[string]any `json:"data"`
}

// decodeComm reads a comm message's content; a message without a comm_id
// is logged and dropped (there is nothing to reply to).
func (k *kernel) decodeComm(r request) (commContent, bool) {
	var c commContent
	if err := json.Unmarshal(r.m.content, &c); err != nil || c.CommID == "" {
		k.log.Printf("shell: %s without a comm_id ignored", r.m.header.MsgType)
		return c, false
	}
	if c.Data == nil {
		c.Data = map[string]any{}
	}
	return c, true
}

// commOpen gives a comm the front end opens to the session; one it refuses
// (or a session without comms) is closed at once, as the protocol asks.
func (k *kernel) commOpen(r request) {
	c, ok := k.decodeComm(r)
	if !ok {
		return
	}
	var accepted bool
	if cm, ok := k.interp.(Commer); ok {
		if err := k.guard("comm_open", func() { accepted = cm.CommOpen(c.CommID, c.TargetName, c.Data) }); err != nil {
			accepted = false
		}
	}
	if !accepted {
		k.log.Printf("shell: no comm target %q; closing comm %s", c.TargetName, c.CommID)
		r.publish("comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
		return
	}
	k.comms.add(c.CommID, c.TargetName, r.m)
}

func (k *kernel) commMsg(r request) {
	c, ok := k.decodeComm(r)
	if !ok {
		return
	}
	cm, isCommer := k.interp.(Commer)
	e, open := k.comms.lookup(c.CommID)
	if !open || !isCommer {
		k.log.Printf("shell: comm_msg for comm %q, which is not open, ignored", c.CommID)
		return
	}
	if e.target == widgetTarget && c.Data["method"] == "update" {
		// Widget protocol 2.1: every front end hears of an update at once,
		// under the message that made it, so the one that sent it knows
		// which of its changes the kernel has seen. A session that corrects
		// the value sends an update of its own.
		r.publish("comm_msg", map[string]any{"comm_id": c.CommID, "data": map[string]any{
			"method": "echo_update", "state": c.Data["state"], "buffer_paths": orEmptyList(c.Data["buffer_paths"])}})
	}
	k.guard("comm_msg", func() { cm.CommMsg(c.CommID, c.Data) })
}

func (k *kernel) commClose(r request) {
	c, ok := k.decodeComm(r)
	if !ok {
		return
	}
	cm, isCommer := k.interp.(Commer)
	if !k.comms.remove(c.CommID) || !isCommer {
		k.log.Printf("shell: comm_close for comm %q, which is not open, ignored", c.CommID)
		return
	}
	k.guard("comm_close", func() { cm.CommClose(c.CommID, c.Data) })
}
