package console

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/routelab/routelab/engine"
)

// clusterJS describes the cluster as the page shows it.
const clusterJS = `(function () {
  var rows = Array.prototype.map.call(document.querySelectorAll(".replica"), function (r) {
    return { id: +r.dataset.replica, healthy: r.dataset.healthy === "true", waiting: +r.dataset.waiting,
      status: r.querySelector(".status").textContent,
      marks: Array.prototype.filter.call(document.querySelectorAll(".mark:not(.gone)"), function (m) { return m.dataset.replica === r.dataset.replica; })
        .map(function (m) { return +m.dataset.seq; }) };
  });
  var text = function (id) { return document.getElementById(id).textContent; };
  return { rows: rows, p50: text("r-p50"), p99: text("r-p99"), rate: text("r-rate"), shed: +text("r-shed"),
    arrivals: +text("r-arrivals"), completed: +text("r-completed"), unfinished: +text("r-unfinished"),
    time: text("r-time"), policy: text("router-policy"), frames: +document.documentElement.getAttribute("data-frames") };
})()`

type shownReplica struct {
	ID      int
	Healthy bool
	Waiting int
	Status  string
	Marks   []int64
}

type shown struct {
	Rows                                  []shownReplica
	P50, P99, Rate, Time, Policy          string
	Shed, Arrivals, Completed, Unfinished int64
	Frames                                int
}

func (tb *tab) cluster() shown {
	tb.t.Helper()
	var s shown
	tb.eval(clusterJS, &s)
	return s
}

func (s shown) waiting() int {
	n := 0
	for _, r := range s.Rows {
		n += r.Waiting
	}
	return n
}

