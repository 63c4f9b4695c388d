package symbols_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
)

// commSink is an idSink that also carries comms, as a kernel's sinks do.
type commSink struct {
	idSink
	cmu     sync.Mutex
	comms   []string
	state   map[string]map[string]any
	commOut map[string]string // streams of the cell that opened each comm
}

func (s *commSink) CommOpen(id, target string, data, _ map[string]any) {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	if s.state == nil {
		s.state = map[string]map[string]any{}
	}
	s.state[id] = data["state"].(map[string]any)
	s.comms = append(s.comms, "open "+id)
}

func (s *commSink) CommMsg(id string, data, _ map[string]any) {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	if s.state == nil {
		s.state = map[string]map[string]any{}
	}
	if s.state[id] == nil { // opened through the cell's sink
		s.state[id] = map[string]any{}
	}
	for k, v := range data["state"].(map[string]any) {
		s.state[id][k] = v
	}
	s.comms = append(s.comms, "msg "+id)
}

func (s *commSink) CommClose(id string, _ map[string]any) {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	s.comms = append(s.comms, "close "+id)
}

// CommStream records output of the cell that opened comm id.
func (s *commSink) CommStream(id, _, text string) {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	if s.commOut == nil {
		s.commOut = map[string]string{}
	}
	s.commOut[id] += text
}

func (s *commSink) commText(id string) string {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	return s.commOut[id]
}

func (s *commSink) get(id, key string) any {
	s.cmu.Lock()
	defer s.cmu.Unlock()
	return s.state[id][key]
}

func (s *commSink) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

func widgetSession(t *testing.T) (*dsl.Session, *commSink) {
	t.Helper()
	s, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	bg := &commSink{}
	s.SetBackgroundSink(bg)
	return s, bg
}

func modelID(t *testing.T, b display.Bundle) string {
	t.Helper()
	v, ok := b[display.WidgetViewMIME].(map[string]any)
	if !ok {
		t.Fatalf("not a widget view: %v", b)
	}
	return v["model_id"].(string)
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10s", what)
		}
	}
}

// TestWidgetsInCells: a slider made in a cell opens its comms in the
// cell's output and shows as a widget view; a change from the front end
// runs the cell's callback after the cells, its output shown in the
// slider's cell; later cells see the value.
func TestWidgetsInCells(t *testing.T) {
	s, bg := widgetSession(t)
	cell := &commSink{}
	sb, err := s.Execute(t.Context(), `rate := lab.Slider("rate", 50, 400, 10, 100)
var seen []float64
rate.OnChange(func(v float64) {
	seen = append(seen, v)
	fmt.Println("moved to", v)
})
rate`, cell)
	if err != nil {
		t.Fatal(err)
	}
	id := modelID(t, sb)
	if got := strings.Join(cell.comms, " "); strings.Count(got, "open ") != 3 || !strings.HasSuffix(got, "open "+id) {
		t.Errorf("the cell's comms: %s", got)
	}
	s.CommMsg(id, map[string]any{"method": "update", "state": map[string]any{"value": 205.0}, "buffer_paths": []any{}})
	eventually(t, "the callback's output", func() bool { return strings.Contains(bg.commText(id), "moved to 210") })
	// Snapped to the step: the corrected value went out between cells.
	if bg.get(id, "value") != 210.0 {
		t.Errorf("background state %v", bg.get(id, "value"))
	}
	got := run(t, s, &cell.idSink, `fmt.Sprint(seen, rate.Value())`)
	if got.Text() != `"[210] 210"` {
		t.Errorf("after the change a cell sees %s", got.Text())
	}
	// A callback that panics is reported and the session goes on.
	run(t, s, &cell.idSink, `rate.OnChange(func(float64) { panic("boom") })`)
	s.CommMsg(id, map[string]any{"method": "update", "state": map[string]any{"value": 300.0}})
	eventually(t, "the failed callback's warning", func() bool { return strings.Contains(bg.commText(id), "boom") })
	if strings.Contains(bg.text(), "boom") || strings.Contains(bg.text(), "moved to") {
		t.Errorf("a widget's output went to the latest cell instead of its own: %q", bg.text())
	}
	if got := run(t, s, &cell.idSink, `rate.Value()`); got.Text() != "300" {
		t.Errorf("value after a failing callback: %s", got.Text())
	}
}

// TestInteractInCells: lab.Interact's first result is computed in the
// cell; a move of its slider from the front end reruns the function —
// here a comparison — after the cells and replaces the Output widget's
// outputs with the new result.
func TestInteractInCells(t *testing.T) {
	s, bg := widgetSession(t)
	cell := &commSink{}
	b, err := s.Execute(t.Context(), `it := lab.Interact(func(rate float64, policy string) any {
	fmt.Println("rate", rate)
	c := lab.Compare(lab.Steady().Rate(rate).Seeds(1).Measure(2), lab.RoundRobin())
	return fmt.Sprintf("%s at %g: %g done", policy, rate, c.Summary("round-robin").MedianCompleted)
}, lab.Range("rate", 50, 400, 10).From(100.0), lab.Choice("policy", "round-robin", "adaptive"))
it`, cell)
	if err != nil {
		t.Fatal(err)
	}
	box := modelID(t, b)
	if !strings.Contains(b.Text(), "round-robin at 100") || !strings.Contains(cell.text(), "rate 100") {
		t.Fatalf("first result %q, printed %q", b.Text(), cell.text())
	}
	children := cell.get(box, "children").([]any)
	slider := strings.TrimPrefix(children[0].(string), "IPY_MODEL_")
	out := strings.TrimPrefix(children[2].(string), "IPY_MODEL_")
	s.CommMsg(slider, map[string]any{"method": "update", "state": map[string]any{"value": 200.0}})
	outputs := func() string {
		outs, _ := bg.get(out, "outputs").([]any)
		var text []string
		for _, o := range outs {
			m := o.(map[string]any)
			if m["output_type"] == "stream" {
				text = append(text, m["text"].(string))
			} else {
				text = append(text, m["data"].(map[string]any)["text/plain"].(string))
			}
		}
		return strings.Join(text, "")
	}
	eventually(t, "the rerun's output", func() bool { return strings.Contains(outputs(), "round-robin at 200") })
	if got := outputs(); !strings.HasPrefix(got, "rate 200\n") {
		t.Errorf("the rerun's Output widget shows %q", got)
	}
}
