package console

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The load of many pages: each streams its frames and posts a control every
// couple of seconds (rate, burst, straggler, fail, recover, policy). The
// clients run in a child process (this test binary again), so that the
// server's CPU time is its own.

// loadControls are the controls a loaded page cycles through, with the
// events each adds to its session's recording (a policy adds a switch).
var loadControls = []struct {
	body   string
	events int
}{
	{`{"action": "rate", "value": %d}`, 1},
	{`{"action": "burst"}`, 2},
	{`{"action": "straggler", "replica": 1}`, 2},
	{`{"action": "fail", "replica": 2}`, 1},
	{`{"action": "recover", "replica": 2}`, 1},
	{`{"action": "policy", "policy": "least-queue"}`, 1},
}

// loadReport is what the clients measured.
type loadReport struct {
	Pages      map[string]int // page id → events its controls added
	Sent, Acks int
	Refused    []string
	Frames     int
	DelayMs    []float64 // frame delivery: published to read
}

// TestLoadClients is the child process of the load runs; it does nothing in
// a plain `go test`.
func TestLoadClients(t *testing.T) {
	url := os.Getenv("ROUTELAB_CONSOLE_LOAD_URL")
	if url == "" {
		t.Skip("the clients of a load run (BenchmarkFiftyPages, TestFiftyPagesLoseNoControl)")
	}
	var pages int
	var every, seconds float64
	fmt.Sscanf(os.Getenv("ROUTELAB_CONSOLE_LOAD"), "%d %g %g", &pages, &every, &seconds)
	rep := runClients(t, &testConsole{url: url}, pages, time.Duration(every*float64(time.Second)), time.Duration(seconds*float64(time.Second)))
	json.NewEncoder(os.Stdout).Encode(rep)
}

func runClients(t testing.TB, c *testConsole, pages int, every, length time.Duration) loadReport {
	rep := loadReport{Pages: map[string]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	end := time.Now().Add(length)
	for i := range pages {
		cl := c.openPage(t, 0)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := loadPage(cl, i, every, end)
			mu.Lock()
			defer mu.Unlock()
			rep.Pages[cl.id] = r.Pages[cl.id]
			rep.Sent += r.Sent
			rep.Acks += r.Acks
			rep.Frames += r.Frames
			rep.Refused = append(rep.Refused, r.Refused...)
			rep.DelayMs = append(rep.DelayMs, r.DelayMs...)
		}()
	}
	wg.Wait()
	return rep
}

