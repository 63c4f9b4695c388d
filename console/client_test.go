package console

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/live"
)

// testConsole is a console serving on a loopback port for one test.
type testConsole struct {
	srv *Server
	url string // http://127.0.0.1:PORT
}

func startConsole(t testing.TB, cfg Config) *testConsole {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr == "" {
		cfg.Addr = ln.Addr().String()
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return &testConsole{srv: srv, url: "http://" + ln.Addr().String()}
}

// pageCount is the number of pages with a running simulation.
func (c *testConsole) pageCount() int {
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	return len(c.srv.pages)
}

// frameMessage is a frame as a page receives it.
type frameMessage struct {
	Published float64    `json:"published_unix_ms"`
	Frame     live.Frame `json:"frame"`
}

// sse is one server-sent event.
type sse struct {
	name string
	data []byte
	at   time.Time // when it was read
}

// client is one page's API use, without a browser.
type client struct {
	t       testing.TB
	console *testConsole
	base    string // the console's URL
	id      string
	events  chan sse
	stop    context.CancelFunc
}

// openPage creates a page and connects its event stream (every: the
// frame interval it asks for; 0 for all).
func (c *testConsole) openPage(t testing.TB, every time.Duration) *client {
	t.Helper()
	var created struct{ ID string }
	if code := postJSON(t, c.url+"/api/pages", "{}", &created); code != http.StatusOK || created.ID == "" {
		t.Fatalf("creating a page: %d %+v", code, created)
	}
	cl := &client{t: t, console: c, base: c.url, id: created.ID, events: make(chan sse, 4096)}
	ctx, cancel := context.WithCancel(context.Background())
	cl.stop = cancel
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.url+"/api/pages/"+cl.id+"/events?every="+strconv.Itoa(int(every/time.Millisecond)), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("event stream: %v %v", resp, err)
	}
	go readEvents(resp.Body, cl.events)
	t.Cleanup(cancel)
	return cl
}

// readEvents parses a stream of server-sent events into ch until it ends.
func readEvents(body io.ReadCloser, ch chan<- sse) {
	defer body.Close()
	defer close(ch)
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var ev sse
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case bytes.HasPrefix(line, []byte("event: ")):
			ev.name = string(line[7:])
		case bytes.HasPrefix(line, []byte("data: ")):
			ev.data = append([]byte(nil), line[6:]...)
		case len(line) == 0 && ev.name != "":
			ev.at = time.Now()
			ch <- ev
			ev = sse{}
		}
	}
}

// next returns the next event named name, skipping others, or fails after
// timeout.
func (cl *client) next(name string, timeout time.Duration) sse {
	cl.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-cl.events:
			if !ok {
				cl.t.Fatalf("the stream ended waiting for %q", name)
			}
			if ev.name == name {
				return ev
			}
		case <-deadline:
			cl.t.Fatalf("no %q event in %v", name, timeout)
		}
	}
}

// frame returns the next frame.
func (cl *client) frame(timeout time.Duration) live.Frame {
	cl.t.Helper()
	var m frameMessage
	if err := json.Unmarshal(cl.next("frame", timeout).data, &m); err != nil {
		cl.t.Fatal(err)
	}
	return m.Frame
}

// control posts a control message and returns the status and the body.
func (cl *client) control(body string) (int, string) {
	cl.t.Helper()
	var out json.RawMessage
	code := postJSON(cl.t, cl.base+"/api/pages/"+cl.id+"/control", body, &out)
	return code, string(out)
}

func postJSON(t testing.TB, url, body string, out any) int {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: %v: %s", url, err, data)
		}
	}
	return resp.StatusCode
}

// spec finds a policy's spec by name, as engine.RecordedSession.PolicySpec
// takes it.
func (set *policySet) spec(name string) (engine.PolicySpec, error) {
	p, err := set.lookup(name)
	return p.spec, err
}
