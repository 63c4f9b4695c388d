package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/plot"
)

// updateBudget is the most one update of a live view may send.
const updateBudget = 20 << 10

// busyFrame is the last frame of a real session driven into overload:
// traffic far above capacity fills every queue, and a replica has failed.
func busyFrame(t testing.TB, replicas int) Frame {
	t.Helper()
	scn := engine.NewScenario("overload <script>")
	scn.Speeds = make([]float64, replicas)
	for i := range scn.Speeds {
		scn.Speeds[i] = float64(8 + i%9)
	}
	scn.Rate = float64(replicas) * 400
	scn.Events = []engine.Event{{At: 1500, Kind: engine.EventFail, Replica: 2}}
	sess, err := Start(context.Background(), Options{Scenario: scn, Policy: engine.RoundRobin(), Seed: 1, Speed: Fastest, Until: 2000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Wait(); err != nil {
		t.Fatal(err)
	}
	f := sess.Frame()
	full := 0
	for _, r := range f.Replicas {
		if r.Waiting == scn.QueueCap {
			full++
		}
	}
	if f.Replicas[1].Healthy || full < replicas-1 {
		t.Fatalf("the frame is not busy: replica 2 healthy %v, %d of %d queues full", f.Replicas[1].Healthy, full, replicas)
	}
	return f
}

// An update — the HTML picture and the text — stays under 20 KB on the
// busiest frames: every queue full, a replica failed, and a cluster too
// wide to draw whole; what is not drawn is counted.
func TestViewOfABusyFrameFitsTheUpdateBudget(t *testing.T) {
	for _, replicas := range []int{3, 64} {
		f := busyFrame(t, replicas)
		v := View{Seed: 1, Until: 2000, Note: "a note"}
		h, text := v.HTML(f), v.Text(f)
		size := wireSize(t, h, text)
		t.Logf("%d replicas: %d bytes of HTML, %d of text, %d bytes as an update_display_data message", replicas, len(h), len(text), size)
		if size > updateBudget {
			t.Errorf("%d replicas: an update of %d bytes, over the %d-byte budget", replicas, size, updateBudget)
		}
		drawn := strings.Count(h, "h6v12h-6z")
		if want := min(replicas, maxLanes) * maxMarks; drawn != want-maxMarks+min(len(f.Replicas[1].Requests), maxMarks) {
			t.Errorf("%d replicas: %d marks drawn, want %d per lane drawn (replica 2 has %d requests)", replicas, drawn, maxMarks, len(f.Replicas[1].Requests))
		}
		if !strings.Contains(h, "+11") { // 1 in flight + 50 waiting, 40 drawn
			t.Errorf("%d replicas: the requests not drawn are not counted", replicas)
		}
		if hidden := replicas - maxLanes; hidden > 0 {
			for _, s := range []string{h, text} {
				if !strings.Contains(s, "more replicas") {
					t.Errorf("%d replicas: the replicas not drawn are not counted in %.200q", replicas, s)
				}
			}
		}
		if !strings.Contains(h, "R2 failed") || !strings.Contains(text, "replica 2: failed") {
			t.Errorf("%d replicas: the failed replica is not marked", replicas)
		}
		if strings.Contains(h, "<script") || !strings.Contains(h, "overload &lt;script&gt;") {
			t.Errorf("%d replicas: the scenario name is not escaped", replicas)
		}
	}
}

// docs/console.md quotes the size of the busiest updates; it says what
// the view sends, to the 0.1 KB (1,000 bytes) it is rounded to.
func TestConsolePageStatesTheUpdateSizes(t *testing.T) {
	doc, err := os.ReadFile("../docs/console.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`measures ([\d.]+) KB for 3 replicas and ([\d.]+) KB for 64`).FindStringSubmatch(string(doc))
	if m == nil {
		t.Fatal(`docs/console.md no longer says "measures … KB for 3 replicas and … KB for 64": update this test with the page`)
	}
	for i, replicas := range []int{3, 64} {
		stated, err := strconv.ParseFloat(m[i+1], 64)
		if err != nil {
			t.Fatal(err)
		}
		f := busyFrame(t, replicas)
		v := View{Seed: 1, Until: 2000, Note: "a note"}
		size := float64(wireSize(t, v.HTML(f), v.Text(f))) / 1000
		if math.Abs(size-stated) > 0.05 {
			t.Errorf("docs/console.md says %s KB for %d replicas; the update is %.2f KB", m[i+1], replicas, size)
		}
	}
}

// wireSize is the size of an update_display_data message carrying the
// picture and the text, as the kernel sends it: its content as JSON (HTML
// not escaped) and, generously, 1 KB for the headers and signature.
func wireSize(t *testing.T, html, text string) int {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	content := map[string]any{"data": map[string]string{"text/html": html, "text/plain": text}, "metadata": map[string]any{},
		"transient": map[string]string{"display_id": "routelab-live-0123456789abcdef"}}
	if err := enc.Encode(content); err != nil {
		t.Fatal(err)
	}
	return buf.Len() + 1024
}

// Drawing reads the frame and nothing else: the frame is the same before
// and after, and a session whose every frame is drawn gives exactly the
// run engine.Run gives.
func TestDrawingNeverWritesBack(t *testing.T) {
	f := busyFrame(t, 3)
	before, _ := json.Marshal(f)
	clone := cloneFrame(f)
	View{}.HTML(f)
	View{}.Text(f)
	after, _ := json.Marshal(f)
	if string(before) != string(after) || !reflect.DeepEqual(f, clone) {
		t.Error("drawing changed the frame")
	}

	scn := straggler(t)
	proto := engine.DefaultProtocol()
	drawn := 0
	sess, err := Start(context.Background(), Options{Scenario: scn, Policy: engine.Adaptive(engine.DefaultAdaptiveParams()), Seed: 4,
		Speed: Fastest, Measure: &proto, FrameEvery: 1},
		func(f Frame) { View{}.HTML(f); drawn++ })
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Wait(); err != nil {
		t.Fatal(err)
	}
	live, err := sess.Result()
	if err != nil {
		t.Fatal(err)
	}
	if drawn < 10 {
		t.Fatalf("only %d frames drawn", drawn)
	}
	headless := run(t, scn, engine.Adaptive(engine.DefaultAdaptiveParams()), 4, proto)
	if a, b := measured(t, live), measured(t, headless); a != b {
		t.Errorf("a session drawn %d times differs from engine.Run:\n%s\n%s", drawn, a, b)
	}
}

func cloneFrame(f Frame) Frame {
	c := f
	c.Replicas = make([]ReplicaFrame, len(f.Replicas))
	for i, r := range f.Replicas {
		r.Requests = append([]Mark(nil), r.Requests...)
		c.Replicas[i] = r
	}
	return c
}

// The picture shows the policy in its figure colour (Adaptive in the accent
// colour), each request's SLO colour and what the readouts say.
func TestViewShowsPolicyColourSLOAndReadouts(t *testing.T) {
	sess, err := Start(context.Background(), Options{Scenario: straggler(t), Policy: engine.Adaptive(engine.DefaultAdaptiveParams()), Seed: 2, Speed: Fastest, Until: 7000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Wait(); err != nil {
		t.Fatal(err)
	}
	f := sess.Frame()
	h := View{Seed: 2, Until: 7000}.HTML(f)
	if !strings.Contains(h, `fill="`+plot.AccentColor+`" font-weight="bold">adaptive<`) {
		t.Errorf("adaptive is not drawn in the accent colour %s", plot.AccentColor)
	}
	attrs := regexp.MustCompile(`data-now="([^"]*)" data-rate="([^"]*)" data-state="([^"]*)"`).FindStringSubmatch(h)
	if attrs == nil || attrs[1] != "7000" || attrs[2] != "150" || attrs[3] != "ended" {
		t.Errorf("data attributes %q", attrs)
	}
	late, onTime := 0, 0
	for _, r := range f.Replicas {
		for _, m := range r.Requests {
			if m.OnTime {
				onTime++
			} else {
				late++
			}
		}
	}
	for colour, n := range map[string]int{lateColor: late, onTimeColor: onTime} {
		m := regexp.MustCompile(`<path fill="` + colour + `" d="([^"]*)"`).FindStringSubmatch(h)
		got := 0
		if m != nil {
			got = strings.Count(m[1], "M")
		}
		if got != n {
			t.Errorf("%d marks in %s, want %d", got, colour, n)
		}
	}
	text := View{Seed: 2, Until: 7000}.Text(f)
	for _, want := range []string{"live: adaptive on straggler, seed 2 — 7.00 s of 7 s, ended", "p99 " + ms(f.P99), "replica 1: slowed ×5"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
}

// Drawing a busy frame, text and picture: a view draws ten a second.
func BenchmarkViewBusyFrame(b *testing.B) {
	for _, replicas := range []int{3, 64} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			f := busyFrame(b, replicas)
			v := View{Seed: 1, Until: 2000}
			b.ReportAllocs()
			for b.Loop() {
				v.HTML(f)
				v.Text(f)
			}
		})
	}
}

// One real second of a view at the default speed: ten ticks of 12
// simulated ms of the straggler at 150 req/s, each drawn as a frame (text
// and picture). ns/op ÷ 1e9 is the share of a core a notebook view costs.
func BenchmarkViewSecondAtDefaultSpeed(b *testing.B) {
	scn, err := engine.BuiltinScenario("straggler", 150, engine.DefaultHeterogeneity)
	if err != nil {
		b.Fatal(err)
	}
	// Its own goroutine waits an hour between frames: the benchmark ticks.
	sess, err := Start(context.Background(), Options{Scenario: scn, Policy: engine.Adaptive(engine.DefaultAdaptiveParams()), Seed: 1, FrameEvery: time.Hour}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Stop()
	v := View{Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		for range 10 {
			sess.tick(DefaultFrameEvery)
			f := sess.Frame()
			v.HTML(f)
			v.Text(f)
		}
	}
}
