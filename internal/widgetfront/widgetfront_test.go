package widgetfront

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/routelab/routelab/internal/jupytertest"
)

// helpers is the first cell: widget models opened by hand over comms, as
// widget protocol 2.1 says, with no ipywidgets in the kernel.
const helpers = `
import json, sys
from ipykernel.comm import Comm
from IPython.display import HTML, display, update_display

def model(name, module, view, view_module, version="2.0.0", **state):
    state.update(_model_name=name, _model_module=module, _model_module_version=version,
                 _view_name=view, _view_module=view_module, _view_module_version=version)
    return Comm(target_name="jupyter.widget", data={"state": state, "buffer_paths": []},
                metadata={"version": "2.1.0"})

def layout():
    return model("LayoutModel", "@jupyter-widgets/base", "LayoutView", "@jupyter-widgets/base")

def style(name, **state):
    return model(name, "@jupyter-widgets/controls", "StyleView", "@jupyter-widgets/base", **state)

def ref(comm):
    return "IPY_MODEL_" + comm.comm_id

def show(comm):
    display({"application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
             "model_id": comm.comm_id}, "text/plain": "a widget"}, raw=True)
`

const sliderCell = `
slider = model("IntSliderModel", "@jupyter-widgets/controls", "IntSliderView", "@jupyter-widgets/controls",
               value=5, min=0, max=10, step=1, description="n", layout=ref(layout()),
               style=ref(style("SliderStyleModel", description_width="")), orientation="horizontal",
               readout=True, readout_format="d", continuous_update=True, disabled=False, behavior="drag-tap")
values = []
def on_slider(msg):
    data = msg["content"]["data"]
    if data["method"] == "update" and "value" in data["state"]:
        values.append(data["state"]["value"])
        print("slider value", data["state"]["value"])
slider.on_msg(on_slider)
show(slider)
`

const buttonCell = `
button = model("ButtonModel", "@jupyter-widgets/controls", "ButtonView", "@jupyter-widgets/controls",
               description="Press", layout=ref(layout()), style=ref(style("ButtonStyleModel")),
               button_style="", icon="", tooltip=None, disabled=False)
clicks = []
def on_button(msg):
    clicks.append(msg["content"]["data"])
    print("clicked")
button.on_msg(on_button)
show(button)
`

// galleryCell shows the other widgets routelab offers, and an Output
// widget that captures what its cell prints while its msg_id names the
// cell's request.
const galleryCell = `
controls = "@jupyter-widgets/controls"
def control(name, **state):
    return model(name + "Model", controls, name + "View", controls, layout=ref(layout()), **state)
show(control("FloatSlider", value=2.5, min=0.0, max=10.0, step=0.1, description="x", orientation="horizontal",
             readout=True, readout_format=".2f", continuous_update=True, disabled=False, behavior="drag-tap",
             style=ref(style("SliderStyleModel", description_width=""))))
show(control("Dropdown", _options_labels=["a", "b", "c"], index=1, description="pick", disabled=False,
             style=ref(style("DescriptionStyleModel", description_width=""))))
show(control("ToggleButton", value=True, description="on", tooltip="", icon="", button_style="", disabled=False,
             style=ref(style("ToggleButtonStyleModel"))))
show(control("Text", value="hi", placeholder="type", description="t", continuous_update=True, disabled=False,
             style=ref(style("TextStyleModel", description_width=""))))
out = model("OutputModel", "@jupyter-widgets/output", "OutputView", "@jupyter-widgets/output", version="1.0.0",
            layout=ref(layout()), outputs=[], msg_id="")
show(out)
def capture(msg_id):
    sys.stdout.flush()  # what was printed so far goes before the switch, as ipywidgets does
    out.send({"method": "update", "state": {"msg_id": msg_id}, "buffer_paths": []})
capture(get_ipython().kernel.get_parent()["header"]["msg_id"])
print("captured")
capture("")
print("not captured")
`

