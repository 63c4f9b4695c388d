package kernel

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestKernelInfo(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	id := c.send(c.shell, "kernel_info_request", map[string]any{})
	r := c.reply(c.shell, id)
	if r.Type != "kernel_info_reply" || r.Content["status"] != "ok" || r.Content["protocol_version"] != ProtocolVersion {
		t.Fatalf("reply %s %v", r.Type, r.Content)
	}
	// Protocol 5.5: the optional features, none of which this kernel has.
	if f, ok := r.Content["supported_features"].([]any); !ok || len(f) != 0 {
		t.Errorf("supported_features = %#v, want an empty list", r.Content["supported_features"])
	}
	li := r.Content["language_info"].(map[string]any)
	want := map[string]any{"name": "go", "mimetype": "text/x-go", "file_extension": ".go",
		"pygments_lexer": "go", "codemirror_mode": "go"}
	for key, v := range want {
		if li[key] != v {
			t.Errorf("language_info.%s = %v, want %v", key, li[key], v)
		}
	}
	if r.Content["banner"] == "" || len(r.Content["help_links"].([]any)) == 0 {
		t.Errorf("banner/help_links missing: %v", r.Content)
	}
	if got := types(c.outputs(id)); got != "status:busy status:idle" {
		t.Errorf("iopub around kernel_info: %s", got)
	}
	// kernel_info is also answered on control.
	id = c.send(c.control, "kernel_info_request", map[string]any{})
	if r := c.reply(c.control, id); r.Content["status"] != "ok" {
		t.Errorf("control kernel_info: %v", r.Content)
	}
}

func TestExecuteRoundTrip(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	code := "x = 5\nprint hi $x\nwrite a\nwrite b\nhtml <b>bold</b>\nshow d1 first\nupdate d1 second\nclear wait\necho 42"
	r, out := c.execute(code, nil)
	if r.Content["status"] != "ok" || r.Content["execution_count"] != 1.0 {
		t.Fatalf("reply %v", r.Content)
	}
	want := "status:busy execute_input stream display_data display_data update_display_data clear_output execute_result status:idle"
	if got := types(out); got != want {
		t.Fatalf("iopub:\n got %s\nwant %s", got, want)
	}
	checks := []struct {
		i     int
		key   string
		value any
	}{
		{1, "code", code}, {1, "execution_count", 1.0},
		{2, "name", "stdout"}, {2, "text", "hi 5\nab"},
		{6, "wait", true}, {7, "execution_count", 1.0},
	}
	for _, ch := range checks {
		if got := out[ch.i].Content[ch.key]; !reflect.DeepEqual(got, ch.value) {
			t.Errorf("%s.%s = %#v, want %#v", out[ch.i].Type, ch.key, got, ch.value)
		}
	}
	if html := out[3].Content["data"].(map[string]any)["text/html"]; html != "<b>bold</b>" {
		t.Errorf("display_data html = %v", html)
	}
	for _, i := range []int{4, 5} {
		tr, _ := out[i].Content["transient"].(map[string]any)
		if tr["display_id"] != "d1" {
			t.Errorf("%s transient = %v", out[i].Type, out[i].Content["transient"])
		}
	}
	if v := out[7].Content["data"].(map[string]any)["text/plain"]; v != "42" {
		t.Errorf("execute_result = %v", v)
	}
	r, _ = c.execute("x", nil)
	if r.Content["execution_count"] != 2.0 {
		t.Errorf("second count %v", r.Content["execution_count"])
	}
}

func TestSilentAndStoreHistory(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	c.execute("echo one", nil)
	r, out := c.execute("print hidden\necho two", map[string]any{"silent": true})
	if r.Content["execution_count"] != 1.0 || types(out) != "status:busy status:idle" {
		t.Errorf("silent: count %v, iopub %s", r.Content["execution_count"], types(out))
	}
	r, out = c.execute("echo three", map[string]any{"store_history": false})
	if r.Content["execution_count"] != 1.0 {
		t.Errorf("store_history=false advanced the count to %v", r.Content["execution_count"])
	}
	if got := types(out); got != "status:busy execute_input execute_result status:idle" {
		t.Errorf("store_history=false iopub %s", got)
	}
	r, _ = c.execute("echo four", nil)
	if r.Content["execution_count"] != 2.0 {
		t.Errorf("count after = %v, want 2", r.Content["execution_count"])
	}
	id := c.send(c.shell, "history_request", map[string]any{"hist_access_type": "tail", "n": 10, "output": false, "raw": true})
	h := c.reply(c.shell, id).Content["history"].([]any)
	if len(h) != 2 || h[0].([]any)[2] != "echo one" || h[1].([]any)[2] != "echo four" {
		t.Errorf("history holds %v, want only the two stored cells", h)
	}
}

