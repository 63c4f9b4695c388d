package console

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Compare runs the specification's comparison on the configuration or on
// the recorded session, with the policies file's policies beside the
// built-ins, and answers with plot's table and figure.
func TestCompare(t *testing.T) {
	c := startConsole(t, Config{Policies: writePolicies(t, policiesFile)})
	cl := c.openPage(t, 0)
	cl.fast(`, "policy": "random"`)
	steer(t, cl, "p2c")
	for _, on := range []string{"setup", "session"} {
		var res compareResult
		if code := postJSON(t, cl.base+"/api/pages/"+cl.id+"/compare", `{"on": "`+on+`"}`, &res); code != http.StatusOK {
			t.Fatalf("%s: %d %+v", on, code, res)
		}
		for _, name := range []string{"round-robin", "least-queue", "latency-aware", "adaptive", "queue-x-ewma", "first-eligible", "p2c"} {
			if !strings.Contains(res.Table, name) {
				t.Errorf("%s: the table lacks %s", on, name)
			}
		}
		// A light fragment carries no library ("lib: null"; its option is
		// packed) and weighs tens of KB, not the library's hundreds.
		if !strings.Contains(res.Figure, `data-routelab-figure="compare-`) || !strings.Contains(res.Figure, "lib: null") || len(res.Figure) > 100_000 {
			t.Errorf("%s: the figure is not a light fragment: %.200s", on, res.Figure)
		}
		t.Logf("%s: %s — %s (%.2f s)", on, res.Title, res.Note, res.Seconds)
	}
	var bad struct{ Error string }
	if code := postJSON(t, cl.base+"/api/pages/"+cl.id+"/compare", `{"on": "yesterday"}`, &bad); code != http.StatusBadRequest || !strings.Contains(bad.Error, `on: "yesterday" is not allowed (want "setup" or "session")`) {
		t.Errorf("compare on yesterday: %d %q", code, bad.Error)
	}
}

// A recorded session longer than the comparison's run is compared on the
// events within it, and the note says how many were left out.
func TestCompareLeavesOutLateEvents(t *testing.T) {
	c := startConsole(t, Config{})
	cl := c.openPage(t, 0)
	cl.fast("")
	cl.control(`{"action": "speed", "value": 5000}`)
	for cl.page().session().Now() < 16000 {
		time.Sleep(50 * time.Millisecond)
	}
	cl.control(`{"action": "fail", "replica": 3}`)
	var res compareResult
	postJSON(t, cl.base+"/api/pages/"+cl.id+"/compare", `{"on": "session"}`, &res)
	if !strings.Contains(res.Note, "(1 after 15 s are outside the comparison's run and left out)") {
		t.Errorf("note %q", res.Note)
	}
}

// Beyond loopback the console makes up a token and answers only requests
// that carry it (in the URL, then in the cookie it sets); on loopback it
// answers only to loopback host names; POSTs must be JSON from its own
// origin.
func TestBinding(t *testing.T) {
	open := startConsole(t, Config{Addr: "0.0.0.0:0"})
	if open.srv.cfg.Token == "" {
		t.Fatal("no token for a console listening on every interface")
	}
	for _, u := range []string{open.url + "/", open.url + "/?token=wrong"} {
		if code := get(t, u, nil); code != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", u, code)
		}
	}
	jar := &cookieJar{}
	if code := get(t, open.url+"/?token="+url.QueryEscape(open.srv.cfg.Token), jar); code != http.StatusOK || jar.c == nil {
		t.Fatalf("with the token: %d, cookie %v", code, jar.c)
	}
	if code := get(t, open.url+"/assets/console.js", jar); code != http.StatusOK {
		t.Errorf("with the cookie: %d", code)
	}

	local := startConsole(t, Config{})
	req, _ := http.NewRequest(http.MethodGet, local.url+"/", nil)
	req.Host = "evil.example:80"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a rebound host name: %v %v", resp, err)
	}
	for _, h := range []http.Header{{"Content-Type": {"text/plain"}}, {"Content-Type": {"application/json"}, "Origin": {"http://evil.example"}}} {
		req, _ := http.NewRequest(http.MethodPost, local.url+"/api/pages", strings.NewReader("{}"))
		req.Header = h
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode < 400 {
			t.Errorf("a POST with %v: %v %v", h, resp, err)
		}
	}
}

type cookieJar struct{ c *http.Cookie }

func get(t *testing.T, u string, jar *cookieJar) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if jar != nil && jar.c != nil {
		req.AddCookie(jar.c)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if jar != nil {
		for _, c := range resp.Cookies() {
			jar.c = c
		}
	}
	return resp.StatusCode
}

// A port in use is one clear error.
func TestPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = Run(context.Background(), Config{Addr: ln.Addr().String()}, nil)
	want := "console: " + ln.Addr().String() + " is already in use (another console?); choose another address with --addr"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestURL(t *testing.T) {
	for _, tc := range []struct{ addr, token, listened, want string }{
		{"127.0.0.1:8080", "", "127.0.0.1:8080", "http://127.0.0.1:8080/"},
		{"localhost:0", "", "127.0.0.1:43210", "http://localhost:43210/"},
		{"[::1]:9000", "", "[::1]:9000", "http://[::1]:9000/"},
		{"192.168.1.5:8080", "abc", "192.168.1.5:8080", "http://192.168.1.5:8080/?token=abc"},
	} {
		s := &Server{cfg: Config{Addr: tc.addr, Token: tc.token}}
		addr, _ := net.ResolveTCPAddr("tcp", tc.listened)
		if got := s.URL(addr); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.addr, got, tc.want)
		}
	}
}