// A page with the Python kernel: an IntSlider moved with the keyboard and a
// Button clicked reach the kernel's comm handlers, whose output lands in the
// widget's cell; a display updated by display id changes in place, in every
// cell that shows it, running the new HTML's script.
func TestWidgetsWithPythonKernel(t *testing.T) {
	py := jupytertest.PythonWith(t, "ipykernel")
	specs := t.TempDir()
	writeKernelspec(t, specs, py)
	f := Start(t, Options{KernelName: "python3", Env: []string{"JUPYTER_PATH=" + specs}})
	shots := []string{t.TempDir()}
	if dir := os.Getenv("ROUTELAB_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		shots = append(shots, dir)
	}
	screenshot := func(name string) {
		for _, dir := range shots {
			f.Screenshot(filepath.Join(dir, "widgetfront-"+name+".png"))
		}
	}
	defer func() {
		if t.Failed() {
			screenshot("failed")
		}
	}()

	if got := f.Run(helpers); got != "ok" {
		t.Fatalf("helpers cell: %s\n%s", got, f.Text(".cell[data-index='0']"))
	}

	// Slider: controls 5.0 draws it with noUiSlider, whose handle takes
	// arrow keys once focused.
	if got := f.Run(sliderCell); got != "ok" {
		t.Fatalf("slider cell: %s\n%s", got, f.Text(".cell[data-index='1']"))
	}
	const slider = ".cell[data-index='1'] .widget-slider"
	f.Wait(slider+" .noUi-handle", 10*time.Second)
	if got := f.Text(slider + " .widget-readout"); strings.TrimSpace(got) != "5" {
		t.Errorf("slider readout %q, want 5", got)
	}
	screenshot("slider")
	f.Do(chromedp.Focus(slider+" .noUi-handle", chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight))
	f.Idle()
	if got := f.Text(slider + " .widget-readout"); strings.TrimSpace(got) != "6" {
		t.Errorf("slider readout after ArrowRight %q, want 6", got)
	}
	if got := f.Text(".cell[data-index='1'] pre.stream"); got != "slider value 6\n" {
		t.Errorf("the slider's cell shows %q, want the kernel's print of the new value", got)
	}
	screenshot("slider-moved")

	// Button: a click is a custom message.
	if got := f.Run(buttonCell); got != "ok" {
		t.Fatalf("button cell: %s\n%s", got, f.Text(".cell[data-index='2']"))
	}
	f.Wait(".cell[data-index='2'] button.widget-button", 10*time.Second)
	f.Do(chromedp.Click(".cell[data-index='2'] button.widget-button", chromedp.ByQuery))
	f.Idle()
	f.Run(`print(values, json.dumps(clicks))`)
	if got, want := f.Text(".cell[data-index='3']"), `[6] [{"method": "custom", "content": {"event": "click"}}]`+"\n"; got != want {
		t.Errorf("the kernel received %q, want %q", got, want)
	}

	// Display ids: two cells show d1, a third updates it.
	f.Run(`print("before"); display(HTML("<b>one</b>"), display_id="d1"); print("after")`)
	f.Run(`display(HTML("<b>one</b>"), display_id="d1");`)
	f.Run(`update_display(HTML("<b>two</b><script>document.currentScript.parentElement.dataset.ran = 'yes'</script>"), display_id="d1")`)
	var shown []string
	f.Eval(`Array.from(document.querySelectorAll("[data-display-id='d1']"), e => e.closest(".cell").dataset.index + ":" + e.querySelector("b").textContent + ":" + e.dataset.ran)`, &shown)
	if want := []string{"4:two:yes", "5:two:yes"}; strings.Join(shown, " ") != strings.Join(want, " ") {
		t.Errorf("display d1 after its update: %q, want %q", shown, want)
	}
	var order []string
	f.Eval(`Array.from(document.querySelector(".cell[data-index='4']").children, e => (e.querySelector("b") || e).textContent.trim())`, &order)
	if strings.Join(order, "|") != "before|two|after" {
		t.Errorf("cell 4's outputs %q: the update did not replace the display in place", order)
	}
	if got := f.Text(".cell[data-index='6']"); got != "" {
		t.Errorf("the updating cell shows %q, want nothing", got)
	}

	if got := f.Run(galleryCell); got != "ok" {
		t.Fatalf("gallery cell: %s\n%s", got, f.Text(".cell[data-index='7']"))
	}
	const gallery = ".cell[data-index='7'] "
	f.Wait(gallery+".jupyter-widgets.widget-output", 10*time.Second)
	var widgets map[string]string
	f.Eval(`(() => {
	  const c = document.querySelector(".cell[data-index='7']"), q = s => c.querySelector(s);
	  return {float: q(".widget-hslider .widget-readout").textContent.trim(),
	    dropdown: q(".widget-dropdown select").value, toggle: q("button.widget-toggle-button").className.includes("mod-active") + "",
	    text: q(".widget-text input").value, output: q(".jupyter-widgets.widget-output").textContent.trim(),
	    cell: Array.from(c.querySelectorAll(":scope > pre.stream"), e => e.textContent).join("")};
	})()`, &widgets)
	want := map[string]string{"float": "2.50", "dropdown": "b", "toggle": "true", "text": "hi", "output": "captured", "cell": "not captured\n"}
	for k, v := range want {
		if widgets[k] != v {
			t.Errorf("gallery %s: %q, want %q", k, widgets[k], v)
		}
	}
	screenshot("gallery")

	// An error reply, and its traceback shown.
	if got := f.Run("1/0"); got != "error" {
		t.Errorf("1/0: status %q, want error", got)
	}
	if got := f.Text(".cell[data-index='8'] pre.error"); !strings.Contains(got, "ZeroDivisionError") {
		t.Errorf("1/0 shows %q, want a ZeroDivisionError traceback", got)
	}
	screenshot("all")
}

// writeKernelspec installs a python3 kernelspec for ipykernel under dir (a
// JUPYTER_PATH entry): the test's environment hides the user's.
func writeKernelspec(t *testing.T, dir, py string) {
	t.Helper()
	spec := filepath.Join(dir, "kernels", "python3")
	if err := os.MkdirAll(spec, 0o755); err != nil {
		t.Fatal(err)
	}
	kernelJSON := `{"argv": ["` + py + `", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
 "display_name": "Python 3 (widgetfront test)", "language": "python"}`
	if err := os.WriteFile(filepath.Join(spec, "kernel.json"), []byte(kernelJSON), 0o644); err != nil {
		t.Fatal(err)
	}
}
