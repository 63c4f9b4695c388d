package symbols_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
)

// idSink records displays with their ids, as a front end keeps them; it is
// headless when told to be (as routelab run's and nbconvert's are).
type idSink struct {
	headless bool
	mu       sync.Mutex
	out      strings.Builder
	shown    []idDisplay
}

type idDisplay struct {
	id     string
	update bool
	b      display.Bundle
}

func (s *idSink) Headless() bool     { return s.headless }
func (s *idSink) Clear(bool)         {}
func (s *idSink) Stream(_, t string) { s.mu.Lock(); s.out.WriteString(t); s.mu.Unlock() }
func (s *idSink) Display(b display.Bundle, id string, update bool) {
	s.mu.Lock()
	s.shown = append(s.shown, idDisplay{id, update, b})
	s.mu.Unlock()
}

func (s *idSink) displays() []idDisplay {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]idDisplay(nil), s.shown...)
}

// run executes a cell in s with sink k; it must succeed.
func run(t *testing.T, s *dsl.Session, k *idSink, code string) display.Bundle {
	t.Helper()
	b, err := s.Execute(context.Background(), code, k)
	if err != nil {
		t.Fatalf("cell failed: %v\n%s", err, code)
	}
	return b
}

// measuredCell defines measured: a run's figures without names, as JSON.
const measuredCell = `import (
	"encoding/json"
	"time"

	"github.com/routelab/routelab/engine"
)

func measured(r *lab.RunResult) string {
	s := r.RunSummary
	s.Policy, s.Scenario = "", ""
	b, err := json.Marshal([]any{s, r.Latency, r.PerReplica, r.Latencies})
	if err != nil {
		return err.Error()
	}
	return string(b)
}`

// A live view started in a cell and steered by later cells with a script
// of controls at fixed simulated times — with an interpreted policy the
// view's goroutine calls back into the cells while other cells run —
// equals the same timeline run headless by lab.Run, byte for byte. Its
// display updates in place, between cells through the session's
// background sink.
func TestLiveViewInCellsEqualsItsTimeline(t *testing.T) {
	s := newSession(t)
	bg := &idSink{}
	s.SetBackgroundSink(bg)
	k := &idSink{}
	run(t, s, k, measuredCell)
	run(t, s, k, `scn := lab.Straggler().Rate(150)
cost := lab.Policy("queue-x-ewma", func(r lab.Replica) float64 { return float64(r.Outstanding+1) * r.ServiceEWMA })
live := lab.Live(scn, cost, 7, lab.Speed(10000))
live.Pause()`)
	run(t, s, k, `live.At(4, lab.SetRate(220))
live.At(6, lab.Fail(2))
live.At(7.5, lab.ScaleRate(1.5))
live.At(8.5, lab.ScaleRate(1))
live.At(9, lab.Recover(2))
live.UseAt(11, lab.LeastQueue())
live.At(12.5, lab.Slow(3, 4))
live.Resume()`)
	// Interpreted code runs in this cell while the view calls the policy.
	run(t, s, k, `n := 0
for i := 0; i < 2000000; i++ {
	n += i % 7
}
n`)
	time.Sleep(300 * time.Millisecond) // the view updates between cells
	run(t, s, k, `live.Wait(15 * time.Second)`)
	run(t, s, k, `timeline := scn.At(4, lab.SetRate(220)).At(6, lab.Fail(2)).At(7.5, lab.ScaleRate(1.5)).At(8.5, lab.ScaleRate(1)).At(9, lab.Recover(2)).At(12.5, lab.Slow(3, 4))
policy := engine.Switching(cost, []engine.PolicySwitch{{At: 11000, Policy: lab.LeastQueue()}})`)
	for _, cell := range []string{
		`measured(live.Result()) == measured(lab.Run(timeline, policy, 7))`,
		`measured(live.Result()) == measured(lab.Run(live.Scenario(), live.Policy(), 7))`,
	} {
		if got := run(t, s, k, cell).Text(); got != "true" {
			live, other := run(t, s, k, `measured(live.Result())`).Text(), run(t, s, k, strings.Split(cell, " == ")[1]).Text()
			t.Errorf("%s: %s\nlive:  %.300s\nother: %.300s", cell, got, live, other)
		}
	}

	first := k.displays()
	if len(first) == 0 || first[0].update || !strings.HasPrefix(first[0].id, "routelab-live-") {
		t.Fatalf("the cell that started the view did not display it with an id: %+v", first)
	}
	between := 0
	for _, d := range bg.displays() {
		if d.id != first[0].id || !d.update {
			t.Errorf("a background display %q (update %v), want updates of %q", d.id, d.update, first[0].id)
		}
		between++
	}
	if between == 0 {
		t.Error("the view did not update between cells")
	}
	// The view ended while Wait's cell ran: its last frame went to that cell.
	if text := first[len(first)-1].b.Text(); !strings.Contains(text, "15.00 s of 15 s, ended") {
		t.Errorf("the last update of the view: %s", text)
	}
}

