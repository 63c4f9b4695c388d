package lab

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/routelab/routelab/display"
)

// control is what every control widget shares: its model, the function
// that reads a value the front end sent, and the callbacks a change calls.
type control struct {
	m    *model
	op   string // "lab.Slider", for messages
	desc string
	// accept turns the state the front end sent into the state to keep
	// (a slider's value snapped to its step and range); ok false when the
	// message carries no acceptable value.
	accept func(state map[string]any) (keep map[string]any, ok bool)
	text   func() string // the text/plain form

	mu        sync.Mutex
	listeners []func() // cell code: run through Aside
	// watchers are lab's own reactions to a change (an interaction's
	// rerun), called at once: they only queue work or cancel it, and must
	// not wait behind work in flight.
	watchers []func()
}

// domState is the state every control model starts from; its layout and
// style are models of their own, as in ipywidgets.
func (w *Widgets) domModel(modelName, viewName, styleName string, state map[string]any) *model {
	layout := w.newModel(map[string]any{
		"_model_name": "LayoutModel", "_model_module": baseModule, "_model_module_version": widgetsVersion,
		"_view_name": "LayoutView", "_view_module": baseModule, "_view_module_version": widgetsVersion, "_view_count": nil,
	})
	full := map[string]any{
		"_model_name": modelName, "_model_module": controlsModule, "_model_module_version": widgetsVersion,
		"_view_name": viewName, "_view_module": controlsModule, "_view_module_version": widgetsVersion,
		"_view_count": nil, "_dom_classes": []any{}, "layout": layout.ref(), "tabbable": nil, "tooltip": nil,
	}
	if styleName != "" {
		style := w.newModel(map[string]any{
			"_model_name": styleName, "_model_module": controlsModule, "_model_module_version": widgetsVersion,
			"_view_name": "StyleView", "_view_module": baseModule, "_view_module_version": widgetsVersion,
			"_view_count": nil, "description_width": "",
		})
		full["style"] = style.ref()
	}
	for k, v := range state {
		full[k] = v
	}
	return w.newModel(full)
}

func newControl(m *model, op, desc string) *control {
	c := &control{m: m, op: op, desc: desc}
	m.onMsg = c.received
	return c
}

// received applies an update from the front end (the kernel has echoed
// it, as protocol 2.1 asks): the accepted state is kept, sent back when it
// had to be corrected (a value off the slider's step), and the change
// callbacks are queued.
// A message without an acceptable value is ignored, and the current value
// sent back so the front end shows it again.
func (c *control) received(data map[string]any) {
	if data["method"] != "update" {
		return
	}
	state, _ := data["state"].(map[string]any)
	keep, ok := c.accept(state)
	if !ok {
		c.m.w.warnOnce(c.m.id, c.m.id+"/value", fmt.Sprintf("%s %q: ignored a value from the front end that it cannot take: %v", c.op, c.desc, state))
		c.m.send("update", c.current(state))
		return
	}
	c.m.mu.Lock()
	for k, v := range keep {
		c.m.state[k] = v
	}
	c.m.mu.Unlock()
	if !sameState(keep, state) {
		c.m.send("update", keep)
	}
	c.changed(false)
}

// current is the kept state of the keys a message named.
func (c *control) current(state map[string]any) map[string]any {
	c.m.mu.Lock()
	defer c.m.mu.Unlock()
	out := map[string]any{}
	for k := range state {
		if v, ok := c.m.state[k]; ok {
			out[k] = v
		}
	}
	return out
}

