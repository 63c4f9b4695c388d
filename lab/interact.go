package lab

import (
	"context"
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/routelab/routelab/display"
)

// Param is one argument of a function given to Interact, with the control
// that sets it: Range, IntRange, Choice or Flag.
type Param struct {
	name           string
	kind           reflect.Kind // of the function's parameter
	min, max, step float64
	options        []string
	from           any // the initial value; nil: the control's default
}

// Range is a float64 argument set by a slider from min to max in steps of
// step, starting at min unless From says otherwise.
func Range(name string, min, max, step float64) Param {
	return Param{name: name, kind: reflect.Float64, min: min, max: max, step: step}
}

// IntRange is an int argument set by a slider of integers.
func IntRange(name string, min, max, step int) Param {
	return Param{name: name, kind: reflect.Int, min: float64(min), max: float64(max), step: float64(step)}
}

// Choice is a string argument chosen from options, starting at the first.
func Choice(name string, options ...string) Param {
	return Param{name: name, kind: reflect.String, options: slices.Clone(options)}
}

// Flag is a bool argument set by a toggle button, starting false.
func Flag(name string) Param { return Param{name: name, kind: reflect.Bool} }

// From sets the argument's initial value (of the argument's type).
func (p Param) From(v any) Param {
	p.from = v
	return p
}

func (p Param) String() string { return fmt.Sprintf("%s %s", p.name, p.kind) }

// control makes the param's widget.
func (p Param) control(e *Env, op string, i int) (c *control, value func() reflect.Value) {
	bad := func(want string) {
		fail(op, fmt.Errorf("params[%d] (%s): From(%v): want %s", i, p.name, p.from, want))
	}
	switch p.kind {
	case reflect.Float64:
		v := p.min
		if p.from != nil {
			x, ok := p.from.(float64)
			if !ok {
				bad("a float64")
			}
			v = x
		}
		s := e.Slider(p.name, p.min, p.max, p.step, v)
		return s.c, func() reflect.Value { return reflect.ValueOf(s.Value()) }
	case reflect.Int:
		v := int(p.min)
		if p.from != nil {
			x, ok := p.from.(int)
			if !ok {
				bad("an int")
			}
			v = x
		}
		s := e.IntSlider(p.name, int(p.min), int(p.max), int(p.step), v)
		return s.c, func() reflect.Value { return reflect.ValueOf(s.Value()) }
	case reflect.String:
		check(op, len(p.options) > 0, fmt.Sprintf("params[%d] (%s)", i, p.name), word("no options"), "lab.Choice with at least one option")
		v := p.options[0]
		if p.from != nil {
			x, ok := p.from.(string)
			if !ok {
				bad("a string")
			}
			v = x
		}
		d := e.Dropdown(p.name, p.options, v)
		return d.c, func() reflect.Value { return reflect.ValueOf(d.Value()) }
	case reflect.Bool:
		v := false
		if p.from != nil {
			x, ok := p.from.(bool)
			if !ok {
				bad("a bool")
			}
			v = x
		}
		t := e.Toggle(p.name, v)
		return t.c, func() reflect.Value { return reflect.ValueOf(t.Value()) }
	}
	fail(op, fmt.Errorf("params[%d]: %v is not a parameter made by lab.Range, lab.IntRange, lab.Choice or lab.Flag", i, p))
	return nil, nil
}

// Interaction is a function shown with controls for its arguments (see
// Interact).
type Interaction struct {
	e       *Env
	f       reflect.Value
	args    []func() reflect.Value
	box     *model
	out     *model
	names   []string
	mu      sync.Mutex
	last    display.Bundle     // what the latest completed run showed
	cancel  context.CancelFunc // stops the run in flight, if any
	running uint64             // the run in flight's number
	runs    uint64             // runs started
}

