package lab

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
)

// frontEnd records the comm messages a session's widgets send, as a
// kernel's sink would carry them, and checks what a widget front end
// checks: every model a state refers to was opened before it.
type frontEnd struct {
	t      *testing.T
	mu     sync.Mutex
	models map[string]map[string]any
	log    []string
}

func (f *frontEnd) CommOpen(id, target string, data, metadata map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if target != widgetTarget || metadata["version"] != widgetProtocol {
		f.t.Errorf("comm_open %s: target %q, metadata %v", id, target, metadata)
	}
	state := data["state"].(map[string]any)
	for k, v := range state {
		if s, ok := v.(string); ok && strings.HasPrefix(s, widgetModelPrefix) {
			if _, ok := f.models[strings.TrimPrefix(s, widgetModelPrefix)]; !ok {
				f.t.Errorf("model %s refers in %s to %s, not opened before it", id, k, s)
			}
		}
	}
	f.models[id] = state
	f.log = append(f.log, fmt.Sprintf("open %s %v", id, state["_model_name"]))
}

func (f *frontEnd) CommMsg(id string, data, _ map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	state := data["state"].(map[string]any)
	for k, v := range state {
		f.models[id][k] = v
	}
	f.log = append(f.log, fmt.Sprintf("%s %s %v", data["method"], id, state))
}

func (f *frontEnd) CommClose(id string, _ map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.models, id)
	f.log = append(f.log, "close "+id)
}

func (f *frontEnd) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.log
	f.log = nil
	return out
}

func (f *frontEnd) state(id, key string) any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.models[id][key]
}

// widgetEnv is a session's Env with widgets talking to a front end; Aside
// runs work one at a time, with its context as the Env's, as a session does.
func widgetEnv(t *testing.T) (*Env, *frontEnd, *[]string) {
	env, fe, warnings, _ := widgetEnvSink(t)
	return env, fe, warnings
}

// widgetEnvSink is widgetEnv that also gives the sink of the aside work
// running now (nil outside it).
func widgetEnvSink(t *testing.T) (*Env, *frontEnd, *[]string, func() display.Sink) {
	fe := &frontEnd{t: t, models: map[string]map[string]any{}}
	var exec sync.Mutex
	var cur context.Context
	var curSink display.Sink
	var warnings []string
	env := &Env{Context: func() context.Context {
		if cur != nil {
			return cur
		}
		return context.Background()
	}}
	aside := func(ctx context.Context, sink display.Sink, f func()) (err error) {
		exec.Lock()
		defer exec.Unlock()
		cur, curSink = ctx, sink
		defer func() {
			cur, curSink = nil, nil
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		f()
		return ctx.Err()
	}
	life, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	env.Widgets = NewWidgets(WidgetHost{Life: life, Comms: func() display.Comms { return fe }, Aside: aside,
		Output: func(id string) display.Sink { return warnSink{id, &warnings} },
		Warn:   func(s string) { warnings = append(warnings, s) }})
	return env, fe, &warnings, func() display.Sink { return curSink }
}

// warnSink records what is written in the cell of widget id.
type warnSink struct {
	id  string
	out *[]string
}

func (w warnSink) Stream(_, text string)              { *w.out = append(*w.out, w.id+": "+text) }
func (warnSink) Display(display.Bundle, string, bool) {}
func (warnSink) Clear(bool)                           {}

func waitIdle(t *testing.T, w *Widgets) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !w.idle(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("queued widget work did not end within 5s")
		}
	}
}

func update(state map[string]any) map[string]any {
	return map[string]any{"method": "update", "state": state, "buffer_paths": []any{}}
}

