package lab

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/routelab/routelab/display"
)

// Jupyter widgets speak the widget protocol 2.1 of ipywidgets 8: every
// widget is a model on a comm of target "jupyter.widget", its state synced
// both ways, shown by a display of WidgetViewMIME naming the model.
const (
	widgetTarget      = "jupyter.widget"
	widgetProtocol    = "2.1.0"
	controlsModule    = "@jupyter-widgets/controls"
	baseModule        = "@jupyter-widgets/base"
	outputModule      = "@jupyter-widgets/output"
	widgetsVersion    = "2.0.0" // of the base and controls modules
	outputVersion     = "1.0.0"
	widgetModelPrefix = "IPY_MODEL_" // how one model's state refers to another
)

// Widgets is a session's Jupyter widgets: it opens their comms to the
// front end, applies what the front end sends, and runs the callbacks a
// change calls — one at a time, serialised with the session's cells.
// Without a front end (a plain Go program, a script) widgets keep the
// values they were made with. NewWidgets makes one; a session owns it.
type Widgets struct {
	host WidgetHost

	mu     sync.Mutex
	next   int
	models map[string]*model
	// work queued by the front end's messages, run in order by one
	// goroutine; work under a key already queued replaces it (the latest
	// value wins over values nobody saw).
	queue   []string
	pending map[string]func(ctx context.Context)
	running bool
	warned  map[string]bool
}

// WidgetHost is what a session gives its widgets.
type WidgetHost struct {
	// Life ends when the session closes.
	Life context.Context
	// Comms returns where the session's comm messages go at the moment:
	// the running cell's output, or its output between cells; nil when
	// there is no front end.
	Comms func() display.Comms
	// Aside runs a callback as a cell would be run — after the running
	// cell, with ctx as the session's context and output to sink (nil: the
	// session's output between cells), a panic of f its error — so that
	// callbacks never run at the same time as a cell.
	Aside func(ctx context.Context, sink display.Sink, f func()) error
	// Output, when set, returns a sink whose streams show in the cell that
	// made widget id: its callbacks' output and the warnings about it.
	Output func(id string) display.Sink
	// Warn reports what concerns no widget of the session (a message for
	// an unknown comm).
	Warn func(msg string)
}

// NewWidgets makes a session's widget hub.
func NewWidgets(h WidgetHost) *Widgets {
	if h.Life == nil {
		h.Life = context.Background()
	}
	return &Widgets{host: h, models: map[string]*model{}, pending: map[string]func(context.Context){}, warned: map[string]bool{}}
}

// String says how many widgets are open.
func (w *Widgets) String() string {
	if w == nil {
		return "lab.Widgets (none)"
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return fmt.Sprintf("lab.Widgets (%d models open)", len(w.models))
}

// model is one widget model on its comm.
type model struct {
	w      *Widgets
	id     string
	opened bool // its comm reached a front end

	mu    sync.Mutex
	state map[string]any
	// onMsg applies a message from the front end (nil: none expected).
	onMsg func(data map[string]any)
}

// newModel opens a model with the given state (the module and version keys
// are the caller's) and returns it. With no front end it is only local.
func (w *Widgets) newModel(state map[string]any) *model {
	if w == nil {
		return &model{state: state}
	}
	w.mu.Lock()
	w.next++
	m := &model{w: w, id: fmt.Sprintf("routelab-%d", w.next), state: state}
	w.models[m.id] = m
	w.mu.Unlock()
	if c := w.channel(); c != nil {
		m.opened = true
		c.CommOpen(m.id, widgetTarget, map[string]any{"state": copyState(state), "buffer_paths": []any{}},
			map[string]any{"version": widgetProtocol})
	}
	return m
}

func (w *Widgets) channel() display.Comms {
	if w == nil || w.host.Comms == nil {
		return nil
	}
	return w.host.Comms()
}

// output is the sink of the cell that made widget id, nil for the
// session's output between cells.
func (w *Widgets) output(id string) display.Sink {
	if w.host.Output == nil || id == "" {
		return nil
	}
	return w.host.Output(id)
}

// ref is how other models' state names this one.
func (m *model) ref() string { return widgetModelPrefix + m.id }

// set changes keys of the state and sends them to the front end.
func (m *model) set(kv map[string]any) {
	m.mu.Lock()
	for k, v := range kv {
		m.state[k] = v
	}
	m.mu.Unlock()
	m.send("update", kv)
}

// send sends {method, state} on the model's comm.
func (m *model) send(method string, state map[string]any) {
	if !m.opened {
		return
	}
	if c := m.w.channel(); c != nil {
		c.CommMsg(m.id, map[string]any{"method": method, "state": copyState(state), "buffer_paths": []any{}}, nil)
	}
}

func (m *model) get(key string) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[key]
}

