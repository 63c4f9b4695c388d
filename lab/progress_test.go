package lab

import (
	"strings"
	"testing"
	"time"
)

type shownLine struct {
	line   progressLine
	id     string
	update bool
}

// A progress line appears after a second, is redrawn at most every 250
// ms under the same display id, and ends as the totals; headless work
// shows none.
func TestProgressView(t *testing.T) {
	var shown []shownLine
	e := &Env{
		Display:  func(v any, id string, update bool) { shown = append(shown, shownLine{v.(progressLine), id, update}) },
		Headless: func() bool { return false },
	}
	p := e.progress("lab.Compare")
	clock := p.start
	p.now = func() time.Time { return clock }
	at := func(d time.Duration, done int) {
		clock = p.start.Add(d)
		p.update(done, 400)
	}
	at(500*time.Millisecond, 10)
	if len(shown) != 0 {
		t.Fatalf("shown before a second: %+v", shown)
	}
	at(1200*time.Millisecond, 40)
	at(1300*time.Millisecond, 45)
	at(1500*time.Millisecond, 60)
	at(10*time.Second, 400)
	p.finish()
	if len(shown) != 3 {
		t.Fatalf("shown %d times, want 3 (first line, one redraw, the totals): %+v", len(shown), shown)
	}
	if shown[0].update || !shown[1].update || !shown[2].update || shown[0].id != shown[2].id || shown[0].id == "" {
		t.Errorf("display ids and updates: %+v", shown)
	}
	if got, want := shown[0].line.String(), "lab.Compare: 40/400 runs (10%), 1s elapsed, 33.3 runs/s, about 11s left"; got != want {
		t.Errorf("first line %q, want %q", got, want)
	}
	if got, want := shown[2].line.String(), "lab.Compare: 400 runs in 10s (40.0 runs/s)"; got != want {
		t.Errorf("totals %q, want %q", got, want)
	}
	if !strings.Contains(shown[1].line.HTML(), `<progress value="60" max="400"`) || strings.Contains(shown[2].line.HTML(), "<progress") {
		t.Errorf("HTML %q then %q", shown[1].line.HTML(), shown[2].line.HTML())
	}
	if q := e.progress("again"); q.id == p.id {
		t.Errorf("two progress lines share the display id %s", p.id)
	}
	e.Headless = func() bool { return true }
	if e.progress("lab.Compare") != nil {
		t.Error("headless work has a progress line")
	}
}

// Work interrupted after its line appeared ends saying how far it got;
// work that ended within a second leaves no line.
func TestProgressInterruptedAndQuick(t *testing.T) {
	var shown []progressLine
	e := &Env{Display: func(v any, _ string, _ bool) { shown = append(shown, v.(progressLine)) }, Headless: func() bool { return false }}
	p := e.progress("lab.Sweep")
	clock := p.start.Add(2 * time.Second)
	p.now = func() time.Time { return clock }
	p.update(120, 400)
	p.finish()
	if len(shown) != 2 || shown[1].String() != "lab.Sweep: interrupted after 120 of 400 runs (2s)" {
		t.Errorf("interrupted: %+v", shown)
	}
	shown = nil
	q := e.progress("lab.Compare")
	q.update(400, 400)
	q.finish()
	if len(shown) != 0 {
		t.Errorf("quick work showed %+v", shown)
	}
}