// loadPage reads one page's stream until end, posting a control every
// interval (from a random offset), and waits for the last acks.
func loadPage(cl *client, n int, every time.Duration, end time.Time) loadReport {
	rep := loadReport{Pages: map[string]int{}}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	next := time.Now().Add(time.Duration(rng.Int64N(int64(every))))
	sent := 0
	for {
		now := time.Now()
		if now.After(end) && rep.Acks+len(rep.Refused) == sent {
			return rep
		}
		if now.After(next) && now.Before(end) {
			ctl := loadControls[sent%len(loadControls)]
			body := ctl.body
			if strings.Contains(body, "%d") {
				body = fmt.Sprintf(body, 80+10*rng.IntN(12))
			}
			sent++
			rep.Sent++
			rep.Pages[cl.id] += ctl.events
			go cl.control(strings.Replace(body, "{", fmt.Sprintf(`{"seq": %d, `, sent), 1))
			next = next.Add(every)
		}
		select {
		case ev, ok := <-cl.events:
			if !ok {
				rep.Refused = append(rep.Refused, "the stream ended")
				return rep
			}
			switch ev.name {
			case "frame":
				var m struct {
					Published float64 `json:"published_unix_ms"`
				}
				json.Unmarshal(ev.data, &m)
				rep.Frames++
				rep.DelayMs = append(rep.DelayMs, float64(ev.at.UnixMicro())/1000-m.Published)
			case "ack":
				rep.Acks++
			case "control-error":
				rep.Refused = append(rep.Refused, string(ev.data))
			}
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// load runs pages clients for length against a console in this process,
// checks that every control was acknowledged and recorded, and returns
// what the clients saw and what the server used.
func load(t testing.TB, pages int, every, length time.Duration) (loadReport, serverUse) {
	c := startConsole(t, Config{MaxPages: pages, Grace: 5 * time.Second})
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoadClients$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ROUTELAB_CONSOLE_LOAD_URL="+c.url,
		fmt.Sprintf("ROUTELAB_CONSOLE_LOAD=%d %g %g", pages, every.Seconds(), length.Seconds()))
	cmd.Stderr = os.Stderr
	sampler := startSampling()
	out, err := cmd.Output()
	use := sampler.stop()
	if err != nil {
		t.Fatalf("the clients: %v\n%s", err, out)
	}
	var rep loadReport
	if err := json.Unmarshal(out[:strings.IndexByte(string(out), '\n')+1], &rep); err != nil {
		t.Fatalf("the clients' report: %v\n%s", err, out)
	}
	if rep.Acks != rep.Sent || len(rep.Refused) > 0 {
		t.Errorf("%d controls sent, %d acknowledged, refused: %v", rep.Sent, rep.Acks, rep.Refused)
	}
	checked := 0
	for id, want := range rep.Pages {
		c.srv.mu.Lock()
		p := c.srv.pages[id] // the clients have gone; their pages stay for the grace period
		c.srv.mu.Unlock()
		if p == nil {
			t.Errorf("page %s was freed before its recording was checked", id[:8])
			continue
		}
		checked++
		rec := p.session().Recording()
		if got := len(rec.Scenario.Events) + len(rec.Session.Switches); got != want {
			t.Errorf("page %s recorded %d events, its controls made %d", id[:8], got, want)
		}
	}
	if checked != pages {
		t.Errorf("%d pages checked of %d", checked, pages)
	}
	return rep, use
}

// serverUse is what the server process used during a load run.
type serverUse struct {
	cpu       time.Duration
	wall      time.Duration
	peakHeap  uint64 // bytes, live heap objects
	peakTotal uint64 // bytes, all memory the Go runtime mapped
}

type sampler struct {
	start     time.Time
	cpu0      time.Duration
	done      chan serverUse
	stopAsked chan struct{}
}

// startSampling records the process's CPU time from now and samples its
// memory every 100 ms.
func startSampling() *sampler {
	s := &sampler{start: time.Now(), cpu0: cpuTime(), done: make(chan serverUse), stopAsked: make(chan struct{})}
	go func() {
		samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
		var use serverUse
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(samples)
			use.peakHeap = max(use.peakHeap, samples[0].Value.Uint64())
			use.peakTotal = max(use.peakTotal, samples[1].Value.Uint64())
			select {
			case <-s.stopAsked:
				use.cpu, use.wall = cpuTime()-s.cpu0, time.Since(s.start)
				s.done <- use
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

func (s *sampler) stop() serverUse {
	close(s.stopAsked)
	return <-s.done
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// Fifty pages stream for a few seconds, each posting controls: none is
// lost, every one is recorded in its own page's session.
func TestFiftyPagesLoseNoControl(t *testing.T) {
	if testing.Short() {
		t.Skip("a load run")
	}
	rep, _ := load(t, 50, time.Second, 4*time.Second)
	if rep.Sent < 50 || rep.Frames < 50 { // not a measure of speed: that the load ran at all
		t.Errorf("%d controls, %d frames: the load did not run", rep.Sent, rep.Frames)
	}
}

// BenchmarkFiftyPages is the load: 50 pages for 30 s at the default
// dilation, each posting a control every 2 s. It reports the server's CPU
// per page (% of one core), its peak memory and frame delivery, and fails
// only if a control is lost.
func BenchmarkFiftyPages(b *testing.B) {
	const pages, length = 50, 30 * time.Second
	for b.Loop() {
		before := startSampling().stop()
		rep, use := load(b, pages, 2*time.Second, length)
		perPage := 100 * use.cpu.Seconds() / use.wall.Seconds() / pages
		b.ReportMetric(perPage, "%core/page")
		b.ReportMetric(float64(use.peakHeap)/1e6, "peak-heap-MB")
		b.ReportMetric(float64(use.peakTotal)/1e6, "peak-total-MB")
		b.ReportMetric(percentile(rep.DelayMs, 0.99), "p99-delivery-ms")
		b.Logf("%d pages for %v: server CPU %v (%.3f %% of a core per page); peak heap %.1f MB (%.1f MB before), peak Go memory %.1f MB (%.1f MB before); "+
			"%d frames, delivery p50 %.2f ms, p99 %.2f ms, max %.2f ms; %d controls sent, %d acknowledged, %d refused",
			pages, length, use.cpu.Round(time.Millisecond), perPage, float64(use.peakHeap)/1e6, float64(before.peakHeap)/1e6,
			float64(use.peakTotal)/1e6, float64(before.peakTotal)/1e6, rep.Frames, percentile(rep.DelayMs, 0.5),
			percentile(rep.DelayMs, 0.99), percentile(rep.DelayMs, 1), rep.Sent, rep.Acks, len(rep.Refused))
	}
}
