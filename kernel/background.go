package kernel

import (
	"sync"

	"github.com/routelab/routelab/display"
)

// Output a session makes outside any running cell — a live view updating
// between cells — goes out on iopub like a cell's, with a parent front ends
// route it by: the execute request whose cell created the display it
// updates, else the most recent execute request (as ipykernel does for
// output of background threads).

// maxDisplayParents bounds the display ids remembered; a display older than
// that many others updates under the most recent request instead.
const maxDisplayParents = 1024

// displayParents remembers which execute request showed each display id,
// and the most recent execute request.
type displayParents struct {
	mu    sync.Mutex
	byID  map[string]*message
	order []string // ids, oldest first
	last  *message
}

// executed records an execute request as the most recent.
func (d *displayParents) executed(m *message) {
	d.mu.Lock()
	d.last = m
	d.mu.Unlock()
}

// shown records that m's cell showed a display under id.
func (d *displayParents) shown(id string, m *message) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.byID == nil {
		d.byID = map[string]*message{}
	}
	if _, ok := d.byID[id]; !ok {
		d.order = append(d.order, id)
	}
	d.byID[id] = m
	if len(d.order) > maxDisplayParents {
		delete(d.byID, d.order[0])
		d.order = d.order[1:]
	}
}

// parent is the request to publish output for display id under.
func (d *displayParents) parent(id string) *message {
	d.mu.Lock()
	defer d.mu.Unlock()
	if m, ok := d.byID[id]; ok {
		return m
	}
	return d.last
}

// backgroundSink publishes a session's output outside any running cell.
type backgroundSink struct{ k *kernel }

func (b backgroundSink) Stream(name, text string) {
	if name != "stderr" {
		name = "stdout"
	}
	b.k.publish(b.k.displays.parent(""), "stream", map[string]string{"name": name, "text": text})
}

func (b backgroundSink) Display(bundle display.Bundle, id string, update bool) {
	msgType, content := b.k.displayMessage(bundle, id, update)
	b.k.publish(b.k.displays.parent(id), msgType, content)
}

// Clear is dropped: outside a cell there is no output to clear, and
// clearing whichever cell ran last would lose what it showed.
func (b backgroundSink) Clear(bool) {
	b.k.log.Printf("dropped a clear_output the session sent outside any cell")
}

// Headless is false: a kernel's front end renders updates.
func (backgroundSink) Headless() bool { return false }

// displayMessage is the iopub message that shows b: display_data, or
// update_display_data when it replaces the display shown under id.
func (k *kernel) displayMessage(b display.Bundle, id string, update bool) (string, map[string]any) {
	content := map[string]any{"data": k.wireBundle(b), "metadata": map[string]any{}}
	msgType := "display_data"
	if id != "" {
		content["transient"] = map[string]any{"display_id": id}
		if update {
			msgType = "update_display_data"
		}
	}
	return msgType, content
}
