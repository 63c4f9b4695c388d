package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/engine"
)

// shown records what a live view displays, as a notebook front end keeps
// it: every message, and the latest bundle per display id.
type shown struct {
	mu       sync.Mutex
	messages []shownMessage
}

type shownMessage struct {
	id     string
	update bool
	b      display.Bundle
}

func (s *shown) display(v any, id string, update bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages = append(s.messages, shownMessage{id, update, display.Of(v)})
}

func (s *shown) all() []shownMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]shownMessage(nil), s.messages...)
}

// env is a session's Env as a notebook front end that renders updates
// (headless false) or as routelab run (headless true) would bind it.
func liveEnv(headless bool) (*Env, *shown) {
	s := &shown{}
	return &Env{Display: s.display, Headless: func() bool { return headless }}, s
}

// measuredRun is a run's figures without the names (a recorded session's
// scenario and policy are named for what they are) as JSON: two runs are
// the same run when these bytes are equal.
func measuredRun(t *testing.T, r *RunResult) string {
	t.Helper()
	sum := r.RunSummary
	sum.Policy, sum.Scenario = "", ""
	b, err := json.Marshal(struct {
		S engine.RunSummary
		L engine.LatencyStats
		R []engine.ReplicaResult
		X []float64
	}{sum, r.Latency, r.PerReplica, r.Latencies})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// steer gives a view the specification's kind of script: controls at fixed
// simulated times, a burst, a failure and its recovery, a switch of policy.
func steer(lv *LiveView) {
	lv.At(4, SetRate(220))
	lv.At(6, Fail(2))
	lv.At(7.5, ScaleRate(1.5))
	lv.At(8.5, ScaleRate(1))
	lv.At(9, Recover(2))
	lv.UseAt(11, LeastQueue())
	lv.At(12.5, Slow(3, 4))
}

// A live view steered by a script of controls at fixed simulated times,
// running in real time with its display updating, equals the same timeline
// run headless by lab.Run, byte for byte; and so does its own recording.
func TestScriptedLiveViewEqualsItsTimeline(t *testing.T) {
	env, disp := liveEnv(false)
	scn := Straggler().Rate(150)
	lv := env.Live(scn, LatencyAware(), 7, Speed(10000))
	lv.Pause()
	steer(lv)
	lv.Resume()
	lv.Wait(15 * time.Second) // returns at the end

	live := lv.Result()

	timeline := scn.At(4, SetRate(220)).At(6, Fail(2)).At(7.5, ScaleRate(1.5)).At(8.5, ScaleRate(1)).At(9, Recover(2)).At(12.5, Slow(3, 4))
	policy := engine.Switching(LatencyAware(), []engine.PolicySwitch{{At: 11000, Policy: LeastQueue()}})
	for name, r := range map[string]*RunResult{
		"the scripted timeline":               Run(timeline, policy, 7),
		"the view's recording (lab.Run)":      Run(lv.Scenario(), lv.Policy(), 7),
		"the view's recording (lab.Compare)":  {RunResult: Compare(lv.Scenario().SeedList(7), lv.Policy()).Policies[0].Runs[0]},
		"the same script in a headless view":  headlessScripted(t, scn),
		"the same script outside any session": Background().Live(scn, LatencyAware(), 7).steered(),
	} {
		if a, b := measuredRun(t, live), measuredRun(t, r); a != b {
			t.Errorf("the live view and %s differ:\nlive: %.300s\nother: %.300s", name, a, b)
		}
	}
	acts := lv.Actions()
	if len(acts) != 7 || acts[0].String() != "rate 220 req/s at 4 s" || acts[5].String() != "least-queue routes at 11 s" {
		t.Errorf("actions recorded: %v", acts)
	}
	checkUpdates(t, disp.all(), 3)
}

// steered runs the script on a view outside any session.
func (lv *LiveView) steered() *RunResult {
	steer(lv)
	lv.Finish()
	return lv.Result()
}

func headlessScripted(t *testing.T, scn *Scenario) *RunResult {
	env, _ := liveEnv(true)
	lv := env.Live(scn, LatencyAware(), 7)
	steer(lv)
	return lv.Result()
}

// checkUpdates requires a first display and then at least min updates of
// it in place, each under the 20 KB an update may take as the kernel sends
// it (the bundle, metadata and display id, JSON as on the wire).
func checkUpdates(t *testing.T, msgs []shownMessage, min int) {
	t.Helper()
	if len(msgs) == 0 || msgs[0].update || msgs[0].id == "" {
		t.Fatalf("no first display with an id: %d messages", len(msgs))
	}
	updates := 0
	for _, m := range msgs[1:] {
		if m.id != msgs[0].id || !m.update {
			t.Errorf("a message for display %q (update %v), want updates of %q", m.id, m.update, msgs[0].id)
		}
		updates++
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]any{"data": m.b, "metadata": map[string]any{}, "transient": map[string]any{"display_id": m.id}}); err != nil {
			t.Fatal(err)
		}
		if buf.Len() > 20<<10 {
			t.Errorf("an update of %d bytes, over 20 KB", buf.Len())
		}
		if strings.Contains(buf.String(), "echarts") {
			t.Error("an update carries a charting library")
		}
	}
	if updates < min {
		t.Errorf("%d updates, want at least %d", updates, min)
	}
}

