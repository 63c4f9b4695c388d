package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/console"
)

// sameLoaderFiles are policy files of every shape --policies takes and
// the policies in them (a problem for the last): the commands must find
// them alike. "" stands for scriptedPolicies, a package main file.
var sameLoaderFiles = []struct{ name, src, want string }{
	{"scripted.go", "", "residual-wait random-two least-served"},
	{"variables.go", `var queueEWMA = lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
	return float64(r.Outstanding+1) * r.ServiceEWMA
})
eager := lab.Adaptive(lab.C(0.9))
`, "queue-x-ewma adaptive(c=0.9)"},
	{"made.go", `func cost(r lab.Replica) float64 { return float64(r.Outstanding) }

var held = lab.Policy("held", cost)
res := lab.Compare(lab.Steady().Seeds(1).Warmup(0).Measure(1), held, lab.Policy("in-compare", cost))
`, "held in-compare"},
	{"math.go", `func cost(r lab.Replica) float64 { return math.Sqrt(float64(r.Outstanding)) }

var sqrtQueue = lab.Policy("sqrt", cost)
`, "sqrt"},
	{"none.go", "x := 1\n", "makes no policy"},
}

// compare, sweep and study (policySet.resolve) and the console find the
// same policies in a policy file, in the same order, and refuse one with
// the same error: one loader.
func TestCommandsLoadPolicyFilesAlike(t *testing.T) {
	dir := t.TempDir()
	for _, c := range sameLoaderFiles {
		t.Run(c.name, func(t *testing.T) {
			file := scriptedPolicies
			if c.src != "" {
				file = filepath.Join(dir, c.name)
				if err := os.WriteFile(file, []byte(c.src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			inConsole, problem := consolePolicies(t, file)
			var set policySet
			defer set.Close()
			specs, err := set.resolve(context.Background(), []string{file}, &bytes.Buffer{})
			var names []string
			for _, p := range specs {
				names = append(names, p.Name)
			}
			inCompare := strings.Join(names, " ")
			if inCompare != inConsole || (err == nil) != (problem == "") || (err != nil && err.Error() != problem) {
				t.Errorf("compare: policies %q, error %v\nconsole: policies %q, problem %q", inCompare, err, inConsole, problem)
			}
			if inConsole != c.want && !strings.Contains(problem, c.want) {
				t.Errorf("console: policies %q, problem %q; want %q", inConsole, problem, c.want)
			}
		})
	}
}

// consolePolicies are the names the console's picker adds to the
// built-ins from file, and the problem its pages show.
func consolePolicies(t *testing.T, file string) (names, problem string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := console.New(ctx, console.Config{Policies: file, Stderr: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	var h struct {
		Policies []struct{ Name, Source string }
		Problem  string `json:"policies_problem"`
	}
	if err := json.Unmarshal(helloEvent(t, ctx, hs.URL), &h); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range h.Policies {
		if p.Source != "built-in" {
			out = append(out, p.Name)
		}
	}
	return strings.Join(out, " "), h.Problem
}

// helloEvent opens a console page and returns the data of its first
// event, the hello.
func helloEvent(t *testing.T, ctx context.Context, url string) []byte {
	t.Helper()
	resp, err := http.Post(url+"/api/pages", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	var page struct{ ID string }
	json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/api/pages/"+page.ID+"/events", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return []byte(data)
		}
	}
	t.Fatalf("no hello from the console page: %v", sc.Err())
	return nil
}
