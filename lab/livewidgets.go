package lab

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/engine"
)

// LiveControls are a live view's controls in the notebook: the arrival
// rate, a replica's straggler, restore, fail and recover, a burst, pause
// and the policy. Each acts through the view's own controls (SetRate,
// Slow, Fail, ...), so it is recorded like them and the view replays
// exactly (Actions, Scenario, Policy).
type LiveControls struct {
	v   *liveState
	box *model
}

// Straggler factor and burst the buttons apply.
const (
	controlSlowFactor  = 4
	controlBurstFactor = 3
	controlBurstFor    = 2 * time.Second
)

// Controls returns the view's controls (made on first use); a notebook
// shows them with the view when it starts interactive.
func (lv LiveView) Controls() *LiveControls {
	v := lv.state("LiveView.Controls")
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.controls == nil {
		v.controls = newLiveControls(lv)
	}
	return v.controls
}

func newLiveControls(lv LiveView) *LiveControls {
	v, e := lv.v, lv.v.env
	c := &LiveControls{v: v}
	act := func(what string, f func()) {
		defer func() {
			if r := recover(); r != nil && e.Widgets != nil {
				e.Widgets.warnOnce(c.box.id, c.box.id+"/"+what, fmt.Sprintf("live view %s: %v", what, r))
			}
		}()
		f()
	}

	base := v.base.Scenario.Rate
	step := 10.0
	if base < 50 {
		step = 1
	}
	top := math.Min(float64(engine.MaxRate), math.Ceil(3*base/step)*step)
	rate := e.Slider("rate (req/s)", step, top, step, math.Min(top, math.Max(step, math.Round(base/step)*step)))
	rate.c.watch(func() { act("rate", func() { lv.SetRate(rate.Value()) }) })

	var replicas []string
	for i := range v.base.Scenario.Speeds {
		replicas = append(replicas, strconv.Itoa(i+1))
	}
	replica := e.Dropdown("replica", replicas, replicas[0])
	chosen := func() int { n, _ := strconv.Atoi(replica.Value()); return n }
	button := func(label, what string, f func()) *ButtonWidget {
		b := e.Button(label)
		b.watch(func() { act(what, f) })
		return b
	}
	straggle := button(fmt.Sprintf("straggler ×%d", controlSlowFactor), "straggler", func() { lv.Slow(chosen(), controlSlowFactor) })
	restore := button("restore", "restore", func() { lv.Restore(chosen()) })
	failB := button("fail", "fail", func() { lv.Fail(chosen()) })
	recoverB := button("recover", "recover", func() { lv.Recover(chosen()) })
	burst := button(fmt.Sprintf("burst ×%d for %v", controlBurstFactor, controlBurstFor), "burst",
		func() { lv.Burst(controlBurstFactor, controlBurstFor) })

	pause := e.Toggle("pause", false)
	pause.c.watch(func() {
		act("pause", func() {
			if pause.Value() {
				lv.Pause()
			} else {
				lv.Resume()
			}
		})
	})

	start := v.base.Policy
	names := []string{start.Name}
	for _, p := range engine.SpecificationPolicies() {
		if !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	policy := e.Dropdown("policy", names, start.Name)
	policy.c.watch(func() {
		act("policy", func() {
			if p := policy.Value(); p == start.Name {
				lv.Use(start)
			} else if spec, err := engine.PolicyByName(p); err == nil {
				lv.Use(spec)
			}
		})
	})

	row := func(children ...any) *model { return e.Widgets.hboxModel(children) }
	c.box = e.Widgets.boxModel([]any{
		rate.c.m.ref(),
		row(replica.c.m.ref(), straggle.m.ref(), restore.m.ref(), failB.m.ref(), recoverB.m.ref()).ref(),
		row(burst.m.ref(), pause.c.m.ref(), policy.c.m.ref()).ref(),
	})
	return c
}

// Bundle shows the controls.
func (c *LiveControls) Bundle() display.Bundle {
	if c.box == nil {
		return emptyWidget("LiveControls", "LiveView.Controls")
	}
	return c.box.view("live view controls: rate, straggler, restore, fail, recover, burst, pause, policy")
}

// Close removes the controls from the front end.
func (c *LiveControls) Close() {
	if c.box != nil && c.v.env.Widgets != nil {
		c.v.env.Widgets.closeTree(c.box)
	}
}

// hboxModel is an HBox of the given children (model references).
func (w *Widgets) hboxModel(children []any) *model {
	return w.domModel("HBoxModel", "HBoxView", "", map[string]any{"children": children, "box_style": ""})
}