// Headless, a view's time stands still between controls (Wait moves it),
// the display always shows the run completed to its end, and two runs of
// the same steps show the same bytes.
func TestHeadlessViewIsDeterministic(t *testing.T) {
	steps := func() ([]shownMessage, *LiveView) {
		env, disp := liveEnv(true)
		lv := env.Live(Steady().Rate(150), Adaptive(), 3)
		lv.Wait(2 * time.Second)
		if a := lv.SetRate(260); a.At != 2000.5 {
			t.Errorf("SetRate after Wait(2 s) took effect at %v ms, want the next boundary, 2000.5", a.At)
		}
		lv.Wait(3 * time.Second)
		lv.Fail(2)
		lv.Use(LeastQueue())
		return disp.all(), lv
	}
	a, lv := steps()
	b, _ := steps()
	if len(a) != 4 || len(b) != len(a) {
		t.Fatalf("%d and %d messages, want a display and three updates", len(a), len(b))
	}
	for i := range a {
		if a[i].b.Text() != b[i].b.Text() || a[i].b[display.TextHTML] != b[i].b[display.TextHTML] {
			t.Errorf("message %d differs between runs:\n%s\n%s", i, a[i].b.Text(), b[i].b.Text())
		}
		if !strings.Contains(a[i].b.Text(), "15.00 s of 15 s, ended") {
			t.Errorf("message %d does not show the completed run:\n%s", i, a[i].b.Text())
		}
	}
	if lv.Now() != 5 {
		t.Errorf("headless, the view is at %v s after waiting 2 + 3 s", lv.Now())
	}
	res, replay := lv.Result(), Run(lv.Scenario(), lv.Policy(), 3)
	if measuredRun(t, res) != measuredRun(t, replay) {
		t.Error("the headless view and its recording differ")
	}
}