func TestErrorAndStopOnError(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	failing := c.send(c.shell, "execute_request", map[string]any{"code": "sleep 300ms\nfail boom", "stop_on_error": true})
	queued := []string{
		c.send(c.shell, "execute_request", map[string]any{"code": "echo a"}),
		c.send(c.shell, "kernel_info_request", map[string]any{}),
		c.send(c.shell, "execute_request", map[string]any{"code": "echo b"}),
	}
	r := c.reply(c.shell, failing)
	if r.Content["status"] != "error" || r.Content["ename"] != "EchoError" || r.Content["evalue"] != "boom" {
		t.Fatalf("error reply %v", r.Content)
	}
	if tb, _ := r.Content["traceback"].([]any); len(tb) == 0 {
		t.Errorf("error reply without traceback")
	}
	if got := types(c.outputs(failing)); got != "status:busy execute_input error status:idle" {
		t.Errorf("failing cell iopub: %s (an error cell publishes only the error)", got)
	}
	statuses := []string{}
	for _, id := range queued {
		r := c.reply(c.shell, id)
		statuses = append(statuses, r.Content["status"].(string))
		if n, has := r.Content["execution_count"]; has && r.Content["status"] == "aborted" {
			t.Errorf("aborted reply carries execution_count %v", n)
		}
		if got := types(c.outputs(id)); got != "status:busy status:idle" {
			t.Errorf("queued request iopub: %s", got)
		}
	}
	if want := []string{"aborted", "ok", "aborted"}; !reflect.DeepEqual(statuses, want) {
		t.Errorf("queued statuses %v, want %v", statuses, want)
	}
	// The queue is aborted once; later requests run. stop_on_error=false
	// lets queued cells run.
	failing = c.send(c.shell, "execute_request", map[string]any{"code": "sleep 200ms\nfail again", "stop_on_error": false})
	next := c.send(c.shell, "execute_request", map[string]any{"code": "echo after"})
	c.reply(c.shell, failing)
	if r := c.reply(c.shell, next); r.Content["status"] != "ok" || r.Content["execution_count"] != 3.0 {
		t.Errorf("cell after stop_on_error=false failure: %v", r.Content)
	}
}

func TestInterpreterPanicIsAnError(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	r, out := c.execute("panic oops", nil)
	if r.Content["status"] != "error" || !strings.Contains(r.Content["evalue"].(string), "oops") {
		t.Fatalf("panic reply %v", r.Content)
	}
	if got := types(out); got != "status:busy execute_input error status:idle" {
		t.Errorf("iopub %s", got)
	}
	if r, _ := c.execute("echo alive", nil); r.Content["status"] != "ok" {
		t.Errorf("kernel unusable after a panic: %v", r.Content)
	}
}

func TestCompleteInspectIsComplete(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	c.execute("printer = 1", nil)
	// Cursor positions are in code points: é is one, though two bytes.
	code := "echo é pr"
	id := c.send(c.shell, "complete_request", map[string]any{"code": code, "cursor_pos": 9})
	r := c.reply(c.shell, id).Content
	if !reflect.DeepEqual(r["matches"], []any{"print", "printer"}) || r["cursor_start"] != 7.0 || r["cursor_end"] != 9.0 {
		t.Errorf("complete %v", r)
	}
	id = c.send(c.shell, "inspect_request", map[string]any{"code": "é printer", "cursor_pos": 4, "detail_level": 0})
	r = c.reply(c.shell, id).Content
	if r["found"] != true || r["data"].(map[string]any)["text/plain"] != "printer = 1" {
		t.Errorf("inspect %v", r)
	}
	id = c.send(c.shell, "inspect_request", map[string]any{"code": "nothing", "cursor_pos": 3})
	if r = c.reply(c.shell, id).Content; r["found"] != false || r["status"] != "ok" {
		t.Errorf("inspect of unknown %v", r)
	}
	for code, want := range map[string]string{"echo 1": "complete", "{\necho 1": "incomplete", "}": "invalid"} {
		id = c.send(c.shell, "is_complete_request", map[string]any{"code": code})
		if r = c.reply(c.shell, id).Content; r["status"] != want {
			t.Errorf("is_complete(%q) = %v, want %s", code, r, want)
		}
	}
}