func sameState(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if fmt.Sprint(b[k]) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

// changed calls the change callbacks: at once when a cell set the value,
// else queued after the running cell (a front end's change).
func (c *control) changed(inline bool) {
	c.mu.Lock()
	ls := slices.Clone(c.listeners)
	ws := slices.Clone(c.watchers)
	c.mu.Unlock()
	for _, w := range ws {
		w()
	}
	if len(ls) == 0 {
		return
	}
	call := func() {
		for _, l := range ls {
			l()
		}
	}
	if inline || c.m.w == nil {
		call()
		return
	}
	c.m.w.later(c.m.id, func(ctx context.Context) { c.m.w.runAside(ctx, c.op, c.m.id, call) })
}

// runAside runs a callback of widget id through the session's Aside, its
// output shown in the widget's cell; a panic of the callback is reported
// there too, never lost and never fatal.
func (w *Widgets) runAside(ctx context.Context, op, id string, f func()) {
	if w.host.Aside == nil {
		f()
		return
	}
	if err := w.host.Aside(ctx, w.output(id), f); err != nil {
		msg := fmt.Sprintf("%s: a callback failed: %v", op, err)
		if out := w.output(id); out != nil {
			out.Stream("stderr", "[routelab: "+msg+"]\n")
		} else if w.host.Warn != nil {
			w.host.Warn(msg)
		}
	}
}

func (c *control) watch(f func()) {
	c.mu.Lock()
	c.watchers = append(c.watchers, f)
	c.mu.Unlock()
}

func (c *control) onChange(f func()) {
	c.mu.Lock()
	c.listeners = append(c.listeners, f)
	c.mu.Unlock()
}

// set changes the value from a cell: sent to the front end, then the
// callbacks run.
func (c *control) set(kv map[string]any) {
	c.m.set(kv)
	c.changed(true)
}

func (c *control) bundle() display.Bundle { return c.m.view(c.text()) }

// emptyWidget is the display of a widget value no constructor made.
func emptyWidget(kind, maker string) display.Bundle {
	return display.Bundle{display.TextPlain: fmt.Sprintf("lab.%s (empty: %s makes one)", kind, maker)}
}

// number reads a JSON number (front ends send numbers as float64).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, finite(x)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// snap puts x on the grid min + k·step within [min, max].
func snap(x, min, max, step float64) float64 {
	x = math.Max(min, math.Min(max, x))
	if step > 0 {
		x = min + math.Round((x-min)/step)*step
		x = math.Max(min, math.Min(max, x))
	}
	return x
}

// SliderWidget is a slider of float64 values, made by lab.Slider.
type SliderWidget struct {
	c              *control
	min, max, step float64
}

// Slider makes a slider from min to max in steps of step, starting at
// value. A cell reads it with Value, is told of changes with OnChange, and
// shows it by displaying it (or as the cell's value).
func (e *Env) Slider(desc string, min, max, step, value float64) *SliderWidget {
	const op = "lab.Slider"
	check(op, finite(min) && finite(max) && min < max, "max", max, fmt.Sprintf("a finite number above min (%g)", min))
	check(op, finite(step) && step > 0 && step <= max-min, "step", step, fmt.Sprintf("a number in (0, %g]", max-min))
	check(op, finite(value) && value >= min && value <= max, "value", value, fmt.Sprintf("a number in [%g, %g]", min, max))
	s := &SliderWidget{min: min, max: max, step: step}
	m := e.Widgets.domModel("FloatSliderModel", "FloatSliderView", "SliderStyleModel", map[string]any{
		"description": desc, "description_allow_html": false, "disabled": false, "min": min, "max": max, "step": step,
		"value": snap(value, min, max, step), "orientation": "horizontal", "readout": true, "readout_format": ".2f",
		"continuous_update": true, "behavior": "drag-tap",
	})
	s.c = newControl(m, op, desc)
	s.c.accept = func(st map[string]any) (map[string]any, bool) {
		x, ok := number(st["value"])
		if !ok || len(st) != 1 {
			return nil, false
		}
		return map[string]any{"value": snap(x, s.min, s.max, s.step)}, true
	}
	s.c.text = func() string { return fmt.Sprintf("Slider(%s = %g)", desc, s.Value()) }
	return s
}

// Value is the slider's value now.
func (s *SliderWidget) Value() float64 { x, _ := number(s.c.m.get("value")); return x }

// Set moves the slider (snapped to its step) and calls its callbacks.
func (s *SliderWidget) Set(v float64) {
	check("Slider.Set", finite(v) && v >= s.min && v <= s.max, "v", v, fmt.Sprintf("a number in [%g, %g]", s.min, s.max))
	s.c.set(map[string]any{"value": snap(v, s.min, s.max, s.step)})
}

// OnChange calls f with the new value after every change.
func (s *SliderWidget) OnChange(f func(float64)) {
	check("Slider.OnChange", f != nil, "f", word("nil"), "a function")
	s.c.onChange(func() { f(s.Value()) })
}

// Bundle shows the slider.
func (s *SliderWidget) Bundle() display.Bundle {
	if s.c == nil {
		return emptyWidget("SliderWidget", "lab.Slider")
	}
	return s.c.bundle()
}

// Close removes the slider from the front end.
func (s *SliderWidget) Close() { s.c.m.close() }

// IntSliderWidget is a slider of int values, made by lab.IntSlider.
type IntSliderWidget struct {
	c              *control
	min, max, step int
}

// IntSlider makes a slider of integers from min to max in steps of step,
// starting at value.
func (e *Env) IntSlider(desc string, min, max, step, value int) *IntSliderWidget {
	const op = "lab.IntSlider"
	check(op, min < max, "max", max, fmt.Sprintf("an integer above min (%d)", min))
	check(op, step > 0 && step <= max-min, "step", step, fmt.Sprintf("an integer in [1, %d]", max-min))
	check(op, value >= min && value <= max, "value", value, fmt.Sprintf("an integer in [%d, %d]", min, max))
	s := &IntSliderWidget{min: min, max: max, step: step}
	m := e.Widgets.domModel("IntSliderModel", "IntSliderView", "SliderStyleModel", map[string]any{
		"description": desc, "description_allow_html": false, "disabled": false, "min": min, "max": max, "step": step,
		"value": s.snap(float64(value)), "orientation": "horizontal", "readout": true, "readout_format": "d",
		"continuous_update": true, "behavior": "drag-tap",
	})
	s.c = newControl(m, op, desc)
	s.c.accept = func(st map[string]any) (map[string]any, bool) {
		x, ok := number(st["value"])
		if !ok || len(st) != 1 {
			return nil, false
		}
		return map[string]any{"value": s.snap(x)}, true
	}
	s.c.text = func() string { return fmt.Sprintf("IntSlider(%s = %d)", desc, s.Value()) }
	return s
}

func (s *IntSliderWidget) snap(x float64) int {
	return int(snap(x, float64(s.min), float64(s.max), float64(s.step)))
}

// Value is the slider's value now.
func (s *IntSliderWidget) Value() int { x, _ := number(s.c.m.get("value")); return int(x) }

// Set moves the slider (snapped to its step) and calls its callbacks.
func (s *IntSliderWidget) Set(v int) {
	check("IntSlider.Set", v >= s.min && v <= s.max, "v", v, fmt.Sprintf("an integer in [%d, %d]", s.min, s.max))
	s.c.set(map[string]any{"value": s.snap(float64(v))})
}

// OnChange calls f with the new value after every change.
func (s *IntSliderWidget) OnChange(f func(int)) {
	check("IntSlider.OnChange", f != nil, "f", word("nil"), "a function")
	s.c.onChange(func() { f(s.Value()) })
}

// Bundle shows the slider.
func (s *IntSliderWidget) Bundle() display.Bundle {
	if s.c == nil {
		return emptyWidget("IntSliderWidget", "lab.IntSlider")
	}
	return s.c.bundle()
}

// Close removes the slider from the front end.
func (s *IntSliderWidget) Close() { s.c.m.close() }

// Dropdown chooses one of a list of strings (lab.Dropdown).
type DropdownWidget struct {
	c       *control
	options []string
}

// Dropdown makes a choice among options, starting at value (one of them).
func (e *Env) Dropdown(desc string, options []string, value string) *DropdownWidget {
	const op = "lab.Dropdown"
	check(op, len(options) > 0, "options", word("[]"), "at least one option")
	i := slices.Index(options, value)
	check(op, i >= 0, "value", value, "one of "+quoteList(options))
	d := &DropdownWidget{options: slices.Clone(options)}
	labels := make([]any, len(options))
	for j, o := range options {
		labels[j] = o
	}
	m := e.Widgets.domModel("DropdownModel", "DropdownView", "DescriptionStyleModel", map[string]any{
		"description": desc, "description_allow_html": false, "disabled": false, "_options_labels": labels, "index": i,
	})
	d.c = newControl(m, op, desc)
	d.c.accept = func(st map[string]any) (map[string]any, bool) {
		x, ok := number(st["index"])
		if !ok || len(st) != 1 || x != math.Trunc(x) || x < 0 || int(x) >= len(d.options) {
			return nil, false
		}
		return map[string]any{"index": int(x)}, true
	}
	d.c.text = func() string { return fmt.Sprintf("Dropdown(%s = %q)", desc, d.Value()) }
	return d
}

func quoteList(options []string) string {
	q := make([]string, len(options))
	for i, o := range options {
		q[i] = fmt.Sprintf("%q", o)
	}
	return strings.Join(q, ", ")
}

// Value is the option chosen now.
func (d *DropdownWidget) Value() string {
	x, _ := number(d.c.m.get("index"))
	return d.options[int(x)]
}

// Set chooses an option and calls the callbacks.
func (d *DropdownWidget) Set(v string) {
	i := slices.Index(d.options, v)
	check("Dropdown.Set", i >= 0, "v", v, "one of "+quoteList(d.options))
	d.c.set(map[string]any{"index": i})
}

// OnChange calls f with the new choice after every change.
func (d *DropdownWidget) OnChange(f func(string)) {
	check("Dropdown.OnChange", f != nil, "f", word("nil"), "a function")
	d.c.onChange(func() { f(d.Value()) })
}

// Bundle shows the dropdown.
func (d *DropdownWidget) Bundle() display.Bundle {
	if d.c == nil {
		return emptyWidget("DropdownWidget", "lab.Dropdown")
	}
	return d.c.bundle()
}

// Close removes the dropdown from the front end.
func (d *DropdownWidget) Close() { d.c.m.close() }

// ToggleWidget is an on/off button, made by lab.Toggle.
type ToggleWidget struct{ c *control }

// Toggle makes a button that stays pressed (true) or not.
func (e *Env) Toggle(desc string, value bool) *ToggleWidget {
	t := &ToggleWidget{}
	m := e.Widgets.domModel("ToggleButtonModel", "ToggleButtonView", "ToggleButtonStyleModel", map[string]any{
		"description": desc, "description_allow_html": false, "disabled": false, "value": value,
		"button_style": "", "icon": "",
	})
	t.c = newControl(m, "lab.Toggle", desc)
	t.c.accept = func(st map[string]any) (map[string]any, bool) {
		b, ok := st["value"].(bool)
		if !ok || len(st) != 1 {
			return nil, false
		}
		return map[string]any{"value": b}, true
	}
	t.c.text = func() string { return fmt.Sprintf("Toggle(%s = %t)", desc, t.Value()) }
	return t
}

// Value is whether the button is pressed.
func (t *ToggleWidget) Value() bool { b, _ := t.c.m.get("value").(bool); return b }

// Set presses or releases the button and calls the callbacks.
func (t *ToggleWidget) Set(v bool) { t.c.set(map[string]any{"value": v}) }

// OnChange calls f with the new state after every change.
func (t *ToggleWidget) OnChange(f func(bool)) {
	check("Toggle.OnChange", f != nil, "f", word("nil"), "a function")
	t.c.onChange(func() { f(t.Value()) })
}

// Bundle shows the button.
func (t *ToggleWidget) Bundle() display.Bundle {
	if t.c == nil {
		return emptyWidget("ToggleWidget", "lab.Toggle")
	}
	return t.c.bundle()
}

// Close removes the button from the front end.
func (t *ToggleWidget) Close() { t.c.m.close() }

// TextWidget is a line of text the user edits, made by lab.Text.
type TextWidget struct{ c *control }

// Text makes a text box starting with value; a change is sent when the
// user presses Enter or leaves the box.
func (e *Env) Text(desc, value string) *TextWidget {
	t := &TextWidget{}
	m := e.Widgets.domModel("TextModel", "TextView", "TextStyleModel", map[string]any{
		"description": desc, "description_allow_html": false, "disabled": false, "value": value,
		"placeholder": "", "continuous_update": false,
	})
	t.c = newControl(m, "lab.Text", desc)
	t.c.accept = func(st map[string]any) (map[string]any, bool) {
		s, ok := st["value"].(string)
		if !ok || len(st) != 1 {
			return nil, false
		}
		return map[string]any{"value": s}, true
	}
	t.c.text = func() string { return fmt.Sprintf("Text(%s = %q)", desc, t.Value()) }
	return t
}

// Value is the text now.
func (t *TextWidget) Value() string { s, _ := t.c.m.get("value").(string); return s }

// Set replaces the text and calls the callbacks.
func (t *TextWidget) Set(v string) { t.c.set(map[string]any{"value": v}) }

// OnChange calls f with the new text after every change.
func (t *TextWidget) OnChange(f func(string)) {
	check("Text.OnChange", f != nil, "f", word("nil"), "a function")
	t.c.onChange(func() { f(t.Value()) })
}

// Bundle shows the text box.
func (t *TextWidget) Bundle() display.Bundle {
	if t.c == nil {
		return emptyWidget("TextWidget", "lab.Text")
	}
	return t.c.bundle()
}

// Close removes the text box from the front end.
func (t *TextWidget) Close() { t.c.m.close() }

// ButtonWidget is a push button, made by lab.Button.
type ButtonWidget struct {
	m    *model
	desc string

	mu     sync.Mutex
	clicks int
	onTap  []func() // cell code: run through Aside
	now    []func() // lab's own reactions, called at once (see control.watchers)
}

// Button makes a push button; OnClick says what a click does.
func (e *Env) Button(desc string) *ButtonWidget {
	b := &ButtonWidget{desc: desc}
	b.m = e.Widgets.domModel("ButtonModel", "ButtonView", "ButtonStyleModel", map[string]any{
		"description": desc, "disabled": false, "button_style": "", "icon": "",
	})
	b.m.onMsg = b.received
	return b
}

// received counts a click ({method: custom, content: {event: click}}) and
// queues the click callbacks; every click calls them once.
func (b *ButtonWidget) received(data map[string]any) {
	content, _ := data["content"].(map[string]any)
	if data["method"] != "custom" || content["event"] != "click" {
		return
	}
	b.mu.Lock()
	b.clicks++
	n := b.clicks
	fs := slices.Clone(b.onTap)
	now := slices.Clone(b.now)
	b.mu.Unlock()
	for _, f := range now {
		f()
	}
	if len(fs) == 0 {
		return
	}
	b.m.w.later(fmt.Sprintf("%s#%d", b.m.id, n), func(ctx context.Context) {
		b.m.w.runAside(ctx, "lab.Button", b.m.id, func() {
			for _, f := range fs {
				f()
			}
		})
	})
}

// Clicks is how many times the button was clicked.
func (b *ButtonWidget) Clicks() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.clicks
}