// Interact shows f with a control for each of its arguments and f's
// result below them; moving a control runs f again and replaces the
// result in place. f takes one argument per param, in order (float64 for
// Range, int for IntRange, string for Choice, bool for Flag), and returns
// what to show (a figure, a table, any value). The first result is
// computed in the cell; later runs happen after the running cell, one at a
// time, and a change that arrives while f runs cancels that run (its lab
// calls stop as on an interrupt) for one with the latest values. Headless
// (routelab run, nbconvert), the result for the initial values is what the
// notebook keeps.
func (e *Env) Interact(f any, params ...Param) *Interaction {
	const op = "lab.Interact"
	fv := reflect.ValueOf(f)
	check(op, f != nil && fv.Kind() == reflect.Func, "f", typeOrNil(f), "a function with one argument per param, returning what to show")
	ft := fv.Type()
	check(op, ft.NumIn() == len(params) && !ft.IsVariadic(), "f", ft,
		fmt.Sprintf("a function of %d argument(s), one per param (%s)", len(params), paramList(params)))
	check(op, ft.NumOut() == 1, "f", ft, "a function returning one value, what to show")
	for i, p := range params {
		check(op, ft.In(i).Kind() == p.kind, fmt.Sprintf("f's argument %d", i+1), ft.In(i),
			fmt.Sprintf("%s, the type of params[%d] (%s)", p.kind, i, p.name))
	}
	it := &Interaction{e: e, f: fv}
	var children []any
	for i, p := range params {
		c, value := p.control(e, op, i)
		it.args = append(it.args, value)
		it.names = append(it.names, p.name)
		children = append(children, c.m.ref())
		c.watch(it.changed)
	}
	it.out = e.Widgets.outputModel()
	children = append(children, it.out.ref())
	it.box = e.Widgets.boxModel(children)
	it.last = it.call()
	it.out.set(map[string]any{"outputs": []any{outputOf(it.last)}})
	return it
}

// Interact shows f with controls outside any session: there is no front
// end, so it only computes f for the initial values (see Env.Interact).
func Interact(f any, params ...Param) *Interaction { return Background().Interact(f, params...) }

func typeOrNil(v any) any {
	if v == nil {
		return word("nil")
	}
	return reflect.TypeOf(v)
}

