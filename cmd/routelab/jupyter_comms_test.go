package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/routelab/routelab/internal/jupytertest"
)

// commStep is one iopub message kernel/testdata/jupyter/comms.py saw.
type commStep struct {
	Type     string         `json:"type"`
	Parent   string         `json:"parent"` // "self": the step's request; "cell": the cell that made the slider
	Content  map[string]any `json:"content"`
	Metadata map[string]any `json:"metadata"`
}

func (s commStep) data() map[string]any { d, _ := s.Content["data"].(map[string]any); return d }

// ofParent is the steps whose parent is parent.
func ofParent(steps []commStep, parent string) []commStep {
	var out []commStep
	for _, s := range steps {
		if s.Parent == parent {
			out = append(out, s)
		}
	}
	return out
}

// kinds lists the steps' messages as "type/parent", widget comm_msgs with
// their method, streams with their text.
func kinds(steps []commStep) string {
	var out []string
	for _, s := range steps {
		k := s.Type + "/" + s.Parent
		switch s.Type {
		case "status":
			k = fmt.Sprintf("%s:%v/%s", s.Type, s.Content["execution_state"], s.Parent)
		case "comm_msg":
			k += fmt.Sprintf(":%v", s.data()["method"])
		case "stream":
			k += fmt.Sprintf(":%q", s.Content["text"])
		}
		out = append(out, k)
	}
	return strings.Join(out, " ")
}

// TestWidgetCommsThroughJupyterClient speaks the widget protocol to the
// real kernel with jupyter_client: the slider's comms open with its cell
// (layout, style, then the slider, protocol version in the metadata),
// comm_info lists them, a move from the client is echoed under the
// client's message and its callback prints in the slider's cell, a value
// the slider cannot take is refused with one warning in that cell and the
// value re-sent, a message for an unknown comm changes nothing, a cell's
// Set goes out as an update, and Close closes the comm.
func TestWidgetCommsThroughJupyterClient(t *testing.T) {
	py := jupytertest.PythonWith(t, "jupyter_client")
	j := installKernel(t)
	raw := j.python(t, py, "comms.py", "routelab")
	var got struct {
		Make, Move, Set, Value, Close []commStep
		BadValue                      []commStep     `json:"bad_value"`
		UnknownComm                   []commStep     `json:"unknown_comm"`
		ModelID                       string         `json:"model_id"`
		InfoBefore                    map[string]any `json:"info_before"`
		InfoAfter                     map[string]any `json:"info_after"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	var opened []string
	for _, s := range got.Make {
		if s.Type == "comm_open" {
			state := s.data()["state"].(map[string]any)
			opened = append(opened, fmt.Sprint(state["_model_name"]))
			if s.Content["target_name"] != "jupyter.widget" || s.Metadata["version"] != "2.1.0" {
				t.Errorf("comm_open %v (metadata %v)", s.Content, s.Metadata)
			}
		}
	}
	if strings.Join(opened, " ") != "LayoutModel SliderStyleModel FloatSliderModel" || got.ModelID == "" {
		t.Fatalf("the slider's cell opened %v, model %q:\n%s", opened, got.ModelID, kinds(got.Make))
	}
	comms, _ := got.InfoBefore["comms"].(map[string]any)
	if len(comms) != 3 || comms[got.ModelID] == nil {
		t.Errorf("comm_info before: %v", got.InfoBefore)
	}
	// The request's own messages are in order; the session's answers,
	// from outside any cell, may come before or after its idle.
	if k := kinds(got.Move); kinds(ofParent(got.Move, "self")) != "status:busy/self comm_msg/self:echo_update status:idle/self" ||
		!strings.Contains(k, `comm_msg/cell:update`) || !strings.Contains(k, `stream/cell:"rate now 210\n"`) {
		t.Errorf("moving the slider to 205 (step 10):\n%s", k)
	}
	if k := kinds(got.BadValue); !strings.Contains(k, "comm_msg/cell:update") || !strings.Contains(k, "cannot take") ||
		strings.Count(k, "stream/") != 1 {
		t.Errorf("a value the slider cannot take:\n%s", k)
	}
	if k := kinds(got.UnknownComm); k != "status:busy/self status:idle/self" {
		t.Errorf("a message for an unknown comm:\n%s", k)
	}
	if k := kinds(got.Set); !strings.Contains(k, "comm_msg/self:update") || !strings.Contains(k, `stream/self:"rate now 300\n"`) {
		t.Errorf("rate.Set(300):\n%s", k)
	}
	for _, s := range got.Value {
		if s.Type == "execute_result" && s.data()["text/plain"] != "300" {
			t.Errorf("rate.Value() after Set(300) = %v", s.data()["text/plain"])
		}
	}
	closed := 0
	for _, s := range got.Close {
		if s.Type == "comm_close" && s.Content["comm_id"] == got.ModelID {
			closed++
		}
	}
	if closed != 1 {
		t.Errorf("rate.Close():\n%s", kinds(got.Close))
	}
	if comms, _ := got.InfoAfter["comms"].(map[string]any); len(comms) != 2 || comms[got.ModelID] != nil {
		t.Errorf("comm_info after Close: %v", got.InfoAfter)
	}
}
