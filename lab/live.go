package lab

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/live"
)

// A live view is a simulation a person watches and steers: the engine's
// simulator advancing in dilated real time under the cell that started it
// (package live), shown as a display that updates in place, and steered by
// later cells. Every control is recorded, so Scenario and Policy replay the
// view exactly.
//
// Headless — routelab run, nbconvert, a script — nobody watches a display
// change and the time between cells means nothing, so a live view does not
// follow the clock: its simulated time stands still between cells (only
// Wait and Finish move it), every control takes effect at that time, and
// what it shows is always the run completed to its end at full speed with
// the controls given so far. A notebook therefore gives the same outputs on
// every headless run.

// LiveOption sets how fast a live view advances: lab.Speed or lab.Fastest.
type LiveOption struct{ speed float64 }

// Speed advances a live view by msPerSecond simulated ms per real second
// (120 by default: slow enough to follow single requests).
func Speed(msPerSecond float64) LiveOption {
	check("lab.Speed", finite(msPerSecond) && msPerSecond > 0, "msPerSecond", msPerSecond,
		"a finite number of simulated ms per real second > 0 (lab.Fastest() for as fast as possible)")
	return LiveOption{msPerSecond}
}

// Fastest advances a live view as fast as the machine allows.
func Fastest() LiveOption { return LiveOption{math.Inf(1)} }

// LiveAction is a control a live view applied: what it did and the
// simulated time at which it took effect.
type LiveAction struct {
	At   float64 // ms
	What string  // "rate 250 req/s", "fail replica 2", "least-queue routes"
}

// LiveActions are controls a live view applied, one per line.
type LiveActions []LiveAction

// LiveView is a live simulation shown in a notebook (see Live). Its methods
// are safe to call from any goroutine.
type LiveView struct{ v *liveState }

// liveState is a live view; LiveView wraps a pointer so that its value
// shows itself like the pointer does.
type liveState struct {
	env      *Env
	id       string // the display's id
	scn      *Scenario
	base     live.Options
	view     live.View
	headless bool
	life     context.Context // ends when the session is interrupted or closed
	note     atomic.Pointer[string]

	display sync.Mutex // orders the first display before updates
	shown   bool

	mu   sync.Mutex
	sess *live.Session // interactive: the running session; headless: the last replay
	// headless: where the notebook has brought the view, and the controls
	// so far with the times they take effect.
	cursor float64
	script []timedControl

	controls *LiveControls // made by Controls, shown when interactive
}

type timedControl struct {
	at float64
	c  live.Control
}

// Live starts a live view of the scenario under a policy for one seed and
// shows it: per replica its queue, in-flight request, health and share of
// recent assignments, every request as a mark coloured by whether it will
// meet the SLO, and rolling percentiles, throughput and counts. It runs for
// the scenario's warm-up and measurement (15 s by default) at lab.Speed
// (120 simulated ms per second unless told) while later cells steer it.
// Outside a session it has no display and runs to its end at once.
func (e *Env) Live(scn *Scenario, policy PolicySpec, seed int, opts ...LiveOption) *LiveView {
	const op = "lab.Live"
	check(op, scn != nil, "scenario", word("nil"), "a scenario such as lab.Steady()")
	s, proto, err := scn.Engine()
	if err != nil {
		fail(op, err)
	}
	check(op, policy.New != nil, "policy", policy, "a policy such as lab.Adaptive()")
	check(op, seed >= 1, "seed", seed, "an integer >= 1")
	check(op, len(opts) <= 1, "opts", len(opts), "at most one option, lab.Speed or lab.Fastest")
	speed := live.DefaultSpeed
	for _, o := range opts {
		check(op, o.speed != 0, "opts", o, "an option made by lab.Speed or lab.Fastest")
		speed = o.speed
	}
	v := &liveState{env: e, scn: scn, headless: e.headless(), id: displayID(),
		base: live.Options{Scenario: s, Policy: policy, Seed: uint64(seed), Speed: speed, Measure: &proto},
		view: live.View{Seed: uint64(seed), Until: proto.Horizon()}}
	if !v.headless {
		lv := &LiveView{v}
		if e.Widgets.channel() != nil {
			e.Display(lv.Controls(), "", false)
		}
		v.start(op)
		return lv
	}
	sess, err := v.replay(nil, v.end())
	if err != nil {
		fail(op, err)
	}
	v.sess = sess
	v.show(sess.Frame(), false)
	return &LiveView{v}
}

