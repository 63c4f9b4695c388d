package kernel

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/routelab/routelab/internal/testutil"
	"github.com/routelab/routelab/kernel/internal/fakelang"
)

// signedFrames builds an execute_request signed by s, for forging tests.
func signedFrames(t *testing.T, s signer, id *identity, code string) (string, [][]byte) {
	t.Helper()
	h := id.header("execute_request")
	frames, err := encode(s, nil, h, nil, nil, map[string]any{"code": code})
	if err != nil {
		t.Fatal(err)
	}
	return h.MsgID, frames
}

// expectOnly reads shell and iopub until request id is idle and fails if
// any message answers another request.
func expectOnly(t *testing.T, c *client, id string) {
	t.Helper()
	m, ok := c.next(c.shell, 5*time.Second)
	if !ok {
		t.Fatalf("no reply to the good request")
	}
	if m.Parent.MsgID != id {
		t.Fatalf("kernel answered a bad message: %s to %s", m.Type, m.Parent.MsgID)
	}
	for {
		m, ok := c.next(c.iopub, 5*time.Second)
		if !ok {
			t.Fatalf("no idle for the good request")
		}
		if m.Parent.MsgID != id {
			t.Fatalf("kernel published %s for a bad message %s", m.Type, m.Parent.MsgID)
		}
		if m.Type == "status" && m.Content["execution_state"] == "idle" {
			return
		}
	}
}

func TestForgedMessagesAreDropped(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	c.execute("x = safe", nil)
	c.drain(c.iopub, 50*time.Millisecond)

	wrongKey, _ := newSigner("hmac-sha256", "not-the-key")
	wrongScheme, _ := newSigner("hmac-sha512", testKey)
	forged := map[string][][]byte{}
	_, forged["wrong key"] = signedFrames(t, wrongKey, &c.id, "x = hacked")
	_, forged["wrong scheme"] = signedFrames(t, wrongScheme, &c.id, "x = hacked")
	_, f := signedFrames(t, c.sign, &c.id, "x = fine")
	f[5] = []byte(`{"code": "x = hacked"}`)
	forged["altered content"] = f
	_, f = signedFrames(t, c.sign, &c.id, "x = hacked")
	f[1] = []byte{}
	forged["missing signature"] = f
	_, f = signedFrames(t, c.sign, &c.id, "x = hacked")
	f[1] = []byte("zz" + string(f[1][2:]))
	forged["non-hex signature"] = f
	for _, frames := range forged {
		c.sendRaw(c.shell, frames)
		c.sendRaw(c.control, frames)
	}
	id := c.send(c.shell, "execute_request", map[string]any{"code": "x"})
	expectOnly(t, c, id)
	// Each channel reads in order, so once control answers a good request
	// every forged control message before it has been judged and logged.
	c.reply(c.control, c.send(c.control, "kernel_info_request", map[string]any{}))
	if _, out := c.execute("x", nil); out[2].Content["data"].(map[string]any)["text/plain"] != "safe" {
		t.Errorf("a forged message ran: x = %v", out[2].Content)
	}
	if n := strings.Count(k.logs.String(), "dropped a message"); n != 2*len(forged) {
		t.Errorf("%d drop lines logged, want %d:\n%s", n, 2*len(forged), k.logs.String())
	}
}

func TestMalformedMessagesDoNotCrash(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	sign := func(parts ...string) [][]byte {
		var p [4][]byte
		for i := range p {
			p[i] = []byte(parts[i])
		}
		return append([][]byte{[]byte(delimiter), c.sign.sign(p)}, p[:]...)
	}
	garbage := make([]byte, 70000)
	for i := range garbage {
		garbage[i] = byte(i * 7919)
	}
	cases := map[string][][]byte{
		"one frame":                {[]byte("garbage")},
		"no delimiter":             {[]byte("a"), []byte("b"), []byte("c"), []byte("d"), []byte("e"), []byte("f")},
		"too few frames":           {[]byte(delimiter), []byte("sig"), []byte("{}")},
		"header not JSON":          sign(`{"msg_type": "execute_request"`, "{}", "{}", "{}"),
		"header an array":          sign(`[]`, "{}", "{}", "{}"),
		"header without msg_type":  sign(`{"msg_id": "1"}`, "{}", "{}", "{}"),
		"content not an object":    sign(`{"msg_id": "2", "msg_type": "execute_request"}`, "{}", "{}", "[1, 2]"),
		"binary garbage":           {garbage, []byte(delimiter), garbage, garbage, garbage, garbage, garbage},
		"empty frames after delim": {[]byte(delimiter), {}, {}, {}, {}, {}},
	}
	for name, frames := range cases {
		c.sendRaw(c.shell, frames)
		c.sendRaw(c.control, frames)
		for ch, sock := range map[string]zmq4.Socket{"shell": c.shell, "control": c.control} {
			id := c.send(sock, "kernel_info_request", map[string]any{})
			if _, ok := c.tryReply(sock, id, 5*time.Second); !ok {
				t.Fatalf("after %q the kernel no longer answers on %s", name, ch)
			}
		}
	}
	// A raw TCP peer speaking no ZMTP at all.
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", k.ci.ShellPort))
	if err != nil {
		t.Fatal(err)
	}
	conn.Write(garbage[:4096])
	conn.Close()
	// A well-signed request whose content has the wrong types gets an error reply.
	id := c.send(c.shell, "execute_request", map[string]any{"code": 42})
	if r := c.reply(c.shell, id); r.Content["status"] != "error" || r.Content["ename"] != "BadRequest" {
		t.Errorf("bad content reply %v", r.Content)
	}
	if r, _ := c.execute("echo ok", nil); r.Content["status"] != "ok" {
		t.Errorf("kernel unusable after malformed input: %v", r.Content)
	}
}