func paramList(params []Param) string {
	s := make([]string, len(params))
	for i, p := range params {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}

// call runs f with the controls' values and returns what it shows.
func (it *Interaction) call() display.Bundle {
	in := make([]reflect.Value, len(it.args))
	for i, a := range it.args {
		in[i] = a()
	}
	return display.Of(it.f.Call(in)[0].Interface())
}

// changed is every control's change callback: it cancels the run in
// flight and queues a run with the latest values (one waiting run at most).
func (it *Interaction) changed() {
	it.mu.Lock()
	if it.cancel != nil {
		it.cancel()
	}
	it.mu.Unlock()
	if it.e.Widgets == nil {
		return
	}
	it.e.Widgets.later(it.box.id, it.rerun)
}

// rerun runs f again after the running cell and shows its result, its
// output and its failure in place of the last; a run cancelled by a newer
// change shows nothing.
func (it *Interaction) rerun(life context.Context) {
	ctx, cancel := context.WithCancel(life)
	defer cancel()
	it.mu.Lock()
	it.runs++
	n := it.runs
	it.running, it.cancel = n, cancel
	it.mu.Unlock()
	capture := &captureSink{}
	var shown display.Bundle
	aside := it.e.Widgets.host.Aside
	if aside == nil { // no session to run it after
		aside = func(_ context.Context, _ display.Sink, f func()) error { f(); return nil }
	}
	err := aside(ctx, capture, func() { shown = it.call() })
	it.mu.Lock()
	superseded := ctx.Err() != nil && life.Err() == nil
	it.cancel = nil
	it.mu.Unlock()
	if superseded {
		return
	}
	outs := capture.outputs()
	if err != nil {
		outs = append(outs, map[string]any{"output_type": "stream", "name": "stderr", "text": err.Error() + "\n"})
	} else {
		it.mu.Lock()
		it.last = shown
		it.mu.Unlock()
		outs = append(outs, outputOf(shown))
	}
	it.out.set(map[string]any{"outputs": outs})
}

// Bundle shows the controls and the result; front ends that render no
// widgets show the result of the initial values.
func (it *Interaction) Bundle() display.Bundle {
	if it.box == nil {
		return emptyWidget("Interaction", "lab.Interact")
	}
	it.mu.Lock()
	last := it.last
	it.mu.Unlock()
	b := display.Bundle{}
	for k, v := range last {
		b[k] = v
	}
	for k, v := range it.box.view("") {
		if k != display.TextPlain {
			b[k] = v
		}
	}
	return b
}

// Close removes the controls from the front end.
func (it *Interaction) Close() {
	if it.box == nil || it.e.Widgets == nil {
		return
	}
	it.e.Widgets.closeTree(it.box)
}

// outputModel is an Output widget, whose outputs the kernel sets.
func (w *Widgets) outputModel() *model {
	layout := w.newModel(map[string]any{
		"_model_name": "LayoutModel", "_model_module": baseModule, "_model_module_version": widgetsVersion,
		"_view_name": "LayoutView", "_view_module": baseModule, "_view_module_version": widgetsVersion, "_view_count": nil,
	})
	return w.newModel(map[string]any{
		"_model_name": "OutputModel", "_model_module": outputModule, "_model_module_version": outputVersion,
		"_view_name": "OutputView", "_view_module": outputModule, "_view_module_version": outputVersion,
		"_view_count": nil, "_dom_classes": []any{}, "layout": layout.ref(), "msg_id": "", "outputs": []any{},
		"tabbable": nil, "tooltip": nil,
	})
}

// boxModel is a VBox of the given children (model references).
func (w *Widgets) boxModel(children []any) *model {
	return w.domModel("VBoxModel", "VBoxView", "", map[string]any{"children": children, "box_style": ""})
}

// closeTree closes a model and every model its state refers to.
func (w *Widgets) closeTree(m *model) {
	m.mu.Lock()
	var refs []string
	for _, v := range m.state {
		switch x := v.(type) {
		case string:
			refs = append(refs, x)
		case []any:
			for _, c := range x {
				if s, ok := c.(string); ok {
					refs = append(refs, s)
				}
			}
		}
	}
	m.mu.Unlock()
	m.close()
	for _, r := range refs {
		id, ok := strings.CutPrefix(r, widgetModelPrefix)
		if !ok {
			continue
		}
		w.mu.Lock()
		child := w.models[id]
		w.mu.Unlock()
		if child != nil {
			w.closeTree(child)
		}
	}
}

// outputOf is a bundle as an nbformat display_data output.
func outputOf(b display.Bundle) map[string]any {
	return map[string]any{"output_type": "display_data", "data": wire(b), "metadata": map[string]any{}}
}

// wire is a bundle as JSON carries it: images' bytes in base64, other
// bytes as text.
func wire(b display.Bundle) map[string]any {
	out := make(map[string]any, len(b))
	for k, v := range b {
		if raw, ok := v.([]byte); ok {
			if strings.HasPrefix(k, "image/") {
				v = base64.StdEncoding.EncodeToString(raw)
			} else {
				v = string(raw)
			}
		}
		out[k] = v
	}
	return out
}

// captureSink keeps what a rerun of an interaction prints and shows, as
// nbformat outputs for its Output widget.
type captureSink struct {
	mu   sync.Mutex
	outs []map[string]any
}

func (c *captureSink) Stream(name, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.outs); n > 0 && c.outs[n-1]["output_type"] == "stream" && c.outs[n-1]["name"] == name {
		c.outs[n-1]["text"] = c.outs[n-1]["text"].(string) + text
		return
	}
	c.outs = append(c.outs, map[string]any{"output_type": "stream", "name": name, "text": text})
}

func (c *captureSink) Display(b display.Bundle, id string, update bool) {
	if update {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.outs = append(c.outs, outputOf(b))
}

func (c *captureSink) Clear(bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.outs = nil
}

// Headless: a rerun happens because a front end is watching.
func (c *captureSink) Headless() bool { return false }

func (c *captureSink) outputs() []any {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]any, len(c.outs))
	for i, o := range c.outs {
		out[i] = o
	}
	return out
}
