package lab

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

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
		v.start(op)
		return &LiveView{v}
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

// apply applies controls at simulated time at (ms), or now when at is
// -Inf, and returns what was recorded.
func (v *liveState) apply(op string, at float64, cs ...live.Control) LiveActions {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.checkRunning(op)
	now := math.IsInf(at, -1)
	if now {
		at = v.now() + engine.StepMs // the next boundary, where a control takes effect
	}
	check(op, at <= v.end(), "live view", word(fmt.Sprintf("at %g s", v.now()/1000)),
		fmt.Sprintf("a live view before its end at %g s", v.end()/1000))
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
	slices.SortStableFunc(out, func(a, b LiveAction) int { return cmpFloat(a.At, b.At) })
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// eventWhat is the event's description without its time.
func eventWhat(e engine.Event) string {
	s := e.String()
	if _, what, ok := cutTime(s); ok {
		return what
	}
	return s
}

// cutTime splits "4.25s: rate 250 req/s" at its first ": ".
func cutTime(s string) (string, string, bool) {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ':' && s[i+1] == ' ' {
			return s[:i], s[i+2:], true
		}
	}
	return s, "", false
}

func (lv LiveView) state(op string) *liveState {
	if lv.v == nil {
		failf(op, "an empty live view: lab.Live starts one")
	}
	return lv.v
}

// checkReplica fails op unless id names one of the view's replicas.
func (v *liveState) checkReplica(op string, id int) {
	n := len(v.base.Scenario.Speeds)
	check(op, id >= 1 && id <= n, "replica", id, fmt.Sprintf("a replica id from 1 to %d", n))
}

func (v *liveState) checkFactor(op string, factor float64) {
	check(op, finite(factor) && factor > 0 && factor <= engine.MaxFactor, "factor", factor,
		fmt.Sprintf("a number in (0, %g]", float64(engine.MaxFactor)))
}

// SetRate sets the arrival rate (req/s) now.
func (lv LiveView) SetRate(rps float64) LiveAction {
	const op = "LiveView.SetRate"
	checkRate(op, rps)
	return lv.state(op).apply(op, math.Inf(-1), live.SetRate(rps))[0]
}

// Burst multiplies the scenario's base rate by factor now, for d of
// simulated time.
func (lv LiveView) Burst(factor float64, d time.Duration) LiveAction {
	const op = "LiveView.Burst"
	v := lv.state(op)
	check(op, finite(factor) && factor > 0 && factor*v.base.Scenario.Rate <= engine.MaxRate, "factor", factor,
		fmt.Sprintf("a number > 0 (times the base rate; at most %g req/s in all)", float64(engine.MaxRate)))
	check(op, d > 0, "d", d, "a duration > 0 of simulated time, such as 3*time.Second")
	return v.apply(op, math.Inf(-1), live.Burst(factor, float64(d)/float64(time.Millisecond)))[0]
}

// Slow makes a replica factor times slower now.
func (lv LiveView) Slow(replica int, factor float64) LiveAction {
	const op = "LiveView.Slow"
	v := lv.state(op)
	v.checkReplica(op, replica)
	v.checkFactor(op, factor)
	return v.apply(op, math.Inf(-1), live.Slow(replica, factor))[0]
}

// Restore gives a slowed replica back its speed now.
func (lv LiveView) Restore(replica int) LiveAction {
	return lv.replicaControl("LiveView.Restore", replica, live.Restore)
}

// Fail takes a replica out now: its in-flight request finishes, its queue
// is routed again, and it takes no traffic until Recover.
func (lv LiveView) Fail(replica int) LiveAction {
	return lv.replicaControl("LiveView.Fail", replica, live.Fail)
}

// Recover brings a failed replica back now.
func (lv LiveView) Recover(replica int) LiveAction {
	return lv.replicaControl("LiveView.Recover", replica, live.Recover)
}

func (lv LiveView) replicaControl(op string, replica int, control func(int) live.Control) LiveAction {
	v := lv.state(op)
	v.checkReplica(op, replica)
	return v.apply(op, math.Inf(-1), control(replica))[0]
}

// Use switches the router to a fresh instance of policy now.
func (lv LiveView) Use(policy PolicySpec) LiveAction {
	const op = "LiveView.Use"
	check(op, policy.New != nil, "policy", policy, "a policy such as lab.LeastQueue()")
	return lv.state(op).apply(op, math.Inf(-1), live.Use(policy))[0]
}

// At applies events when simulated time reaches seconds, exactly as the
// same events in a scenario's timeline: a script of controls at fixed
// times gives the same run live as headless.
func (lv LiveView) At(seconds float64, events ...Event) LiveActions {
	const op = "LiveView.At"
	v := lv.state(op)
	check(op, len(events) > 0, "events", word("none"), "at least one event, such as lab.Fail(2)")
	cs := make([]live.Control, len(events))
	for i, e := range events {
		check(op, e.e.Kind != "", fmt.Sprintf("events[%d]", i), word("lab.Event{}"),
			"an event made by lab.SetRate, lab.ScaleRate, lab.Slow, lab.Restore, lab.Fail or lab.Recover")
		if e.e.Replica != 0 {
			v.checkReplica(op, e.e.Replica)
		}
		cs[i] = live.Control{Event: e.e}
	}
	return v.apply(op, v.checkAt(op, seconds), cs...)
}

// UseAt switches the router to a fresh instance of policy when simulated
// time reaches seconds.
func (lv LiveView) UseAt(seconds float64, policy PolicySpec) LiveAction {
	const op = "LiveView.UseAt"
	v := lv.state(op)
	check(op, policy.New != nil, "policy", policy, "a policy such as lab.LeastQueue()")
	return v.apply(op, v.checkAt(op, seconds), live.Use(policy))[0]
}