func TestUnsignedKernel(t *testing.T) {
	ci := testConnectionInfo(t, "")
	k := startKernelWith(t, ci)
	c := dial(t, k.ci)
	if r, _ := c.execute("echo unsigned", nil); r.Content["status"] != "ok" {
		t.Fatalf("unsigned round trip %v", r.Content)
	}
	// With signing disabled a signature is not checked.
	_, frames := signedFrames(t, signer{key: []byte("x"), newHash: c.sign.newHash}, &c.id, "echo any")
	c.sendRaw(c.shell, frames)
	if r, _ := c.execute("echo after", nil); r.Content["execution_count"] != 3.0 {
		t.Errorf("a message with an ignored signature was not run: %v", r.Content)
	}
}

func TestIPCTransport(t *testing.T) {
	ci := testConnectionInfo(t, testKey)
	ci.Transport = "ipc"
	ci.IP = filepath.Join(t.TempDir(), "kernel")
	k := startKernelWith(t, ci)
	c := dial(t, k.ci)
	if r, _ := c.execute("echo over ipc", nil); r.Content["status"] != "ok" {
		t.Fatalf("ipc round trip %v", r.Content)
	}
}

func TestSequentialExecutesStayFlat(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	run := func(n int) {
		for i := range n {
			if r, _ := c.execute(fmt.Sprintf("x = %d\nprint line $x\necho $x", i), nil); r.Content["status"] != "ok" {
				t.Fatalf("execute %d: %v", i, r.Content)
			}
		}
	}
	settle := func() (int, uint64) {
		time.Sleep(200 * time.Millisecond) // transient send goroutines end
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return runtime.NumGoroutine(), ms.HeapAlloc
	}
	run(50)
	g0, h0 := settle()
	run(1000)
	g1, h1 := settle()
	t.Logf("goroutines %d -> %d, heap %d KiB -> %d KiB", g0, g1, h0>>10, h1>>10)
	if g1 > g0+2 {
		t.Errorf("goroutines grew from %d to %d over 1,000 executes", g0, g1)
	}
	// History keeps ~100 bytes a cell; a leaked message would be kilobytes.
	if h1 > h0+1<<20 {
		t.Errorf("heap grew by %d KiB over 1,000 executes", (h1-h0)>>10)
	}
}

func TestServeStartupErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ci := testConnectionInfo(t, testKey)
	held, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", ci.IOPubPort))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	busyFile := writeConnectionFile(t, ci)
	bad := ci
	bad.SignatureScheme = "hmac-md5"
	dup := ci
	dup.HBPort = dup.ShellPort
	cases := []struct {
		file string
		want []string
	}{
		{filepath.Join(dir, "missing.json"), []string{"missing.json", "does not exist"}},
		{dir, []string{"cannot read connection file", dir}},
		{write("empty.json", ""), []string{"empty.json", "is empty"}},
		{write("syntax.json", "{\n \"ip\": \"127.0.0.1\",\n \"shell_port\": ,\n}"), []string{"syntax.json", "line 3, column 16"}},
		{write("type.json", `{"ip": "127.0.0.1", "shell_port": "5555"}`), []string{"type.json", `"shell_port" is a JSON string, want a number`}},
		{write("array.json", `[]`), []string{"array.json", `"document" is a JSON array, want an object`}},
		{write("noport.json", `{"ip": "127.0.0.1", "transport": "tcp"}`), []string{"noport.json", `"shell_port" is 0`}},
		{writeConnectionFile(t, bad), []string{`signature_scheme "hmac-md5" is not supported`}},
		{writeConnectionFile(t, dup), []string{`"shell_port" and "hb_port" are both`}},
		{busyFile, []string{fmt.Sprintf("iopub_port %d", ci.IOPubPort), busyFile, "address already in use"}},
	}
	for _, tc := range cases {
		err := Serve(context.Background(), tc.file, fakelang.New(), &testutil.SyncBuffer{})
		if err == nil {
			t.Errorf("%s: Serve succeeded", tc.file)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("error is not one line: %q", err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not mention %q", err, w)
			}
		}
	}
	if err := Serve(context.Background(), busyFile, nil, nil); err == nil || !strings.Contains(err.Error(), "Interpreter") {
		t.Errorf("nil interpreter: %v", err)
	}
	// The ports bound before the failure were released: the kernel starts
	// once the held port is free.
	held.Close()
	k := startKernelWith(t, ci)
	dial(t, k.ci)
}

