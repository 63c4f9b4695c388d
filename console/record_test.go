package console

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/live"
)

// get fetches a page's file.
func (cl *client) get(name string) []byte {
	cl.t.Helper()
	resp, err := http.Get(cl.base + "/api/pages/" + cl.id + "/" + name)
	if err != nil {
		cl.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		cl.t.Fatalf("%s: %d %s", name, resp.StatusCode, data)
	}
	if cd := resp.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
		cl.t.Errorf("%s: Content-Disposition %q", name, cd)
	}
	return data
}

// steer runs a session through every kind of control, then pauses it.
func steer(t *testing.T, cl *client, policy string) {
	t.Helper()
	for _, ctl := range []string{
		`{"action": "rate", "value": 230}`, `{"action": "straggler"}`, `{"action": "burst"}`,
		`{"action": "fail", "replica": 2}`, `{"action": "policy", "policy": "` + policy + `"}`,
		`{"action": "recover", "replica": 2}`, `{"action": "speed", "value": 3000}`,
	} {
		time.Sleep(150 * time.Millisecond)
		if code, out := cl.control(ctl); code != http.StatusOK {
			t.Fatalf("%s: %d %s", ctl, code, out)
		}
	}
	time.Sleep(300 * time.Millisecond)
	cl.control(`{"action": "pause"}`)
	time.Sleep(200 * time.Millisecond)
}

// The downloaded session replays headless to the counts the page showed
// when it was saved, both as a scenario file and as a Go cell.
func TestDownloadedSessionReplays(t *testing.T) {
	c := startConsole(t, Config{})
	cl := c.openPage(t, 0)
	cl.fast("")
	steer(t, cl, "least-queue")
	shown := cl.page().session().Frame()
	file, err := engine.ParseScenarioFile(cl.get("session.json"), "session.json")
	if err != nil {
		t.Fatal(err)
	}
	rec := file.Session
	want := engine.SessionCounts{Arrivals: shown.Arrivals, Completed: shown.Completed, Shed: shown.Shed, Unfinished: shown.Unfinished}
	if rec.Until != shown.Now || rec.Counts != want || len(rec.Switches) != 1 || len(file.Scenario.Events) < 7 {
		t.Fatalf("recorded %+v with %d events; the page showed %+v at %v ms", rec, len(file.Scenario.Events), want, shown.Now)
	}
	if got := replay(t, file, engine.PolicyByName); got != want {
		t.Errorf("the scenario file replays to %+v, the page showed %+v", got, want)
	}
	cell := string(cl.get("session.go"))
	if out := runCell(t, cell, ""); !strings.Contains(out, countsLine(rec)) {
		t.Errorf("the Go cell printed %q, want %q\n%s", out, countsLine(rec), cell)
	}
}