// view is the display bundle of the model, with text for front ends that
// do not render widgets.
func (m *model) view(text string) display.Bundle {
	b := display.Bundle{display.TextPlain: text}
	if m.opened {
		b[display.WidgetViewMIME] = map[string]any{"version_major": 2, "version_minor": 0, "model_id": m.id}
	}
	return b
}

// close closes the model's comm.
func (m *model) close() {
	if m.w == nil {
		return
	}
	m.w.mu.Lock()
	_, open := m.w.models[m.id]
	delete(m.w.models, m.id)
	m.w.mu.Unlock()
	if open && m.opened {
		if c := m.w.channel(); c != nil {
			c.CommClose(m.id, nil)
		}
	}
}

func copyState(s map[string]any) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}

// The front end's side (a session's Commer forwards here).

// CommOpen refuses every comm the front end opens: routelab's widgets are
// all made by cells.
func (w *Widgets) CommOpen(id, target string, data map[string]any) bool { return false }

// CommMsg applies a front end's message to the widget on comm id:
// request_state is answered with the whole state; update and custom go to
// the widget.
func (w *Widgets) CommMsg(id string, data map[string]any) {
	w.mu.Lock()
	m := w.models[id]
	w.mu.Unlock()
	if m == nil {
		w.warnOnce("", "unknown", fmt.Sprintf("a widget message for comm %q, which is no widget of this session, was ignored", id))
		return
	}
	switch data["method"] {
	case "request_state":
		m.mu.Lock()
		state := copyState(m.state)
		m.mu.Unlock()
		m.send("update", state)
	case "update", "custom":
		if m.onMsg != nil {
			m.onMsg(data)
		}
	default:
		w.warnOnce(id, id+"/method", fmt.Sprintf("a widget message with method %v was ignored (known: update, request_state, custom)", data["method"]))
	}
}

// CommClose forgets a widget the front end closed.
func (w *Widgets) CommClose(id string, _ map[string]any) {
	w.mu.Lock()
	delete(w.models, id)
	w.mu.Unlock()
}

// warnOnce reports msg once per kind: in the cell that made widget id, or,
// for no widget (id ""), through the session's Warn.
func (w *Widgets) warnOnce(id, kind, msg string) {
	w.mu.Lock()
	seen := w.warned[kind]
	w.warned[kind] = true
	w.mu.Unlock()
	switch {
	case seen:
	case w.output(id) != nil:
		w.output(id).Stream("stderr", "[routelab: "+msg+"]\n")
	case w.host.Warn != nil:
		w.host.Warn(msg)
	}
}

// later queues work a front end's message calls for: it runs after the
// work queued before it, through Aside (so after the running cell). Work
// queued under a key that is still waiting replaces the waiting one.
func (w *Widgets) later(key string, work func(ctx context.Context)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, waiting := w.pending[key]; !waiting {
		w.queue = append(w.queue, key)
	}
	w.pending[key] = work
	if !w.running {
		w.running = true
		go w.drain()
	}
}

// drain runs the queued work until none is left.
func (w *Widgets) drain() {
	for {
		w.mu.Lock()
		if len(w.queue) == 0 || w.host.Life.Err() != nil {
			w.queue, w.pending, w.running = nil, map[string]func(context.Context){}, false
			w.mu.Unlock()
			return
		}
		key := w.queue[0]
		w.queue = w.queue[1:]
		work := w.pending[key]
		delete(w.pending, key)
		w.mu.Unlock()
		work(w.host.Life)
	}
}

// idle reports whether no queued work waits or runs (for tests).
func (w *Widgets) idle() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.running
}

// open lists the ids of the open widget models, sorted (for tests).
func (w *Widgets) open() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Sorted(maps.Keys(w.models))
}