func TestSliderSyncsWithTheFrontEnd(t *testing.T) {
	env, fe, warnings := widgetEnv(t)
	s := env.Slider("rate", 50, 400, 10, 100)
	if got := fe.take(); len(got) != 3 || !strings.HasSuffix(got[0], "LayoutModel") ||
		!strings.HasSuffix(got[1], "SliderStyleModel") || !strings.HasSuffix(got[2], "FloatSliderModel") {
		t.Fatalf("comms opened: %v", got)
	}
	id := s.c.m.id
	view := s.Bundle()[display.WidgetViewMIME].(map[string]any)
	if view["model_id"] != id || view["version_major"] != 2 || s.Bundle().Text() != "Slider(rate = 100)" {
		t.Errorf("view bundle %v", s.Bundle())
	}
	var seen []float64
	s.OnChange(func(v float64) { seen = append(seen, v) })

	// From the front end: snapped to the step, sent back because it was
	// corrected, the callback called after, with the kept value.
	env.Widgets.CommMsg(id, update(map[string]any{"value": 123.0}))
	waitIdle(t, env.Widgets)
	if s.Value() != 120 || fe.state(id, "value") != 120.0 || fmt.Sprint(seen) != "[120]" {
		t.Errorf("after 123 from the front end: value %v, front end %v, callbacks %v", s.Value(), fe.state(id, "value"), seen)
	}
	// An exact value is not sent back.
	fe.take()
	env.Widgets.CommMsg(id, update(map[string]any{"value": 200.0}))
	waitIdle(t, env.Widgets)
	if got := fe.take(); len(got) != 0 || s.Value() != 200 {
		t.Errorf("an accepted value was answered with %v (value %v)", got, s.Value())
	}
	// A value it cannot take is ignored, the current one re-sent, one warning.
	env.Widgets.CommMsg(id, update(map[string]any{"value": "fast"}))
	env.Widgets.CommMsg(id, update(map[string]any{"value": nil}))
	if got := fe.take(); len(got) != 2 || got[0] != "update "+id+" map[value:200]" || s.Value() != 200 {
		t.Errorf("a bad value: answered %v, value %v", got, s.Value())
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], `lab.Slider "rate"`) {
		t.Errorf("warnings %q", *warnings)
	}
	// From a cell: sent, the callback called at once.
	s.Set(300)
	if got := fe.take(); len(got) != 1 || got[0] != "update "+id+" map[value:300]" || fmt.Sprint(seen) != "[120 200 300]" {
		t.Errorf("Set: sent %v, callbacks %v", got, seen)
	}
	// request_state is answered with the whole state.
	env.Widgets.CommMsg(id, map[string]any{"method": "request_state"})
	if got := fe.take(); len(got) != 1 || !strings.Contains(got[0], "_model_name:FloatSliderModel") {
		t.Errorf("request_state answered %v", got)
	}
	s.Close()
	if got := fe.take(); len(got) != 1 || got[0] != "close "+id {
		t.Errorf("Close sent %v", got)
	}
	// Closed: a late message is ignored with a warning.
	env.Widgets.CommMsg(id, update(map[string]any{"value": 60.0}))
	if s.Value() != 300 || len(*warnings) != 2 {
		t.Errorf("after Close: value %v, warnings %q", s.Value(), *warnings)
	}
}

func TestOtherControls(t *testing.T) {
	env, fe, _ := widgetEnv(t)
	d := env.Dropdown("policy", []string{"round-robin", "adaptive"}, "adaptive")
	var chosen []string
	d.OnChange(func(v string) { chosen = append(chosen, v) })
	env.Widgets.CommMsg(d.c.m.id, update(map[string]any{"index": 0.0}))
	env.Widgets.CommMsg(d.c.m.id, update(map[string]any{"index": 2.0})) // out of range: ignored
	waitIdle(t, env.Widgets)
	if d.Value() != "round-robin" || fmt.Sprint(chosen) != "[round-robin]" {
		t.Errorf("dropdown: %q, callbacks %v", d.Value(), chosen)
	}

	i := env.IntSlider("replicas", 1, 8, 1, 3)
	env.Widgets.CommMsg(i.c.m.id, update(map[string]any{"value": 9.0}))
	waitIdle(t, env.Widgets)
	if i.Value() != 8 || fe.state(i.c.m.id, "value") != 8 {
		t.Errorf("int slider clamped to %v, front end %v", i.Value(), fe.state(i.c.m.id, "value"))
	}

	tg := env.Toggle("straggler", false)
	env.Widgets.CommMsg(tg.c.m.id, update(map[string]any{"value": true}))
	tx := env.Text("label", "a")
	env.Widgets.CommMsg(tx.c.m.id, update(map[string]any{"value": "b"}))
	if !tg.Value() || tx.Value() != "b" {
		t.Errorf("toggle %v, text %q", tg.Value(), tx.Value())
	}

	b := env.Button("fail replica 1")
	var clicks int
	b.OnClick(func() { clicks++ })
	click := map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}
	for range 3 {
		env.Widgets.CommMsg(b.m.id, click)
	}
	waitIdle(t, env.Widgets)
	if b.Clicks() != 3 || clicks != 3 {
		t.Errorf("button: %d clicks counted, callback called %d times", b.Clicks(), clicks)
	}
}