// Bad input is refused by the call that received it, as a ValueError that
// names the value and what is allowed; a view that has stopped takes no
// more controls.
func TestLiveViewRefusesBadInput(t *testing.T) {
	env, _ := liveEnv(false)
	lv := env.Live(Failure(), RoundRobin(), 1)
	defer lv.Stop()
	nan := math.NaN()
	cases := []struct {
		f    func()
		want string
	}{
		{func() { lv.Fail(99) }, "LiveView.Fail: replica: 99 is not allowed (want a replica id from 1 to 3)"},
		{func() { lv.Slow(0, 2) }, "LiveView.Slow: replica: 0 is not allowed"},
		{func() { lv.Slow(1, nan) }, "LiveView.Slow: factor: NaN is not allowed"},
		{func() { lv.SetRate(-1) }, "LiveView.SetRate: rps: -1 is not allowed"},
		{func() { lv.SetRate(nan) }, "LiveView.SetRate: rps: NaN is not allowed"},
		{func() { lv.Burst(2, -time.Second) }, "LiveView.Burst: d: -1s is not allowed"},
		{func() { lv.Burst(math.Inf(1), time.Second) }, "LiveView.Burst: factor: +Inf is not allowed"},
		{func() { lv.At(-1, Fail(1)) }, "LiveView.At: seconds: -1 is not allowed"},
		{func() { lv.UseAt(math.Inf(-1), LeastQueue()) }, "LiveView.UseAt: seconds: -Inf is not allowed"},
		{func() { lv.At(99, Fail(1)) }, "LiveView.At: seconds: 99 is not allowed (want a simulated time from now"},
		{func() { lv.At(5, Fail(7)) }, "LiveView.At: replica: 7 is not allowed"},
		{func() { lv.At(5, Event{}) }, "LiveView.At: events[0]: lab.Event{} is not allowed"},
		{func() { lv.Use(PolicySpec{}) }, "LiveView.Use: policy:"},
		{func() { lv.Wait(0) }, "LiveView.Wait: d: 0s is not allowed"},
		{func() { lv.Result() }, "LiveView.Result: live view: at "},
		{func() { Speed(-1) }, "lab.Speed: msPerSecond: -1 is not allowed"},
		{func() { env.Live(nil, RoundRobin(), 1) }, "lab.Live: scenario: nil is not allowed"},
		{func() { env.Live(Steady(), RoundRobin(), 0) }, "lab.Live: seed: 0 is not allowed"},
		{func() { env.Live(Steady(), RoundRobin(), 1, LiveOption{}) }, "lab.Live: opts:"},
		{func() { (LiveView{}).SetRate(1) }, "LiveView.SetRate: an empty live view"},
	}
	for _, c := range cases {
		e := panics(t, c.f)
		if !strings.HasPrefix(e.Error(), c.want) {
			t.Errorf("got %q, want it to start with %q", e.Error(), c.want)
		}
		if e.ErrorName() != "ValueError" && !strings.Contains(c.want, "empty") {
			t.Errorf("%q is a %s, want a ValueError", e.Error(), e.ErrorName())
		}
	}
	lv.Stop()
	for name, f := range map[string]func(){"SetRate": func() { lv.SetRate(10) }, "Pause": lv.Pause, "Fail": func() { lv.Fail(1) }} {
		e := panics(t, f)
		if !strings.Contains(e.Error(), "live view: stopped by Stop at ") || e.ErrorName() != "ValueError" {
			t.Errorf("%s after Stop: %s: %v", name, e.ErrorName(), e)
		}
	}
}

// Stop, and the end of the session's background context (an interrupt, a
// closed session), end a view's goroutine; the display's last frame says
// why, and the view takes no more controls.
func TestLiveViewEndsLeaveNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	env, disp := liveEnv(false)
	lv := env.Live(Steady(), Adaptive(), 1)
	time.Sleep(150 * time.Millisecond)
	lv.Stop()
	lv.Stop() // a second Stop does nothing

	ctx, cancel := context.WithCancel(context.Background())
	var work sync.WaitGroup
	env.Background = func() (context.Context, func()) { work.Add(1); return ctx, work.Done }
	lv2 := env.Live(Steady(), Adaptive(), 1)
	time.Sleep(150 * time.Millisecond)
	cancel()
	work.Wait()
	e := panics(t, func() { lv2.SetRate(50) })
	if !strings.Contains(e.Error(), "stopped by an interrupt") {
		t.Errorf("a control after an interrupt: %v", e)
	}
	waitGoroutines(t, before)

	notes := map[string]bool{}
	for _, m := range disp.all() {
		for _, n := range []string{"stopped by Stop at", "stopped by an interrupt"} {
			if strings.Contains(m.b.Text(), n) {
				notes[n] = true
			}
		}
	}
	if len(notes) != 2 {
		t.Errorf("the last frames say %v, want why each view stopped", notes)
	}
}

func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// An interrupted cell's Wait and Finish fail as interrupted.
func TestLiveViewWaitIsInterruptible(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	env, _ := liveEnv(false)
	env.Context = func() context.Context { return ctx }
	lv := env.Live(Steady(), Adaptive(), 1)
	defer lv.Stop()
	time.AfterFunc(50*time.Millisecond, cancel)
	e := panics(t, func() { lv.Wait(10 * time.Second) })
	if e.ErrorName() != "Interrupted" || !errors.Is(e, context.Canceled) {
		t.Errorf("Wait in an interrupted cell: %s: %v", e.ErrorName(), e)
	}
}