func (b *ButtonWidget) watch(f func()) {
	b.mu.Lock()
	b.now = append(b.now, f)
	b.mu.Unlock()
}

// OnClick calls f after every click.
func (b *ButtonWidget) OnClick(f func()) {
	check("Button.OnClick", f != nil, "f", word("nil"), "a function")
	b.mu.Lock()
	b.onTap = append(b.onTap, f)
	b.mu.Unlock()
}

// Bundle shows the button.
func (b *ButtonWidget) Bundle() display.Bundle {
	if b.m == nil {
		return emptyWidget("ButtonWidget", "lab.Button")
	}
	return b.m.view(fmt.Sprintf("Button(%s)", b.desc))
}

// Close removes the button from the front end.
func (b *ButtonWidget) Close() { b.m.close() }

// Slider makes a slider outside any session: it has no front end and
// keeps its value unless Set (see Env.Slider).
func Slider(desc string, min, max, step, value float64) *SliderWidget {
	return Background().Slider(desc, min, max, step, value)
}

// IntSlider makes an integer slider outside any session (see Env.IntSlider).
func IntSlider(desc string, min, max, step, value int) *IntSliderWidget {
	return Background().IntSlider(desc, min, max, step, value)
}

// Dropdown makes a dropdown outside any session (see Env.Dropdown).
func Dropdown(desc string, options []string, value string) *DropdownWidget {
	return Background().Dropdown(desc, options, value)
}

// Toggle makes a toggle button outside any session (see Env.Toggle).
func Toggle(desc string, value bool) *ToggleWidget { return Background().Toggle(desc, value) }

// Text makes a text box outside any session (see Env.Text).
func Text(desc, value string) *TextWidget { return Background().Text(desc, value) }

// Button makes a push button outside any session (see Env.Button).
func Button(desc string) *ButtonWidget { return Background().Button(desc) }