// TestControlsWithoutAFrontEnd: outside a session controls keep their
// values and show as text only.
func TestControlsWithoutAFrontEnd(t *testing.T) {
	s := Slider("rate", 0, 10, 1, 4)
	var seen []float64
	s.OnChange(func(v float64) { seen = append(seen, v) })
	s.Set(7)
	if s.Value() != 7 || fmt.Sprint(seen) != "[7]" {
		t.Errorf("value %v, callbacks %v", s.Value(), seen)
	}
	if _, ok := s.Bundle()[display.WidgetViewMIME]; ok || s.Bundle().Text() != "Slider(rate = 7)" {
		t.Errorf("bundle without a front end: %v", s.Bundle())
	}
	it := Interact(func(x float64, p string) string { return fmt.Sprintf("%g/%s", x, p) }, Range("x", 1, 5, 1).From(2.0), Choice("p", "a", "b"))
	if got := it.Bundle().Text(); got != `"2/a"` {
		t.Errorf("interaction without a front end shows %q", got)
	}
	s.Close()
}

func TestControlsRefuseBadArguments(t *testing.T) {
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { Slider("r", 5, 1, 1, 2) }, "lab.Slider: max: 1 is not allowed (want a finite number above min (5)"},
		{func() { Slider("r", 0, 10, 0, 2) }, "lab.Slider: step: 0 is not allowed"},
		{func() { Slider("r", 0, 10, 1, 20) }, "lab.Slider: value: 20 is not allowed (want a number in [0, 10]"},
		{func() { IntSlider("n", 0, 10, 1, -1) }, "lab.IntSlider: value: -1 is not allowed"},
		{func() { Dropdown("p", []string{"a"}, "b") }, `lab.Dropdown: value: "b" is not allowed (want one of "a"`},
		{func() { Dropdown("p", nil, "b") }, "lab.Dropdown: options: [] is not allowed"},
		{func() { Slider("r", 0, 10, 1, 2).Set(11) }, "Slider.Set: v: 11 is not allowed"},
		{func() { Interact(nil) }, "lab.Interact: f: nil is not allowed"},
		{func() { Interact(func(x float64) any { return x }) }, "lab.Interact: f: func(float64) interface {} is not allowed (want a function of 0 argument(s)"},
		{func() { Interact(func(x int) any { return x }, Range("x", 0, 1, 0.1)) }, "lab.Interact: f's argument 1: int is not allowed (want float64, the type of params[0] (x)"},
		{func() { Interact(func(x float64) {}, Range("x", 0, 1, 0.1)) }, "lab.Interact: f: func(float64) is not allowed (want a function returning one value"},
		{func() { Interact(func(x float64) any { return x }, Range("x", 0, 1, 0.1).From(1)) }, "lab.Interact: params[0] (x): From(1): want a float64"},
		{func() { Interact(func(p string) any { return p }, Choice("p")) }, "lab.Interact: params[0] (p): no options is not allowed"},
	} {
		got := catch(tc.f)
		if !strings.Contains(got, tc.want) {
			t.Errorf("got %q\nwant it to contain %q", got, tc.want)
		}
	}
}

