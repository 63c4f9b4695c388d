package kernel

import (
	"encoding/json"
	"sync"

	"github.com/routelab/routelab/display"
)

// widgetTarget is the comm target of Jupyter widgets (protocol 2).
const widgetTarget = "jupyter.widget"

// widgetState is what a headless run keeps of the session's widgets: the
// state of every widget comm still open at the end, which the runner writes
// into the notebook's metadata (as nbclient does) so a front end that
// renders saved widget state shows them. There is no front end to talk to,
// so messages sent on other targets are dropped.
type widgetState struct {
	mu     sync.Mutex
	models map[string]map[string]any // comm id → the widget's state
}

func (w *widgetState) open(id, target string, data map[string]any) {
	if target != widgetTarget {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.models == nil {
		w.models = map[string]map[string]any{}
	}
	w.models[id] = map[string]any{}
	w.mergeLocked(id, data)
}

// update applies a message's {method: "update", state} to the widget's state.
func (w *widgetState) update(id string, data map[string]any) {
	if data["method"] != "update" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.mergeLocked(id, data)
}

func (w *widgetState) mergeLocked(id string, data map[string]any) {
	m, ok := w.models[id]
	if !ok {
		return
	}
	state, _ := data["state"].(map[string]any)
	for k, v := range state {
		m[k] = v
	}
}

func (w *widgetState) close(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.models, id)
}

// metadata is the notebook's metadata.widgets entry, nil without widgets.
func (w *widgetState) metadata() json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.models) == 0 {
		return nil
	}
	state := map[string]any{}
	for id, m := range w.models {
		state[id] = map[string]any{
			"model_name": m["_model_name"], "model_module": m["_model_module"],
			"model_module_version": m["_model_module_version"], "state": m,
		}
	}
	raw, err := json.Marshal(map[string]any{display.WidgetStateMIME: map[string]any{
		"version_major": 2, "version_minor": 0, "state": state,
	}})
	if err != nil {
		return nil
	}
	return raw
}

// A recorded cell's comms update the run's widget state.

func (r *recorder) CommOpen(id, target string, data, _ map[string]any) {
	r.widgets.open(id, target, data)
}

func (r *recorder) CommMsg(id string, data, _ map[string]any) { r.widgets.update(id, data) }

func (r *recorder) CommClose(id string, _ map[string]any) { r.widgets.close(id) }