func TestHistory(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	for _, code := range []string{"echo 1", "echo 22", "echo 1", "fail x", "echo 333"} {
		c.execute(code, nil)
	}
	ask := func(q map[string]any) []any {
		q["output"], q["raw"] = q["output"] == true, true
		id := c.send(c.shell, "history_request", q)
		r := c.reply(c.shell, id)
		if r.Content["status"] != "ok" {
			t.Fatalf("history %v: %v", q, r.Content)
		}
		return r.Content["history"].([]any)
	}
	inputs := func(h []any) []string {
		var s []string
		for _, e := range h {
			s = append(s, e.([]any)[2].(string))
		}
		return s
	}
	if got := inputs(ask(map[string]any{"hist_access_type": "tail", "n": 2})); !reflect.DeepEqual(got, []string{"fail x", "echo 333"}) {
		t.Errorf("tail = %v", got)
	}
	h := ask(map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4})
	if got := inputs(h); !reflect.DeepEqual(got, []string{"echo 22", "echo 1"}) || h[0].([]any)[1] != 2.0 {
		t.Errorf("range = %v", h)
	}
	if got := inputs(ask(map[string]any{"hist_access_type": "search", "pattern": "echo 1*"})); len(got) != 2 {
		t.Errorf("search = %v", got)
	}
	if got := inputs(ask(map[string]any{"hist_access_type": "search", "pattern": "echo ?", "unique": true})); !reflect.DeepEqual(got, []string{"echo 1"}) {
		t.Errorf("unique search = %v", got)
	}
	if got := inputs(ask(map[string]any{"hist_access_type": "search", "pattern": "echo*", "n": 2})); !reflect.DeepEqual(got, []string{"echo 1", "echo 333"}) {
		t.Errorf("search n=2 = %v", got)
	}
	out := ask(map[string]any{"hist_access_type": "tail", "n": 1, "output": true})
	if pair := out[0].([]any)[2].([]any); pair[0] != "echo 333" || pair[1] != "333" {
		t.Errorf("tail with output = %v", out)
	}
}

func TestCommsAndUnknownMessages(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	id := c.send(c.shell, "comm_info_request", map[string]any{})
	if r := c.reply(c.shell, id); r.Content["status"] != "ok" || len(r.Content["comms"].(map[string]any)) != 0 {
		t.Errorf("comm_info %v", r.Content)
	}
	id = c.send(c.shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "jupyter.widget", "data": map[string]any{}})
	out := c.outputs(id)
	if got := types(out); got != "status:busy comm_close status:idle" || out[1].Content["comm_id"] != "c1" {
		t.Errorf("comm_open answered with %s %v", got, out)
	}
	id = c.send(c.shell, "frobnicate_request", map[string]any{})
	r := c.reply(c.shell, id)
	if r.Type != "frobnicate_reply" || r.Content["status"] != "error" || r.Content["ename"] == "" {
		t.Errorf("unknown request reply %s %v", r.Type, r.Content)
	}
	id = c.send(c.control, "debug_request", map[string]any{})
	if r := c.reply(c.control, id); r.Content["status"] != "error" {
		t.Errorf("control debug_request %v", r.Content)
	}
	c.send(c.shell, "frobnicate", map[string]any{})
	if r, _ := c.execute("echo still here", nil); r.Content["status"] != "ok" {
		t.Errorf("kernel after unknown message: %v", r.Content)
	}
	if !strings.Contains(k.logs.String(), `unknown type "frobnicate"`) {
		t.Errorf("unknown message not logged:\n%s", k.logs.String())
	}
}

func TestUserExpressions(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	r, _ := c.execute("x = 9", map[string]any{"user_expressions": map[string]any{"a": "x", "b": "nope"}})
	ue := r.Content["user_expressions"].(map[string]any)
	a, b := ue["a"].(map[string]any), ue["b"].(map[string]any)
	if a["status"] != "ok" || a["data"].(map[string]any)["text/plain"] != "9" {
		t.Errorf("user expression a = %v", a)
	}
	if b["status"] != "error" || b["ename"] != "NameError" {
		t.Errorf("user expression b = %v", b)
	}
}

func TestInterruptOverControlKeepsState(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	c.execute("x = 7", nil)
	id := c.send(c.shell, "execute_request", map[string]any{"code": "loop"})
	waitFor(t, c, id, "execute_input")
	start := time.Now()
	iid := c.send(c.control, "interrupt_request", map[string]any{})
	if r := c.reply(c.control, iid); r.Content["status"] != "ok" {
		t.Errorf("interrupt_reply %v", r.Content)
	}
	r, ok := c.tryReply(c.shell, id, time.Second)
	if !ok {
		t.Fatalf("cell not interrupted within 1s")
	}
	t.Logf("interrupt to reply: %v", time.Since(start))
	if r.Content["ename"] != "Interrupted" {
		t.Errorf("interrupted cell reply %v", r.Content)
	}
	if r, out := c.execute("x", nil); r.Content["status"] != "ok" || out[2].Content["data"].(map[string]any)["text/plain"] != "7" {
		t.Errorf("value lost after interrupt: %v %v", r.Content, out)
	}
}