func catch(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return "no failure"
}

// TestInteractReruns: the first result is computed at once; a change runs
// f again with the latest values and replaces the Output widget's
// outputs (what f printed, then its result); a change while f runs
// cancels that run, whose result is never shown.
func TestInteractReruns(t *testing.T) {
	env, fe, _, sink := widgetEnvSink(t)
	started := make(chan float64, 10)
	release := make(chan struct{})
	var calls []string
	it := env.Interact(func(rate float64, policy string) any {
		calls = append(calls, fmt.Sprintf("%g/%s", rate, policy))
		if rate == 70 {
			started <- rate
			select { // a slow run: it ends when cancelled, or when released
			case <-env.ctx().Done():
				return "cancelled"
			case <-release:
			}
		}
		if rate == 90 {
			panic("no such rate")
		}
		if sk := sink(); sk != nil {
			sk.Stream("stdout", "printed ")
		}
		return fmt.Sprintf("rate %g under %s", rate, policy)
	}, Range("rate", 50, 400, 10).From(100.0), Choice("policy", "round-robin", "adaptive"))
	out := it.out.id
	shown := func() string {
		outs, _ := fe.state(out, "outputs").([]any)
		var s []string
		for _, o := range outs {
			m := o.(map[string]any)
			if m["output_type"] == "stream" {
				s = append(s, m["text"].(string))
			} else {
				s = append(s, m["data"].(map[string]any)[display.TextPlain].(string))
			}
		}
		return strings.Join(s, "")
	}
	if got := shown(); got != `"rate 100 under round-robin"` {
		t.Fatalf("first result %q", got)
	}
	if v := it.Bundle()[display.WidgetViewMIME].(map[string]any); v["model_id"] != it.box.id {
		t.Errorf("bundle %v", it.Bundle())
	}
	children := fe.state(it.box.id, "children").([]any)
	if len(children) != 3 || children[2] != it.out.ref() {
		t.Errorf("box children %v", children)
	}
	ids := strings.TrimPrefix(children[0].(string), widgetModelPrefix)
	policy := strings.TrimPrefix(children[1].(string), widgetModelPrefix)

	env.Widgets.CommMsg(ids, update(map[string]any{"value": 70.0}))
	<-started // the slow run is in flight
	env.Widgets.CommMsg(policy, update(map[string]any{"index": 1.0}))
	env.Widgets.CommMsg(ids, update(map[string]any{"value": 80.0}))
	waitIdle(t, env.Widgets)
	close(release)
	if got := shown(); got != `printed "rate 80 under adaptive"` {
		t.Errorf("after the changes the output shows %q", got)
	}
	// The slow run was cancelled; of the two changes that followed it, one
	// run with the latest values.
	if got := strings.Join(calls, " "); got != "100/round-robin 70/round-robin 80/adaptive" {
		t.Errorf("f ran for %s", got)
	}
	// A run that fails shows the failure in place of the result.
	env.Widgets.CommMsg(ids, update(map[string]any{"value": 90.0}))
	waitIdle(t, env.Widgets)
	if got := shown(); got != "panic: no such rate\n" {
		t.Errorf("a failed run shows %q", got)
	}
	it.Close()
	if got := env.Widgets.open(); len(got) != 0 {
		t.Errorf("models left open after Close: %v", got)
	}
}