// replay runs a scenario file's session headless to its end.
func replay(t *testing.T, file engine.ScenarioFile, lookup func(string) (engine.PolicySpec, error)) engine.SessionCounts {
	t.Helper()
	policy, err := file.Session.PolicySpec(lookup)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := live.Start(context.Background(), live.Options{Scenario: file.Scenario, Policy: policy, Seed: file.Session.Seed, Speed: live.Fastest, Until: file.Session.Until}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Wait(); err != nil {
		t.Fatal(err)
	}
	f := sess.Frame()
	return engine.SessionCounts{Arrivals: f.Arrivals, Completed: f.Completed, Shed: f.Shed, Unfinished: f.Unfinished}
}

func countsLine(r *engine.RecordedSession) string {
	c := r.Counts
	return "at " + num(r.Until) + " ms: " + itoa64(c.Arrivals) + " arrivals, " + itoa64(c.Completed) + " completed, " +
		itoa64(c.Shed) + " shed, " + itoa64(int64(c.Unfinished)) + " unfinished"
}

func itoa64(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// runCell runs Go source as `routelab exec` does, from dir, and returns its
// output.
func runCell(t *testing.T, src, dir string) string {
	t.Helper()
	if dir != "" {
		wd, _ := os.Getwd()
		os.Chdir(dir)
		defer os.Chdir(wd)
	}
	sess, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out, errs bytes.Buffer
	if err := sess.RunScript(context.Background(), src, &out, &errs); err != nil {
		t.Fatalf("the cell failed: %v\n%s\n%s", err, errs.String(), src)
	}
	return out.String()
}

const policiesFile = `// Two policies of our own, and a value that is not one.
var queueEWMA = lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
	return float64(r.Outstanding+1) * r.ServiceEWMA
})

first := lab.Picker("first-eligible", func(v *lab.View) int { return v.Eligible[0].ID })

threshold := 3
`

func writePolicies(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mine.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A policies file's policies join the picker after the built-ins, route a
// live session, and travel with it: the Go cell carries the file and
// replays the session.
func TestPoliciesFile(t *testing.T) {
	c := startConsole(t, Config{Policies: writePolicies(t, policiesFile)})
	cl := c.openPage(t, 0)
	var h hello
	json.Unmarshal(cl.next("hello", 5*time.Second).data, &h)
	var names []string
	for _, p := range h.Policies {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, " "); got != builtinsThen("queue-x-ewma", "first-eligible") || h.PoliciesProblem != "" {
		t.Fatalf("picker: %s; problem %q", got, h.PoliciesProblem)
	}
	cl.fast(`, "policy": "first-eligible"`) // JSON keeps the last "policy"
	steer(t, cl, "queue-x-ewma")
	f := cl.page().session().Frame()
	if f.Policy != "queue-x-ewma" || f.Completed == 0 {
		t.Fatalf("frame %+v", f)
	}
	file, err := engine.ParseScenarioFile(cl.get("session.json"), "session.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := replay(t, file, c.srv.policies.spec), file.Session.Counts; got != want {
		t.Errorf("replayed %+v, recorded %+v", got, want)
	}
	cell := string(cl.get("session.go"))
	if !strings.Contains(cell, "var queueEWMA = lab.Policy") || !strings.Contains(cell, "Policy: queueEWMA}") {
		t.Errorf("the cell does not carry the file's policies:\n%s", cell)
	}
	if out := runCell(t, cell, ""); !strings.Contains(out, countsLine(file.Session)) {
		t.Errorf("the Go cell printed %q, want %q\n%s", out, countsLine(file.Session), cell)
	}
}

// A policies file that does not compile is reported with the dsl's
// position on stderr and on every page; the console offers the built-ins.
func TestBadPoliciesFile(t *testing.T) {
	var stderr bytes.Buffer
	path := writePolicies(t, "var mine = lab.Policy(\"mine\", func(r lab.Replica) float64 {\n\treturn r.Outstanding + \"x\"\n})\n")
	c := startConsole(t, Config{Policies: path, Stderr: &stderr})
	want := path + ": CompileError: 2:9: invalid operation: r.Outstanding + \"x\" (mismatched types int and untyped string)"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	cl := c.openPage(t, 0)
	var h hello
	json.Unmarshal(cl.next("hello", 5*time.Second).data, &h)
	if !strings.Contains(h.PoliciesProblem, want) || len(h.Policies) != len(engine.PolicyNames()) {
		t.Errorf("hello: %d policies, problem %q", len(h.Policies), h.PoliciesProblem)
	}
	if f := cl.frame(5 * time.Second); f.Policy != "adaptive" {
		t.Errorf("frame %+v", f)
	}
	for src, problem := range map[string]string{
		"package main\n\nvar x = 1\n":      "makes no policy: declare a top-level variable of type lab.PolicySpec",
		"x := 1\n":                         "makes no policy: declare a top-level variable of type lab.PolicySpec",
		"var a = lab.Builtin(\"p2c\")\n":   `the policy "p2c" (variable a) is named like a built-in policy`,
		"var e lab.PolicySpec\n":           "variable e is an empty lab.PolicySpec",
		"var w = lab.Policy(\"w\", nil)\n": "lab.Policy: cost: nil is not allowed",
	} {
		set := loadPolicies(context.Background(), writePolicies(t, src), io.Discard)
		if !strings.Contains(set.problem, problem) {
			t.Errorf("%q: problem %q, want %q", src, set.problem, problem)
		}
		set.close()
	}
}

// A package main policies file loads as compare loads it: its variables'
// policies, then the one its main makes, join the picker. The Go cell of a
// session carries the file without its package clause and replays it; a
// session that used the policy no variable holds has no Go cell.
func TestPackageMainPoliciesFile(t *testing.T) {
	c := startConsole(t, Config{Policies: writePolicies(t, `// Policies of a program.
package main

import "github.com/routelab/routelab/lab"

var queueEWMA = lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
	return float64(r.Outstanding+1) * r.ServiceEWMA
})

func main() {
	lab.Compare(lab.Steady().Seeds(1).Warmup(0).Measure(1), lab.Picker("first-eligible", func(v *lab.View) int { return v.Eligible[0].ID }))
}
`)})
	cl := c.openPage(t, 0)
	var h hello
	json.Unmarshal(cl.next("hello", 5*time.Second).data, &h)
	var names []string
	for _, p := range h.Policies {
		names = append(names, p.Name+" ("+p.About+")")
	}
	if got, want := strings.Join(names[len(names)-2:], ", "), "queue-x-ewma (variable queueEWMA), first-eligible (made with lab.Picker)"; got != want || h.PoliciesProblem != "" {
		t.Fatalf("picker ends %s, want %s; problem %q", got, want, h.PoliciesProblem)
	}
	cl.fast(`, "policy": "queue-x-ewma"`)
	time.Sleep(300 * time.Millisecond)
	cl.control(`{"action": "pause"}`)
	time.Sleep(200 * time.Millisecond)
	file, err := engine.ParseScenarioFile(cl.get("session.json"), "session.json")
	if err != nil {
		t.Fatal(err)
	}
	cell := string(cl.get("session.go"))
	if strings.Contains(cell, "package main") || !strings.Contains(cell, "// Policies of a program.\n\n\nimport") || !strings.Contains(cell, "policy := queueEWMA\n") {
		t.Errorf("the cell does not carry the file as a cell holds it:\n%s", cell)
	}
	if out := runCell(t, cell, ""); !strings.Contains(out, countsLine(file.Session)) {
		t.Errorf("the Go cell printed %q, want %q\n%s", out, countsLine(file.Session), cell)
	}
	if code, out := cl.control(`{"action": "policy", "policy": "first-eligible"}`); code != http.StatusOK {
		t.Fatalf("policy: %d %s", code, out)
	}
	time.Sleep(300 * time.Millisecond)
	resp, err := http.Get(cl.base + "/api/pages/" + cl.id + "/session.go")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var refusal struct{ Error string }
	json.NewDecoder(resp.Body).Decode(&refusal)
	if want := `the policy "first-eligible" of ` + c.srv.policies.file + " is held by no top-level variable"; resp.StatusCode == http.StatusOK || !strings.Contains(refusal.Error, want) {
		t.Errorf("session.go: %d %q, want the error %q", resp.StatusCode, refusal.Error, want)
	}
}

// builtinsThen is the picker's expected order: the built-ins as the engine
// registers them, then a policies file's policies in the file's order.
func builtinsThen(scripted ...string) string {
	return strings.Join(append(engine.PolicyNames(), scripted...), " ")
}