// Headless (routelab run, nbconvert), a live view shows its run completed
// at once; controls from later cells take effect where Wait brought it and
// update the first cell's display in place.
func TestLiveViewHeadlessInCells(t *testing.T) {
	s := newSession(t)
	k := &idSink{headless: true}
	run(t, s, k, `import "time"`)
	run(t, s, k, `live := lab.Live(lab.Steady().Rate(150), lab.Adaptive(), 7)`)
	shown := k.displays()
	if len(shown) != 1 || !strings.Contains(shown[0].b.Text(), "15.00 s of 15 s, ended") {
		t.Fatalf("headless, the view shows %+v", shown)
	}
	if got := run(t, s, k, "live.Wait(2 * time.Second)\nlive.SetRate(250)").Text(); got != "rate 250 req/s at 2.0005 s" {
		t.Errorf("SetRate shows %q", got)
	}
	shown = k.displays()
	if len(shown) != 2 || !shown[1].update || shown[1].id != shown[0].id || !strings.Contains(shown[1].b.Text(), "rate 250 req/s") {
		t.Errorf("the control did not update the view in place: %+v", shown)
	}
	e := failsIn(t, s, k, `live.Fail(99)`)
	if e.Name != "ValueError" || !strings.Contains(e.Value, "replica: 99 is not allowed (want a replica id from 1 to 3)") {
		t.Errorf("a control naming replica 99: %s: %s", e.Name, e.Value)
	}
}

func failsIn(t *testing.T, s *dsl.Session, k display.Sink, code string) *display.Error {
	t.Helper()
	_, err := s.Execute(context.Background(), code, k)
	de, ok := err.(*display.Error)
	if !ok {
		t.Fatalf("cell gave %v, want a *display.Error\n%s", err, code)
	}
	return de
}

// Interrupting the session (whether or not a cell runs), Stop and closing
// the session each end a live view with no goroutine left; a control after
// the end fails as a ValueError saying why.
func TestLiveViewEndsWithInterruptStopAndClose(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := &idSink{}
	run(t, s, k, `import "time"`)
	idle := runtime.NumGoroutine()

	run(t, s, k, `live := lab.Live(lab.Steady(), lab.Adaptive(), 1)`)
	time.Sleep(100 * time.Millisecond)
	s.Interrupt() // no cell runs: the ■ button between cells
	settle(t, idle, "an interrupt between cells")
	if e := failsIn(t, s, k, `live.SetRate(50)`); e.Name != "ValueError" || !strings.Contains(e.Value, "live view: stopped by an interrupt is not allowed") {
		t.Errorf("a control after an interrupt: %s: %s", e.Name, e.Value)
	}

	run(t, s, k, `live = lab.Live(lab.Steady(), lab.Adaptive(), 1)`)
	time.AfterFunc(150*time.Millisecond, s.Interrupt)
	if e := failsIn(t, s, k, `live.Wait(10 * time.Second)`); e.Name != "Interrupted" {
		t.Errorf("an interrupted Wait: %s: %s", e.Name, e.Value)
	}
	settle(t, idle, "an interrupt of a cell waiting on the view")

	run(t, s, k, `live = lab.Live(lab.Steady(), lab.Adaptive(), 1)`)
	run(t, s, k, `live.Stop()`)
	settle(t, idle, "Stop")
	if e := failsIn(t, s, k, `live.Fail(1)`); e.Name != "ValueError" || !strings.Contains(e.Value, "stopped by Stop at") {
		t.Errorf("a control after Stop: %s: %s", e.Name, e.Value)
	}

	run(t, s, k, `live = lab.Live(lab.Steady(), lab.Adaptive(), 1)`)
	s.Close() // a kernel restart ends the worker's session
	settle(t, before, "closing the session")
}

// settle waits for the goroutines to return to n.
func settle(t *testing.T, n int, after string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := runtime.NumGoroutine(); got > n {
		buf := make([]byte, 1<<16)
		t.Errorf("after %s: %d goroutines, %d before:\n%s", after, got, n, buf[:runtime.Stack(buf, true)])
	}
}
