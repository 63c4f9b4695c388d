package kernel

import (
	"strings"
	"testing"
	"time"
)

// TestCommsBothWays: a cell opens a comm (comm_open on iopub under its
// request, with the widget protocol's version in the metadata), the front
// end's messages on it reach the session, the session answers from outside
// any cell under the request that opened the comm, comm_info lists it, and
// closing it from either side removes it.
func TestCommsBothWays(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	r, out := c.execute(`comm open w1 echo {"state":{"value":3}}`, nil)
	if r.Content["status"] != "ok" {
		t.Fatalf("open: %v", r.Content)
	}
	if got := types(out); got != "status:busy execute_input comm_open status:idle" {
		t.Fatalf("iopub of the opening cell: %s", got)
	}
	open := out[2]
	if open.Content["comm_id"] != "w1" || open.Content["target_name"] != "echo" ||
		open.Content["data"].(map[string]any)["state"].(map[string]any)["value"] != 3.0 ||
		open.Metadata["version"] != "2.1.0" {
		t.Errorf("comm_open: content %v metadata %v", open.Content, open.Metadata)
	}
	opener := r.Parent.MsgID

	info := func(target string) map[string]any {
		t.Helper()
		id := c.send(c.shell, "comm_info_request", map[string]any{"target_name": target})
		return c.reply(c.shell, id).Content["comms"].(map[string]any)
	}
	if got := info(""); len(got) != 1 || got["w1"].(map[string]any)["target_name"] != "echo" {
		t.Errorf("comm_info: %v", got)
	}
	if got := info("jupyter.widget"); len(got) != 0 {
		t.Errorf("comm_info for another target: %v", got)
	}

	// The front end's message reaches the session; its echo comes back on
	// iopub from outside any cell, under the request that opened the comm.
	c.send(c.shell, "comm_msg", map[string]any{"comm_id": "w1", "data": map[string]any{"echo": "hi"}})
	echo := c.waitIOPub("comm_msg", 5*time.Second)
	if echo.Content["comm_id"] != "w1" || echo.Content["data"].(map[string]any)["echoed"] != "hi" || echo.Parent.MsgID != opener {
		t.Errorf("session's answer: %+v", echo)
	}

	c.send(c.shell, "comm_msg", map[string]any{"comm_id": "nope", "data": map[string]any{}})
	id := c.send(c.shell, "comm_close", map[string]any{"comm_id": "w1", "data": map[string]any{}})
	c.outputs(id)
	if got := info(""); len(got) != 0 {
		t.Errorf("comm_info after close: %v", got)
	}
	_, out = c.execute("comm received", nil)
	want := `msg w1 {"echo":"hi"}` + "\n" + `close w1 {}`
	if got := out[2].Content["data"].(map[string]any)["text/plain"]; got != want {
		t.Errorf("the session received:\n%v\nwant:\n%s", got, want)
	}
	if !strings.Contains(k.logs.String(), `comm "nope", which is not open`) {
		t.Errorf("message on an unknown comm not logged:\n%s", k.logs.String())
	}

	// A comm the front end opens on a target the session has is kept and
	// listed; one on a target it lacks is closed at once.
	id = c.send(c.shell, "comm_open", map[string]any{"comm_id": "f1", "target_name": "echo", "data": map[string]any{"x": 1}})
	if got := types(c.outputs(id)); got != "status:busy status:idle" {
		t.Errorf("accepted comm_open: %s", got)
	}
	if got := info("echo"); len(got) != 1 || got["f1"] == nil {
		t.Errorf("comm_info after the front end opened f1: %v", got)
	}
	// The session closes it from a cell.
	_, out = c.execute("comm close f1", nil)
	if got := types(out); got != "status:busy execute_input comm_close status:idle" || out[2].Content["comm_id"] != "f1" {
		t.Errorf("session closing f1: %s %v", got, out)
	}
	if got := info(""); len(got) != 0 {
		t.Errorf("comm_info after the session closed f1: %v", got)
	}
}

// waitIOPub returns the next iopub message of type msgType.
func (c *client) waitIOPub(msgType string, timeout time.Duration) msg {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case f := <-c.in[c.iopub]:
			if m := c.decode(f); m.Type == msgType {
				return m
			}
		case <-deadline:
			c.t.Fatalf("no %s on iopub within %v", msgType, timeout)
		}
	}
}

// TestWidgetUpdatesAreEchoed: protocol 2.1's echo_update, under the front
// end's own message, for widget comms only.
func TestWidgetUpdatesAreEchoed(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	c.execute(`comm open w jupyter.widget {"state":{"value":1}}`, nil)
	c.execute(`comm open e echo {}`, nil)
	id := c.send(c.shell, "comm_msg", map[string]any{"comm_id": "w",
		"data": map[string]any{"method": "update", "state": map[string]any{"value": 2}, "buffer_paths": []any{}}})
	out := c.outputs(id)
	if got := types(out); got != "status:busy comm_msg status:idle" {
		t.Fatalf("iopub of a widget update: %s", got)
	}
	data := out[1].Content["data"].(map[string]any)
	if data["method"] != "echo_update" || data["state"].(map[string]any)["value"] != 2.0 || out[1].Content["comm_id"] != "w" {
		t.Errorf("echo: %v", out[1].Content)
	}
	id = c.send(c.shell, "comm_msg", map[string]any{"comm_id": "e",
		"data": map[string]any{"method": "update", "state": map[string]any{"value": 2}}})
	if got := types(c.outputs(id)); got != "status:busy status:idle" {
		t.Errorf("a comm of another target was echoed: %s", got)
	}
}
