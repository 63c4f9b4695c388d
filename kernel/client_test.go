package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/routelab/routelab/internal/testutil"
	"github.com/routelab/routelab/kernel/internal/fakelang"
)

// This file is a small Jupyter client over zmq4 for the protocol tests, and
// a harness that runs Serve in-process against the fakelang interpreter.

const testKey = "4f1c1a4e-test-key"

type testKernel struct {
	t       testing.TB
	ci      ConnectionInfo
	file    string
	interp  *fakelang.Session
	signals chan os.Signal
	logs    *testutil.SyncBuffer
	cancel  context.CancelFunc
	done    chan error
}

// freePorts reserves n distinct local TCP ports.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

func testConnectionInfo(t testing.TB, key string) ConnectionInfo {
	p := freePorts(t, 5)
	return ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1],
		IOPubPort: p[2], StdinPort: p[3], HBPort: p[4], Key: key, SignatureScheme: "hmac-sha256"}
}

func writeConnectionFile(t testing.TB, ci ConnectionInfo) string {
	t.Helper()
	data, err := json.Marshal(ci)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kernel.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startKernel serves fakelang in-process; it is stopped when the test ends.
func startKernel(t testing.TB) *testKernel {
	return startKernelWith(t, testConnectionInfo(t, testKey))
}

func startKernelWith(t testing.TB, ci ConnectionInfo) *testKernel {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	k := &testKernel{t: t, ci: ci, file: writeConnectionFile(t, ci), interp: fakelang.New(),
		signals: make(chan os.Signal, 1), logs: &testutil.SyncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	go func() { k.done <- Serve(ctx, k.file, k.interp, k.logs, WithSignals(k.signals)) }()
	waitListening(t, ci)
	t.Cleanup(func() {
		cancel()
		select {
		case <-k.done:
		case <-time.After(10 * time.Second):
			t.Errorf("Serve did not return after cancel")
		}
		if t.Failed() {
			t.Logf("kernel log:\n%s", k.logs.String())
		}
	})
	return k
}

// waitListening returns once the kernel accepts connections on hb_port,
// the last channel it binds.
func waitListening(t testing.TB, ci ConnectionInfo) {
	t.Helper()
	network, addr := "tcp", fmt.Sprintf("%s:%d", ci.IP, ci.HBPort)
	if ci.Transport == "ipc" {
		network, addr = "unix", fmt.Sprintf("%s-%d", ci.IP, ci.HBPort)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if c, err := net.Dial(network, addr); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("kernel not listening on %s", addr)
}

// msg is a decoded message as the client sees it.
type msg struct {
	Type     string
	ID       string
	Parent   header
	Metadata map[string]any
	Content  map[string]any
}

type client struct {
	t       testing.TB
	sign    signer
	id      identity
	shell   zmq4.Socket
	control zmq4.Socket
	stdin   zmq4.Socket
	iopub   zmq4.Socket
	hb      zmq4.Socket
	in      map[zmq4.Socket]chan [][]byte
}

func dial(t testing.TB, ci ConnectionInfo) *client {
	t.Helper()
	s, err := newSigner(ci.SignatureScheme, ci.Key)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opts := []zmq4.Option{zmq4.WithDialerRetry(20 * time.Millisecond), zmq4.WithDialerMaxRetries(250)}
	c := &client{t: t, sign: s, in: map[zmq4.Socket]chan [][]byte{}}
	c.id.session = "test-client"
	c.shell, c.control, c.stdin = zmq4.NewDealer(ctx, opts...), zmq4.NewDealer(ctx, opts...), zmq4.NewDealer(ctx, opts...)
	c.iopub, c.hb = zmq4.NewSub(ctx, opts...), zmq4.NewReq(ctx, opts...)
	for sock, port := range map[zmq4.Socket]int{c.shell: ci.ShellPort, c.control: ci.ControlPort,
		c.stdin: ci.StdinPort, c.iopub: ci.IOPubPort, c.hb: ci.HBPort} {
		if err := sock.Dial(ci.endpoint(port)); err != nil {
			t.Fatalf("dial %d: %v", port, err)
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	for _, sock := range []zmq4.Socket{c.shell, c.control, c.iopub} {
		ch := make(chan [][]byte, 4096)
		c.in[sock] = ch
		go func() {
			for {
				m, err := sock.Recv()
				if err != nil {
					return
				}
				ch <- m.Frames
			}
		}()
	}
	t.Cleanup(c.close)
	c.waitReady()
	return c
}

func (c *client) close() {
	for _, s := range []zmq4.Socket{c.shell, c.control, c.stdin, c.iopub, c.hb} {
		s.Close()
	}
}

// waitReady repeats kernel_info until both the reply and iopub traffic
// arrive, as jupyter_client does (PUB drops messages sent before the
// subscription lands).
func (c *client) waitReady() {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		if _, ok := c.tryReply(c.shell, id, time.Second); !ok {
			continue
		}
		if _, ok := c.next(c.iopub, 200*time.Millisecond); ok {
			c.drain(c.iopub, 100*time.Millisecond)
			return
		}
	}
	c.t.Fatal("kernel never became ready")
}

func (c *client) send(sock zmq4.Socket, msgType string, content any) string {
	c.t.Helper()
	h := c.id.header(msgType)
	frames, err := encode(c.sign, nil, h, nil, nil, content)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(sock, frames)
	return h.MsgID
}

func (c *client) sendRaw(sock zmq4.Socket, frames [][]byte) {
	c.t.Helper()
	if err := sock.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) decode(frames [][]byte) msg {
	c.t.Helper()
	m, err := parseMessage(frames, c.sign)
	if err != nil {
		c.t.Fatalf("kernel sent a bad message: %v", err)
	}
	out := msg{Type: m.header.MsgType, ID: m.header.MsgID}
	at := len(m.ids) + 3 // delimiter, signature, header, then parent
	if err := json.Unmarshal(frames[at], &out.Parent); err != nil {
		c.t.Fatalf("parent header: %v", err)
	}
	if err := json.Unmarshal(frames[at+1], &out.Metadata); err != nil {
		c.t.Fatalf("metadata: %v", err)
	}
	if err := json.Unmarshal(m.content, &out.Content); err != nil {
		c.t.Fatalf("content: %v", err)
	}
	return out
}

// next returns the next message on a socket.
func (c *client) next(sock zmq4.Socket, timeout time.Duration) (msg, bool) {
	select {
	case f := <-c.in[sock]:
		return c.decode(f), true
	case <-time.After(timeout):
		return msg{}, false
	}
}

// tryReply waits for the reply whose parent is id, skipping other replies.
func (c *client) tryReply(sock zmq4.Socket, id string, timeout time.Duration) (msg, bool) {
	deadline := time.After(timeout)
	for {
		select {
		case f := <-c.in[sock]:
			if m := c.decode(f); m.Parent.MsgID == id {
				return m, true
			}
		case <-deadline:
			return msg{}, false
		}
	}
}

func (c *client) reply(sock zmq4.Socket, id string) msg {
	c.t.Helper()
	m, ok := c.tryReply(sock, id, 10*time.Second)
	if !ok {
		c.t.Fatalf("no reply to %s", id)
	}
	return m
}

// outputs collects the iopub messages of request id, from busy to idle.
func (c *client) outputs(id string) []msg {
	c.t.Helper()
	var out []msg
	deadline := time.After(10 * time.Second)
	for {
		select {
		case f := <-c.in[c.iopub]:
			m := c.decode(f)
			if m.Parent.MsgID != id {
				continue
			}
			out = append(out, m)
			if m.Type == "status" && m.Content["execution_state"] == "idle" {
				return out
			}
		case <-deadline:
			c.t.Fatalf("no idle for %s; got %s", id, types(out))
		}
	}
}

func (c *client) drain(sock zmq4.Socket, quiet time.Duration) {
	for {
		select {
		case <-c.in[sock]:
		case <-time.After(quiet):
			return
		}
	}
}

// execute runs code and returns the reply and iopub messages.
func (c *client) execute(code string, extra map[string]any) (msg, []msg) {
	c.t.Helper()
	content := map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true}
	for k, v := range extra {
		content[k] = v
	}
	id := c.send(c.shell, "execute_request", content)
	r := c.reply(c.shell, id)
	return r, c.outputs(id)
}

func (c *client) ping(timeout time.Duration) error {
	if err := c.hb.Send(zmq4.NewMsgString("ping")); err != nil {
		return err
	}
	got := make(chan error, 1)
	go func() {
		m, err := c.hb.Recv()
		if err == nil && string(m.Bytes()) != "ping" {
			err = fmt.Errorf("heartbeat echoed %q", m.Bytes())
		}
		got <- err
	}()
	select {
	case err := <-got:
		return err
	case <-time.After(timeout):
		return fmt.Errorf("no heartbeat within %v", timeout)
	}
}

func types(ms []msg) string {
	var s []string
	for _, m := range ms {
		t := m.Type
		if t == "status" {
			t += ":" + fmt.Sprint(m.Content["execution_state"])
		}
		s = append(s, t)
	}
	return strings.Join(s, " ")
}