// checkAt checks a time given in seconds and returns it in ms.
func (v *liveState) checkAt(op string, seconds float64) float64 {
	now, end := v.now()/1000, v.end()/1000
	check(op, finite(seconds) && seconds >= now && seconds <= end, "seconds", seconds,
		fmt.Sprintf("a simulated time from now (%g s) to the end of the run (%g s)", now, end))
	return seconds * 1000
}

// Pause stops simulated time; Resume restarts it. Headless, time stands
// still between cells anyway.
func (lv LiveView) Pause() { lv.pause("LiveView.Pause", true) }

// Resume restarts simulated time after Pause.
func (lv LiveView) Resume() { lv.pause("LiveView.Resume", false) }

func (lv LiveView) pause(op string, pause bool) {
	v := lv.state(op)
	v.mu.Lock()
	defer v.mu.Unlock()
	v.checkRunning(op)
	switch {
	case v.headless:
	case pause:
		v.sess.Pause()
	default:
		v.sess.Resume()
	}
}

// Stop ends the view now and leaves its last state shown; no goroutine is
// left. Stopping a view that has ended does nothing.
func (lv LiveView) Stop() {
	v := lv.state("LiveView.Stop")
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.ended() != "" {
		return
	}
	why := fmt.Sprintf("stopped by Stop at %.2f s", v.now()/1000)
	v.note.Store(&why)
	if !v.headless {
		v.sess.Stop() // its goroutine shows the last frame
		return
	}
	sess, err := v.replay(v.script, v.cursor)
	if err != nil {
		fail("LiveView.Stop", err)
	}
	v.sess = sess
	v.show(sess.Frame(), true)
}

// Wait lets d of simulated time pass: while the view runs, it returns once
// the view has advanced by d (or ended); headless, it moves the view's
// time on by d, so that later controls take effect there.
func (lv LiveView) Wait(d time.Duration) {
	const op = "LiveView.Wait"
	v := lv.state(op)
	check(op, d > 0, "d", d, "a duration > 0 of simulated time, such as 2*time.Second")
	v.mu.Lock()
	v.checkRunning(op)
	if v.headless {
		v.cursor = math.Min(v.cursor+float64(d)/float64(time.Millisecond), v.end())
		v.mu.Unlock()
		return
	}
	sess := v.sess
	v.mu.Unlock()
	check(op, !sess.Frame().Paused, "live view", word("paused"), "a running view (call Resume first)")
	target := sess.Now() + float64(d)/float64(time.Millisecond)
	v.await(op, func() bool { return sess.Now() >= target })
}

// Finish runs the rest of the view at full speed and returns at its end.
func (lv LiveView) Finish() {
	const op = "LiveView.Finish"
	v := lv.state(op)
	v.mu.Lock()
	v.checkRunning(op)
	if v.headless {
		v.cursor = v.end()
		v.mu.Unlock()
		return
	}
	sess := v.sess
	v.mu.Unlock()
	if err := sess.SetSpeed(live.Fastest); err != nil {
		fail(op, err)
	}
	sess.Resume()
	v.await(op, func() bool { return false })
}

// await returns when reached() or the session has ended; an interrupted
// cell fails as interrupted.
func (v *liveState) await(op string, reached func() bool) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !reached() {
		select {
		case <-v.sess.Done():
			return
		case <-v.env.ctx().Done():
			fail(op, v.env.ctx().Err())
		case <-tick.C:
		}
	}
}

// Now is the view's simulated time in seconds (headless: where the
// notebook has brought it).
func (lv LiveView) Now() float64 {
	v := lv.state("LiveView.Now")
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.now() / 1000
}

// Actions lists the controls applied so far, in time order, as the
// recording holds them.
func (lv LiveView) Actions() LiveActions {
	v := lv.state("LiveView.Actions")
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.actions()
}

// Scenario is the view so far as a scenario: the one it started from with
// every control added to its timeline at the time it took effect. Run with
// the view's seed and Policy, it reproduces the view exactly, so
// lab.Compare(live.Scenario(), ...) compares policies on what was done.
func (lv LiveView) Scenario() *Scenario {
	const op = "LiveView.Scenario"
	v := lv.state(op)
	v.mu.Lock()
	s := v.sess.Scenario()
	v.mu.Unlock()
	// A burst's end beyond the run changes nothing in it.
	s.Events = slices.DeleteFunc(s.Events, func(e engine.Event) bool { return e.At > v.end() })
	out := &Scenario{scn: s, proto: *v.base.Measure, seeds: slices.Clone(v.scn.seeds)}
	if _, _, err := out.Engine(); err != nil {
		fail(op, err)
	}
	return out
}

// Policy is the view's routing: the policy it started with, switched at
// the times Use and UseAt took effect.
func (lv LiveView) Policy() PolicySpec {
	v := lv.state("LiveView.Policy")
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.sess.Policy()
}

// Result is the view's measurement once it has run to its end: exactly
// what lab.Run(live.Scenario(), live.Policy(), seed) measures.
func (lv LiveView) Result() *RunResult {
	const op = "LiveView.Result"
	v := lv.state(op)
	v.mu.Lock()
	sess := v.sess
	v.mu.Unlock()
	f := sess.Frame()
	check(op, f.Done && f.Now == v.end(), "live view", word(fmt.Sprintf("at %.2f s", f.Now/1000)),
		fmt.Sprintf("a view that has run to its end at %g s (wait for it, or call Finish)", v.end()/1000))
	r, err := sess.Result()
	if err != nil {
		fail(op, err)
	}
	return &RunResult{RunResult: r, env: v.env}
}
