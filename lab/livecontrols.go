package lab

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/live"
)

// The methods of a live view: controls, time, and what it recorded.

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
	return v.apply(op, atMs(op, seconds), cs...)
}

// UseAt switches the router to a fresh instance of policy when simulated
// time reaches seconds.
func (lv LiveView) UseAt(seconds float64, policy PolicySpec) LiveAction {
	const op = "LiveView.UseAt"
	v := lv.state(op)
	check(op, policy.New != nil, "policy", policy, "a policy such as lab.LeastQueue()")
	return v.apply(op, atMs(op, seconds), live.Use(policy))[0]
}

// atMs is a time given to At or UseAt in ms; apply checks it against the
// view (an infinite one would mean now there).
func atMs(op string, seconds float64) float64 {
	check(op, finite(seconds), "seconds", seconds, "a simulated time from now to the end of the run")
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
			// An interrupt ends the view and the cell at once: the cell
			// says it was interrupted, not that the view ran out.
			if err := v.env.ctx().Err(); err != nil {
				fail(op, err)
			}
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