// Live starts a live view outside any session (see Env.Live): with no
// display, it runs to its end at once.
func Live(scn *Scenario, policy PolicySpec, seed int, opts ...LiveOption) *LiveView {
	return Background().Live(scn, policy, seed, opts...)
}

// displayID names a view's display, unique across sessions and kernels (a
// front end keeps the displays of earlier kernels).
func displayID() string {
	var b [8]byte
	rand.Read(b[:])
	return "routelab-live-" + hex.EncodeToString(b[:])
}

func (v *liveState) end() float64 { return v.view.Until }

// start runs the session in real time; its goroutine updates the display.
func (v *liveState) start(op string) {
	ctx, done := v.env.background()
	v.life = ctx
	sess, err := live.Start(ctx, v.base, func(f live.Frame) { v.show(f, true) })
	if err != nil {
		done()
		fail(op, err)
	}
	v.sess = sess
	go func() {
		<-sess.Done()
		done()
	}()
	v.show(sess.Frame(), false)
}

// replay runs a headless script from time zero to until at full speed,
// as a session that had received those controls would have run, and
// returns that session (for the view's frame, recording and result).
func (v *liveState) replay(script []timedControl, until float64) (*live.Session, error) {
	ctx, done := v.env.background()
	defer done()
	if v.life == nil {
		v.life = ctx
	}
	ctx, cancel := context.WithCancel(v.life)
	defer cancel()
	defer context.AfterFunc(v.env.ctx(), cancel)()
	o := v.base
	o.Speed, o.Paused, o.Until = live.Fastest, true, until
	if until == 0 { // stopped before any time passed: stay at zero
		o.Speed = live.DefaultSpeed
	}
	sess, err := live.Start(ctx, o, nil)
	if err != nil {
		return nil, err
	}
	for _, s := range script {
		if err := sess.At(s.at, s.c); err != nil {
			sess.Stop()
			return nil, err
		}
	}
	if until == 0 {
		sess.Stop()
	}
	sess.Resume()
	if err := sess.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil && sess.Now() < until {
		return nil, err
	}
	return sess, nil
}

// show displays frame f (update: in place of the earlier one). Frames a
// session publishes before the first display are dropped: the first
// display shows a frame at least as recent.
func (v *liveState) show(f live.Frame, update bool) {
	v.display.Lock()
	defer v.display.Unlock()
	if v.env.Display == nil || update && !v.shown {
		return
	}
	v.shown = true
	v.env.Display(v.bundle(f), v.id, update)
}

// frame is the view's state now (headless: the completed run).
func (v *liveState) frame() live.Frame {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.sess.Frame()
}

func (v *liveState) bundle(f live.Frame) display.Bundle {
	view := v.view
	view.Note = v.noteFor(f)
	return display.Bundle{display.TextPlain: view.Text(f), display.TextHTML: view.HTML(f)}
}

// noteFor says what the frame is, when it is not plainly a moment of a run.
func (v *liveState) noteFor(f live.Frame) string {
	switch {
	case v.note.Load() != nil:
		return *v.note.Load()
	case f.Done && v.life.Err() != nil && f.Now < v.end():
		return "stopped by an interrupt"
	case v.headless:
		return "headless: the run as the controls so far make it, completed at once"
	}
	return ""
}

// ended says why the view takes no more controls, or "" while it does.
func (v *liveState) ended() string {
	if n := v.note.Load(); n != nil {
		return *n
	}
	if v.life.Err() != nil {
		return "stopped by an interrupt"
	}
	atEnd := fmt.Sprintf("at its end, %g s", v.end()/1000)
	if v.headless {
		if v.cursor >= v.end() {
			return atEnd
		}
		return ""
	}
	select {
	case <-v.sess.Done():
		if f := v.sess.Frame(); f.Err != "" {
			return "stopped by an error: " + f.Err
		}
		return atEnd
	default:
		return ""
	}
}