func TestCancelStopsServe(t *testing.T) {
	k := startKernel(t)
	c := dial(t, k.ci)
	c.send(c.shell, "execute_request", map[string]any{"code": "loop"})
	time.Sleep(50 * time.Millisecond)
	k.cancel()
	select {
	case err := <-k.done:
		if err != nil {
			t.Errorf("Serve returned %v on cancel", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
	k.done <- nil
}

// zmtpGreeting is a ZMTP 3.0 client greeting for the NULL mechanism.
func zmtpGreeting() []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}

// zmtpReady is a READY command frame carrying body after the command name.
func zmtpReady(props []byte) []byte {
	body := append([]byte("\x05READY"), props...)
	return append([]byte{0x04, byte(len(body))}, body...)
}

func zmtpProp(name, value string) []byte {
	p := append([]byte{byte(len(name))}, name...)
	p = binary.BigEndian.AppendUint32(p, uint32(len(value)))
	return append(p, value...)
}

func TestHostilePeersNeitherStallNorCrash(t *testing.T) {
	k := startKernel(t)
	addr := fmt.Sprintf("127.0.0.1:%d", k.ci.ShellPort)
	open := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// A peer that connects and says nothing must not hold up others.
	open()
	// Truncated handshake metadata (zmq4's property parser panics on it).
	bad := open()
	bad.Write(append(zmtpGreeting(), zmtpReady([]byte("\x0bSocket-Type\x00\x00"))...))
	// A peer that declares a 1 TiB frame after a valid handshake.
	big := open()
	big.Write(append(zmtpGreeting(), zmtpReady(append(zmtpProp("Socket-Type", "DEALER"), zmtpProp("Identity", "")...))...))
	big.Write(append([]byte{0x02}, binary.BigEndian.AppendUint64(nil, 1<<40)...))

	c := dial(t, k.ci)
	if r, _ := c.execute("echo fine", nil); r.Content["status"] != "ok" {
		t.Fatalf("kernel after hostile peers: %v", r.Content)
	}
	for _, conn := range []net.Conn{bad, big} {
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.Copy(io.Discard, conn); err != nil {
			t.Errorf("hostile connection not closed by the kernel: %v", err)
		}
	}
	logs := k.logs.String()
	for _, want := range []string{"malformed handshake", "exceeds the 1073741824-byte limit"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}

// A subscriber that never reads fills its own queue and loses messages;
// another subscriber gets every message meanwhile, and the kernel goes on
// without waiting for the slow one to time out.
func TestSlowSubscriberDoesNotStallOthers(t *testing.T) {
	k := startKernel(t)
	slow, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", k.ci.IOPubPort))
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	slow.Write(append(zmtpGreeting(), zmtpReady(zmtpProp("Socket-Type", "SUB"))...))
	slow.Write([]byte{0x00, 0x01, 0x01}) // subscribe to everything; then never read
	c := dial(t, k.ci)

	const displays = 20000 // far more than a socket buffers or a queue holds
	code := strings.Repeat("html <p>a display of some size, to fill buffers sooner</p>\n", displays)
	id := c.send(c.shell, "execute_request", map[string]any{"code": code})
	got := 0
	for done := false; !done; {
		m, ok := c.next(c.iopub, 30*time.Second)
		if !ok {
			t.Fatalf("the reading subscriber stalled after %d displays", got)
		}
		if m.Parent.MsgID != id {
			continue
		}
		got += map[bool]int{true: 1}[m.Type == "display_data"]
		done = m.Type == "status" && m.Content["execution_state"] == "idle"
	}
	if got != displays {
		t.Errorf("the reading subscriber got %d of %d displays", got, displays)
	}
	if r := c.reply(c.shell, id); r.Content["status"] != "ok" {
		t.Errorf("reply %v", r.Content)
	}
	logs := k.logs.String()
	if !strings.Contains(logs, "stopped reading; it loses messages") {
		t.Errorf("the slow subscriber lost nothing:\n%s", logs)
	}
	if strings.Contains(logs, "dropped a subscriber") {
		t.Errorf("the kernel waited for the slow subscriber to time out:\n%s", logs)
	}
}

// Sockets handed to Serve already listening are served as they are: the
// test keeps its own listeners open, so binding those ports again would
// fail.
func TestServeUsesListeningSocketsItIsGiven(t *testing.T) {
	ci := testConnectionInfo(t, testKey)
	sockets := map[int]*os.File{}
	for _, port := range []int{ci.ShellPort, ci.HBPort} {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		f, err := l.(*net.TCPListener).File()
		if err != nil {
			t.Fatal(err)
		}
		sockets[port] = f
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	logs := &testutil.SyncBuffer{}
	go func() { done <- Serve(ctx, writeConnectionFile(t, ci), fakelang.New(), logs, WithListeners(sockets)) }()
	defer func() { cancel(); <-done }()
	waitListening(t, ci)
	c := dial(t, ci)
	if r, _ := c.execute("echo served", nil); r.Content["status"] != "ok" {
		t.Fatalf("execute: %v\n%s", r.Content, logs.String())
	}
	if err := c.ping(5 * time.Second); err != nil {
		t.Errorf("heartbeat on a given socket: %v", err)
	}
}
