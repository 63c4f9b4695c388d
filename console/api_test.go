package console

import (
	"encoding/json"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/plot"
)

// fast resets a page to a dilation tests need not wait for.
func (cl *client) fast(extra string) {
	cl.t.Helper()
	body := `{"seq": 1, "action": "reset", "setup": {"scenario": "steady", "rate_rps": 150, "heterogeneity": "default", "replicas": 3, "seed": 4, "speed": 2000, "policy": "adaptive"` + extra + `}}`
	if code, out := cl.control(body); code != http.StatusOK {
		cl.t.Fatalf("reset: %d %s", code, out)
	}
}

// A page learns its policies (Adaptive in the accent colour) and streams
// frames whose simulated time advances; controls are acknowledged on its
// stream and show in the frames that follow.
func TestPageStreamsAndControls(t *testing.T) {
	c := startConsole(t, Config{})
	cl := c.openPage(t, 0)
	var h hello
	if err := json.Unmarshal(cl.next("hello", 5*time.Second).data, &h); err != nil {
		t.Fatal(err)
	}
	colors := map[string]string{}
	for _, p := range h.Policies {
		colors[p.Name] = p.Color
	}
	if colors["adaptive"] != plot.AccentColor || len(h.Policies) != len(engine.PolicyNames()) || h.Protocol != "10 seeds, 3 s warm-up + 12 s measured, SLO 50 ms" {
		t.Errorf("hello: %+v", h)
	}
	var st stateMessage
	json.Unmarshal(cl.next("state", 5*time.Second).data, &st)
	if st.Setup != defaultSetup() || st.Setup.Speed != 120 || len(st.Timeline) != 0 {
		t.Errorf("state: %+v", st)
	}
	first := cl.frame(5 * time.Second)
	if first.Policy != "adaptive" || len(first.Replicas) != 3 || first.Speed != 120 {
		t.Errorf("first frame: %+v", first)
	}
	cl.fast("")
	for _, ctl := range []string{
		`{"seq": 2, "action": "rate", "value": 260}`,
		`{"seq": 3, "action": "fail", "replica": 2}`,
		`{"seq": 4, "action": "policy", "policy": "least-queue"}`,
	} {
		if code, out := cl.control(ctl); code != http.StatusOK {
			t.Fatalf("%s: %d %s", ctl, code, out)
		}
	}
	for seq := 1; seq <= 4; seq++ { // the reset, then the controls
		var ack struct{ Seq int }
		json.Unmarshal(cl.next("ack", 5*time.Second).data, &ack)
		if ack.Seq != seq {
			t.Errorf("ack %d, want %d", ack.Seq, seq)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		f := cl.frame(5 * time.Second)
		if f.Rate == 260 && !f.Replicas[1].Healthy && f.Policy == "least-queue" {
			if f.Replicas[1].Waiting != 0 {
				t.Errorf("failed replica 2 still has %d waiting", f.Replicas[1].Waiting)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the controls never showed: %+v", f)
		}
	}
}

// Bad control messages get an error event on their own page only, change
// nothing, and the session keeps running.
func TestBadControlsErrOnTheirPageOnly(t *testing.T) {
	c := startConsole(t, Config{})
	cl, other := c.openPage(t, 0), c.openPage(t, 0)
	cl.fast("")
	cases := []struct{ body, want string }{
		{`{"action": "fail", "replica": 2`, `is not one: unexpected EOF`},
		{`{"action": "explode"}`, `action: "explode" is not allowed (want one of rate, speed, burst, straggler, fail, recover, policy, pause, resume, visibility, reset)`},
		{`{"seq": 7, "action": "fail", "replica": 99}`, `fail: replica: 99 is not allowed (want a replica id from 1 to 3)`},
		{`{"action": "rate", "value": -1}`, `rate: value: -1 is not allowed (want a rate in req/s from 1 to 1000)`},
		{`{"action": "rate", "value": NaN}`, `invalid character 'N' looking for beginning of value`},
		{`{"action": "rate", "value": "NaN"}`, `rate: value: "NaN" is not allowed`},
		{`{"action": "rate", "value": 1e999}`, `rate: value: 1e999 is not allowed`},
		{`{"action": "fail"}`, `fail: replica is missing (want a replica id from 1 to 3)`},
		{`{"action": "pause", "replica": 1}`, `pause: field "replica" is not allowed (pause takes no other field)`},
		{`{"action": "policy", "policy": "nope"}`, `policy: policy: "nope" is not allowed (want one of round-robin`},
		{`{"action": "reset", "setup": {"scenario": "steady", "rate_rps": 100, "heterogeneity": "medium", "replicas": 3, "seed": 1, "speed": 120, "policy": "adaptive"}}`, `reset: heterogeneity: "medium" is not allowed (want default or high)`},
		{`{"action": "fail", "replica": 2, "bomb": 1}`, `unknown field "bomb"`},
		{`{"action": "rate", "value": 200} {"action": "rate"}`, `data after the object`},
		{`{"action": "rate", "value": "` + strings.Repeat("9", 70<<10) + `"}`, `a message of more than 65536 bytes refused`},
	}
	before := cl.frame(5 * time.Second).Now
	for _, tc := range cases {
		code, out := cl.control(tc.body)
		var resp struct{ Error string }
		json.Unmarshal([]byte(out), &resp)
		if code != http.StatusBadRequest || !strings.Contains(resp.Error, tc.want) {
			t.Errorf("%.60s: %d %q\nwant %q", tc.body, code, resp.Error, tc.want)
		}
		var ev struct{ Error string }
		json.Unmarshal(cl.next("control-error", 5*time.Second).data, &ev)
		if ev.Error != resp.Error {
			t.Errorf("%.60s: the page's error event says %q, the response %q", tc.body, ev.Error, resp.Error)
		}
	}
	if f := cl.frame(5 * time.Second); f.Now <= before || f.Rate != 150 || !f.Replicas[1].Healthy || f.Done {
		t.Errorf("after the bad controls: %+v (before: %v ms)", f, before)
	}
	timeout := time.After(300 * time.Millisecond)
	for {
		select {
		case ev := <-other.events:
			if ev.name == "control-error" {
				t.Fatalf("another page got the error: %s", ev.data)
			}
		case <-timeout:
			return
		}
	}
}

// Closing a page (its stream) frees its simulation within the grace
// period: no page and no session goroutine is left.
func TestClosingAPageFreesIt(t *testing.T) {
	before := runtime.NumGoroutine()
	c := startConsole(t, Config{}) // the default grace period
	cl := c.openPage(t, 0)
	cl.frame(5 * time.Second)
	if n := c.pageCount(); n != 1 {
		t.Fatalf("%d pages", n)
	}
	closed := time.Now()
	cl.stop()
	for c.pageCount() > 0 {
		if time.Since(closed) > 5*time.Second {
			t.Fatal("the page was not freed within 5 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("freed %v after the page closed", time.Since(closed).Round(time.Millisecond))
	http.DefaultClient.CloseIdleConnections()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) { // the server's own listener goroutines
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		t.Errorf("%d goroutines after freeing, %d before the console", n, before)
	}
	code, out := cl.control(`{"action": "pause"}`)
	if code != http.StatusNotFound || !strings.Contains(out, "reload the page") {
		t.Errorf("a control for a freed page: %d %s", code, out)
	}
}

// A page that never connects its stream is freed too.
func TestUnconnectedPageIsFreed(t *testing.T) {
	c := startConsole(t, Config{Grace: 200 * time.Millisecond})
	var created struct{ ID string }
	postJSON(t, c.url+"/api/pages", "{}", &created)
	deadline := time.Now().Add(3 * time.Second)
	for c.pageCount() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("a page without a stream was never freed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestPageLimit(t *testing.T) {
	c := startConsole(t, Config{MaxPages: 2})
	for i := 0; i < 2; i++ {
		c.openPage(t, 0)
	}
	var resp struct{ Error string }
	if code := postJSON(t, c.url+"/api/pages", "{}", &resp); code != http.StatusServiceUnavailable || !strings.Contains(resp.Error, "2 console pages are open") {
		t.Errorf("a third page: %d %q", code, resp.Error)
	}
}

// A page that prefers reduced motion asks for at most a frame a second and
// gets no more.
func TestReducedMotionStreamsAFrameASecond(t *testing.T) {
	c := startConsole(t, Config{})
	cl := c.openPage(t, time.Second)
	cl.frame(5 * time.Second)
	start := time.Now()
	var times []time.Duration
	for len(times) < 3 {
		cl.frame(5 * time.Second)
		times = append(times, time.Since(start))
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i] - times[i-1]; gap < 900*time.Millisecond {
			t.Errorf("frames %v apart, want about a second: %v", gap, times)
		}
	}
}

// Pausing, or a hidden page, stops simulated time; frames stop repeating.
func TestPauseAndHiddenStopTime(t *testing.T) {
	c := startConsole(t, Config{})
	cl := c.openPage(t, 0)
	cl.fast("")
	for _, pause := range []string{`{"action": "pause"}`, `{"action": "visibility", "hidden": true}`} {
		if code, out := cl.control(pause); code != http.StatusOK {
			t.Fatal(out)
		}
		time.Sleep(200 * time.Millisecond)
		at := cl.page().session().Now()
		time.Sleep(300 * time.Millisecond)
		if now := cl.page().session().Now(); now != at {
			t.Errorf("%s: simulated time went from %v to %v ms", pause, at, now)
		}
		cl.control(`{"action": "resume"}`)
		cl.control(`{"action": "visibility", "hidden": false}`)
	}
	cl.control(`{"action": "visibility", "hidden": true}`)
	cl.control(`{"action": "resume"}`) // a hidden page stays paused
	at := cl.page().session().Now()
	time.Sleep(300 * time.Millisecond)
	if now := cl.page().session().Now(); now != at {
		t.Errorf("resumed while hidden: simulated time went from %v to %v ms", at, now)
	}
}

// page finds the client's page on the server.
func (cl *client) page() *page {
	cl.t.Helper()
	cl.console.srv.mu.Lock()
	defer cl.console.srv.mu.Unlock()
	p, ok := cl.console.srv.pages[cl.id]
	if !ok {
		cl.t.Fatalf("no page %s", cl.id)
	}
	return p
}