// The console in Chromium, driven as a user would: the straggler scenario,
// the traffic slider, a failure, a comparison and the recorded session
// replayed headless to the counts the page shows.
func TestConsoleInChromium(t *testing.T) {
	downloads := t.TempDir()
	tb := browse(t, downloads)
	c := startConsole(t, Config{Policies: writePolicies(t, policiesFile)})
	tb.open(c.url+"/", 1280, 900)
	if got := tb.cluster(); len(got.Rows) != 3 || got.Policy != "adaptive" {
		t.Fatalf("the page shows %+v", got)
	}
	var options []string
	tb.eval(`Array.prototype.map.call(document.querySelectorAll("#policy option"), function (o) { return o.value; })`, &options)
	if want := builtinsThen("queue-x-ewma", "first-eligible"); strings.Join(options, " ") != want {
		t.Errorf("the policy picker offers %v", options)
	}

	// A faster dilation, then the straggler: replica 1 ×5 slower.
	tb.run(chromedp.Click("#advanced > summary", chromedp.ByQuery), chromedp.SetValue("#speed", "500", chromedp.ByQuery), // input and change, as a user's choice
		chromedp.Click("#straggler", chromedp.ByQuery))
	tb.waitFor("replica 1 slowed", `document.querySelector('.replica[data-replica="1"] .status').textContent === "slowed ×5"`, 10*time.Second)
	time.Sleep(2 * time.Second)
	before := tb.cluster()

	// The traffic slider to its end, by keyboard.
	tb.run(chromedp.Focus("#rate", chromedp.ByQuery), chromedp.KeyEvent(kb.End))
	tb.waitFor("the rate", `document.getElementById("r-rate").textContent === "400 req/s"`, 10*time.Second)
	// Paused the moment the queues have grown (by the page itself, so a
	// loaded machine cannot let them run into their caps first), so what
	// is read below is what the failure meets when the run resumes.
	tb.waitFor("queues to grow", `(function (s) { var grown = s.rows.reduce(function (n, r) { return n + r.waiting; }, 0) > `+itoa(before.waiting()+40)+`; if (grown) { document.getElementById("pause").click(); } return grown; })(`+clusterJS+`)`, 30*time.Second)
	tb.waitFor("paused", `document.getElementById("run-state").textContent.indexOf("paused") >= 0`, 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	after := tb.cluster()
	if after.P99 == before.P99 || after.P50 == before.P50 {
		t.Errorf("percentiles did not change with the traffic: p50 %s → %s, p99 %s → %s", before.P50, after.P50, before.P99, after.P99)
	}
	t.Logf("traffic 100 → 400 req/s: waiting %d → %d, p50 %s → %s, p99 %s → %s", before.waiting(), after.waiting(), before.P50, after.P50, before.P99, after.P99)

	// Fail replica 2: it is marked failed, its queue goes elsewhere.
	queued := after.Rows[1].Marks
	tb.run(chromedp.SetValue("#replica", "2", chromedp.ByQuery), chromedp.Click("#fail", chromedp.ByQuery), chromedp.Click("#pause", chromedp.ByQuery))
	tb.waitFor("replica 2 failed", `(function (r) { return r.dataset.healthy === "false" && r.dataset.waiting === "0" && r.querySelector(".status").textContent === "failed"; })(document.querySelector('.replica[data-replica="2"]'))`, 10*time.Second)
	failed := tb.cluster()
	moved, gone := 0, 0
	elsewhere := map[int64]int{}
	for _, r := range failed.Rows {
		for _, seq := range r.Marks {
			elsewhere[seq] = r.ID
		}
	}
	for _, seq := range queued[min(1, len(queued)):] { // the first may have been in flight
		switch id := elsewhere[seq]; {
		case id == 0:
			gone++ // completed since, or shed
		case id != 2:
			moved++
		}
	}
	if len(queued) < 5 || moved == 0 {
		t.Errorf("replica 2 had %d requests; after the failure %d are queued elsewhere, %d gone", len(queued), moved, gone)
	}
	t.Logf("failing replica 2 re-routed %d of its %d queued requests (%d finished or shed meanwhile)", moved, len(queued)-1, gone)
	tb.save("console-1280-failed", "page")

	// Compare Policies on the recorded session: plot's figure draws.
	tb.run(chromedp.Click(`input[name=compare-on][value=session]`, chromedp.ByQuery), chromedp.Click("#compare", chromedp.ByQuery))
	tb.waitFor("the comparison figure", `(function (f) { return !!f && f.getAttribute("data-routelab-state") === "ready"; })(document.querySelector("#comparison-figure [data-routelab-figure]"))`, 60*time.Second)
	var table string
	tb.eval(`document.getElementById("comparison-table").textContent`, &table)
	for _, name := range []string{"adaptive", "queue-x-ewma", "first-eligible"} {
		if !strings.Contains(table, name) {
			t.Errorf("the comparison table lacks %s", name)
		}
	}
	tb.save("console-1280-compare", "page")

	// Pause, download the session, replay it headless.
	tb.run(chromedp.Click("#pause", chromedp.ByQuery))
	tb.waitFor("paused", `document.getElementById("run-state").textContent.indexOf("paused") >= 0`, 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	paused := tb.cluster()
	tb.run(chromedp.Click("#dl-json", chromedp.ByQuery), chromedp.Click("#dl-go", chromedp.ByQuery))
	file := waitForDownload(t, downloads, ".json")
	rec := file.Session
	want := engine.SessionCounts{Arrivals: paused.Arrivals, Completed: paused.Completed, Shed: paused.Shed, Unfinished: int(paused.Unfinished)}
	if rec.Counts != want {
		t.Errorf("the file recorded %+v; the page showed %+v", rec.Counts, want)
	}
	if got := replay(t, file, c.srv.policies.spec); got != want {
		t.Errorf("the downloaded session replays to %+v; the page showed %+v", got, want)
	}
	cell := readDownload(t, downloads, ".go")
	if out := runCell(t, cell, ""); !strings.Contains(out, countsLine(rec)) {
		t.Errorf("the downloaded Go cell printed %q, want %q", out, countsLine(rec))
	}
	t.Logf("replayed %d events to %v ms: %+v", len(file.Scenario.Events), rec.Until, want)

	// The same page at a phone's width.
	tb.run(emulationNarrow(), chromedp.Evaluate(`window.scrollTo(0, 0)`, nil))
	time.Sleep(500 * time.Millisecond)
	tb.save("console-420-top", "")
	tb.save("console-420", "page")

	// The console frees the page's simulation (as after a long absence):
	// the page says so and starts a new one.
	freed := onlyPage(t, c)
	tb.expect("404 (Not Found) " + c.url + "/api/pages/" + freed.id + "/events") // its stream's reconnection
	c.srv.mu.Lock()
	delete(c.srv.pages, freed.id)
	c.srv.mu.Unlock()
	freed.release(true)
	freed.stop()
	tb.waitFor("a new simulation", `document.getElementById("message").textContent.indexOf("The simulation was restarted") === 0 && +document.documentElement.getAttribute("data-frames") > `+itoa(paused.Frames+5), 20*time.Second)
	if p := onlyPage(t, c); p.id == freed.id {
		t.Error("no new page")
	}
	tb.checkProblems()
}

func emulationNarrow() chromedp.Action {
	return chromedp.EmulateViewport(420, 900)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// waitForDownload waits for a downloaded file and parses it.
func waitForDownload(t *testing.T, dir, ext string) engine.ScenarioFile {
	t.Helper()
	data := readDownload(t, dir, ext)
	f, err := engine.ParseScenarioFile([]byte(data), "download"+ext)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func readDownload(t *testing.T, dir, ext string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		matches, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
		if len(matches) == 1 {
			if data, err := os.ReadFile(matches[0]); err == nil && len(data) > 0 {
				return string(data)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no %s file was downloaded to %s", ext, dir)
	return ""
}