// TestLiveControlsSteerAndReplay: a live view in a notebook shows its
// controls; steered by them from the front end (paused, rate, straggler,
// fail, policy, resumed) it records the same actions as its methods would,
// and its recording replays byte for byte.
func TestLiveControlsSteerAndReplay(t *testing.T) {
	env, fe, warnings := widgetEnv(t)
	disp := &shown{}
	env.Display, env.Headless = disp.display, func() bool { return false }
	lv := env.Live(Straggler().Rate(150), LatencyAware(), 7, Speed(10000))
	first := disp.all()[0]
	c := lv.Controls()
	if v, ok := first.b[display.WidgetViewMIME].(map[string]any); !ok || v["model_id"] != c.box.id {
		t.Fatalf("first display %v, want the controls (%s)", first, c.box.id)
	}
	ref := func(id string, i int) string {
		return strings.TrimPrefix(fe.state(id, "children").([]any)[i].(string), widgetModelPrefix)
	}
	rate, row1, row2 := ref(c.box.id, 0), ref(c.box.id, 1), ref(c.box.id, 2)
	replica, straggler, failB := ref(row1, 0), ref(row1, 1), ref(row1, 3)
	pause, policy := ref(row2, 1), ref(row2, 2)
	click := map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}

	env.Widgets.CommMsg(pause, update(map[string]any{"value": true}))
	at := lv.Now()
	env.Widgets.CommMsg(rate, update(map[string]any{"value": 220.0}))
	env.Widgets.CommMsg(replica, update(map[string]any{"index": 1.0}))
	env.Widgets.CommMsg(straggler, click)
	env.Widgets.CommMsg(replica, update(map[string]any{"index": 2.0}))
	env.Widgets.CommMsg(failB, click)
	if fe.state(policy, "_options_labels").([]any)[1] != "round-robin" {
		t.Fatalf("policy options %v", fe.state(policy, "_options_labels"))
	}
	env.Widgets.CommMsg(policy, update(map[string]any{"index": 2.0})) // least-queue
	env.Widgets.CommMsg(pause, update(map[string]any{"value": false}))
	lv.Wait(15 * time.Second)

	var acts []string
	for _, a := range lv.Actions() {
		acts = append(acts, a.String())
	}
	when := strings.TrimPrefix(acts[0], "rate 220 req/s")
	if !strings.HasPrefix(when, " at ") || at > 1 {
		t.Errorf("rate change recorded as %q (paused at %v s)", acts[0], at)
	}
	want := []string{"rate 220 req/s" + when, "replica 2 ×4 slower" + when, "fail replica 3" + when, "least-queue routes" + when}
	if strings.Join(acts, "; ") != strings.Join(want, "; ") {
		t.Errorf("actions recorded:\n%s\nwant:\n%s", strings.Join(acts, "; "), strings.Join(want, "; "))
	}
	if a, b := measuredRun(t, lv.Result()), measuredRun(t, Run(lv.Scenario(), lv.Policy(), 7)); a != b {
		t.Errorf("the steered view and its replay differ:\n%.300s\n%.300s", a, b)
	}
	if len(*warnings) != 0 {
		t.Errorf("warnings: %q", *warnings)
	}
}

// TestAFloodOfUpdatesIsCoalesced: 10,000 slider moves while the first
// rerun is held never queue 10,000 runs: the value is the last one, and
// f runs a few times at most, the last with the last value.
func TestAFloodOfUpdatesIsCoalesced(t *testing.T) {
	env, fe, _ := widgetEnv(t)
	hold := make(chan struct{})
	var mu sync.Mutex
	var runs []int
	it := env.Interact(func(n int) int {
		mu.Lock()
		runs = append(runs, n)
		first := len(runs) == 2
		mu.Unlock()
		if first {
			<-hold // the first rerun waits while the flood arrives
		}
		return n
	}, IntRange("n", 0, 20000, 1))
	slider := strings.TrimPrefix(fe.state(it.box.id, "children").([]any)[0].(string), widgetModelPrefix)
	for v := 1; v <= 10000; v++ {
		env.Widgets.CommMsg(slider, update(map[string]any{"value": float64(v)}))
		if v == 1 {
			for len(snapshot(&mu, &runs)) < 2 {
				time.Sleep(time.Millisecond)
			}
		}
	}
	close(hold)
	waitIdle(t, env.Widgets)
	got := snapshot(&mu, &runs)
	if len(got) > 4 || got[len(got)-1] != 10000 {
		t.Errorf("runs after 10,000 updates: %d, the values %v", len(got), got)
	}
}

func snapshot(mu *sync.Mutex, runs *[]int) []int {
	mu.Lock()
	defer mu.Unlock()
	return append([]int(nil), *runs...)
}