func TestInterruptBySignalKeepsState(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	c.execute("x = 8", nil)
	id := c.send(c.shell, "execute_request", map[string]any{"code": "loop"})
	waitFor(t, c, id, "execute_input")
	k.signals <- interruptSignal{}
	r, ok := c.tryReply(c.shell, id, time.Second)
	if !ok || r.Content["ename"] != "Interrupted" {
		t.Fatalf("signal did not interrupt within 1s: %v", r.Content)
	}
	if r, out := c.execute("x", nil); r.Content["status"] != "ok" || out[2].Content["data"].(map[string]any)["text/plain"] != "8" {
		t.Errorf("value lost after interrupt: %v", r.Content)
	}
}

type interruptSignal struct{}

func (interruptSignal) String() string { return "interrupt (test)" }
func (interruptSignal) Signal()        {}

// waitFor reads iopub until request id publishes msgType.
func waitFor(t *testing.T, c *client, id, msgType string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case f := <-c.in[c.iopub]:
			if m := c.decode(f); m.Parent.MsgID == id && m.Type == msgType {
				return
			}
		case <-deadline:
			t.Fatalf("no %s for %s", msgType, id)
		}
	}
}

func TestHeartbeatAndControlWhileBusy(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	id := c.send(c.shell, "execute_request", map[string]any{"code": "sleep 5s"})
	waitFor(t, c, id, "execute_input")
	beats := 0
	for {
		if _, done := c.tryReply(c.shell, id, 250*time.Millisecond); done {
			break
		}
		if err := c.ping(time.Second); err != nil {
			t.Fatalf("heartbeat while busy: %v", err)
		}
		beats++
		if beats == 3 {
			kid := c.send(c.control, "kernel_info_request", map[string]any{})
			if _, ok := c.tryReply(c.control, kid, time.Second); !ok {
				t.Fatalf("control not served while shell is busy")
			}
		}
	}
	if beats < 10 {
		t.Errorf("only %d heartbeats answered during a 5 s cell", beats)
	}
}

func TestShutdown(t *testing.T) {
	for _, restart := range []bool{false, true} {
		k := startKernel(t)
		c := dial(t, k.ci)
		busy := c.send(c.shell, "execute_request", map[string]any{"code": "loop"})
		waitFor(t, c, busy, "execute_input")
		id := c.send(c.control, "shutdown_request", map[string]any{"restart": restart})
		r := c.reply(c.control, id)
		if r.Content["status"] != "ok" || r.Content["restart"] != restart {
			t.Errorf("shutdown_reply %v", r.Content)
		}
		if out := c.outputs(id); !strings.Contains(types(out), "shutdown_reply") {
			t.Errorf("iopub during shutdown: %s", types(out))
		}
		select {
		case err := <-k.done:
			if err != nil {
				t.Errorf("Serve returned %v after shutdown", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Serve still running after shutdown_request")
		}
		k.done <- nil // for the cleanup
	}
}

// A display a cell showed and the session updates after the cell ended (a
// live view between cells) reaches iopub as update_display_data with the
// display id, under the execute request of the cell that showed it — not
// the one that ran last.
func TestBackgroundUpdatesGoOutUnderTheirCell(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	showing := c.send(c.shell, "execute_request", map[string]any{"code": "show v1 first\nlater 300ms v1 second", "silent": false,
		"store_history": true, "user_expressions": map[string]any{}, "allow_stdin": true, "stop_on_error": true})
	c.reply(c.shell, showing)
	c.outputs(showing)
	c.execute("echo a later cell", nil)
	deadline := time.After(10 * time.Second)
	for {
		select {
		case f := <-c.in[c.iopub]:
			m := c.decode(f)
			if m.Type != "update_display_data" {
				continue
			}
			tr, _ := m.Content["transient"].(map[string]any)
			data, _ := m.Content["data"].(map[string]any)
			if m.Parent.MsgID != showing || tr["display_id"] != "v1" || data["text/plain"] != "second" {
				t.Errorf("update under %q (want %q), transient %v, data %v", m.Parent.MsgID, showing, tr, data)
			}
			return
		case <-deadline:
			t.Fatal("no update_display_data from outside the cell")
		}
	}
}

// A client that cannot answer input requests (nbclient: nbconvert,
// papermill) runs cells headless; a notebook front end allows stdin and
// watches its displays change.
func TestAllowStdinFalseMeansHeadless(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	for allow, want := range map[bool]string{false: "true", true: "false"} {
		_, out := c.execute("headless", map[string]any{"allow_stdin": allow})
		var got any
		for _, m := range out {
			if m.Type == "execute_result" {
				got = m.Content["data"].(map[string]any)["text/plain"]
			}
		}
		if got != want {
			t.Errorf("allow_stdin %v: the cell is headless %v, want %s", allow, got, want)
		}
	}
}