// checkRunning fails op when the view takes no more controls.
func (v *liveState) checkRunning(op string) {
	if why := v.ended(); why != "" {
		fail(op, &engine.FieldError{Field: "live view", Value: word(why), Allowed: "a live view that is still running (lab.Live starts a new one)"})
	}
}

// now is the simulated time controls take effect from (ms).
func (v *liveState) now() float64 {
	if v.headless {
		return v.cursor
	}
	return v.sess.Now()
}

// apply applies controls at simulated time at (ms, given in seconds to At
// and UseAt), or now when at is -Inf, and returns what was recorded.
func (v *liveState) apply(op string, at float64, cs ...live.Control) LiveActions {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.checkRunning(op)
	now := math.IsInf(at, -1)
	if now {
		at = v.now() + engine.StepMs // the next boundary, where a control takes effect
		check(op, at <= v.end(), "live view", word(fmt.Sprintf("at %g s", v.now()/1000)),
			fmt.Sprintf("a live view before its end at %g s", v.end()/1000))
	} else {
		from, end := v.now()/1000, v.end()/1000
		check(op, finite(at) && at >= v.now() && at <= v.end(), "seconds", at/1000,
			fmt.Sprintf("a simulated time from now (%g s) to the end of the run (%g s)", from, end))
	}
	switch {
	case v.headless:
		script := slices.Clone(v.script)
		for _, c := range cs {
			script = append(script, timedControl{at, c})
		}
		sess, err := v.replay(script, v.end())
		if err != nil {
			fail(op, err)
		}
		v.script, v.sess = script, sess
		v.show(sess.Frame(), true)
	case now:
		for _, c := range cs {
			if err := v.sess.Do(c); err != nil {
				fail(op, err)
			}
		}
	default:
		for _, c := range cs {
			if err := v.sess.At(at, c); err != nil {
				fail(op, err)
			}
		}
	}
	return v.recorded(cs)
}

// recorded describes controls cs, the last the session recorded, with the
// times at which they took effect.
func (v *liveState) recorded(cs []live.Control) LiveActions {
	evs, sws := v.sess.Scenario().Events, v.sess.Switches()
	out := make(LiveActions, len(cs))
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		var at float64
		switch {
		case c.Policy.New != nil:
			at, sws = sws[len(sws)-1].At, sws[:len(sws)-1]
		case c.Until > 0: // a burst and its end
			at, evs = evs[len(evs)-2].At, evs[:len(evs)-2]
		default:
			at, evs = evs[len(evs)-1].At, evs[:len(evs)-1]
		}
		out[i] = LiveAction{At: at, What: describe(c)}
	}
	return out
}

// describe says what a control does.
func describe(c live.Control) string {
	switch {
	case c.Policy.New != nil:
		return c.Policy.Name + " routes"
	case c.Until > 0:
		return fmt.Sprintf("burst: rate ×%g for %g s", c.Event.Value, c.Until/1000)
	}
	return eventWhat(c.Event)
}

// actions lists what the session recorded, in time order: the timeline's
// events (a burst as its start and its end) and policy switches.
func (v *liveState) actions() LiveActions {
	var out LiveActions
	for _, e := range v.sess.Scenario().Events[len(v.base.Scenario.Events):] {
		out = append(out, LiveAction{At: e.At, What: eventWhat(e)})
	}
	for _, s := range v.sess.Switches() {
		out = append(out, LiveAction{At: s.At, What: s.Policy.Name + " routes"})
	}
	slices.SortStableFunc(out, func(a, b LiveAction) int { return cmp.Compare(a.At, b.At) })
	return out
}

// eventWhat is the event's description without its time ("4.25s: ").
func eventWhat(e engine.Event) string {
	s := e.String()
	if _, what, ok := strings.Cut(s, ": "); ok {
		return what
	}
	return s
}
