//go:build linux

package prebind

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
)

func connectionFile(t *testing.T, fields map[string]any) string {
	t.Helper()
	data, _ := json.Marshal(fields)
	path := filepath.Join(t.TempDir(), "kernel.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// freePorts are five local ports nobody listens on.
func freePorts(t *testing.T) []int {
	var ports []int
	for range 5 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

func fields(ip, transport string, p []int) map[string]any {
	return map[string]any{"transport": transport, "ip": ip, "shell_port": p[0], "control_port": p[1],
		"iopub_port": p[2], "stdin_port": p[3], "hb_port": p[4], "key": "k", "signature_scheme": "hmac-sha256"}
}

func TestBindListensOnEveryPort(t *testing.T) {
	p := freePorts(t)
	sockets := bind(connectionFile(t, fields("127.0.0.1", "tcp", p)))
	if len(sockets) != 5 {
		t.Fatalf("%d sockets", len(sockets))
	}
	for _, port := range p {
		l, err := net.FileListener(sockets[port])
		sockets[port].Close()
		if err != nil {
			t.Fatalf("port %d: %v", port, err)
		}
		defer l.Close()
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatalf("port %d does not accept: %v", port, err)
		}
		c.Close()
	}
}

// Whatever bind does not handle leaves every port free for the kernel,
// which binds them, or reports the problem, itself.
func TestBindLeavesUnusualFilesToTheKernel(t *testing.T) {
	p := freePorts(t)
	taken, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p[3]))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"a port is taken": connectionFile(t, fields("127.0.0.1", "tcp", p)),
		"ipc":             connectionFile(t, fields("/tmp/kernel", "ipc", p)),
		"a host name":     connectionFile(t, fields("localhost", "tcp", p)),
		"IPv6":            connectionFile(t, fields("::1", "tcp", p)),
		"no file":         filepath.Join(t.TempDir(), "missing.json"),
		"not JSON":        connectionFile(t, nil),
	}
	os.WriteFile(cases["not JSON"], []byte("{"), 0o600)
	for name, file := range cases {
		if s := bind(file); s != nil {
			t.Errorf("%s: bound %v", name, s)
		}
	}
	taken.Close()
	for _, port := range p {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Errorf("port %d left bound: %v", port, err)
			continue
		}
		l.Close()
	}
}

func TestTakeHandsTheSocketsOverOnce(t *testing.T) {
	p := freePorts(t)
	file := connectionFile(t, fields("127.0.0.1", "tcp", p))
	early.file, early.sockets = file, bind(file)
	if s := Take("other.json"); s != nil {
		t.Errorf("sockets for another file: %v", s)
	}
	s := Take(file)
	if len(s) != 5 {
		t.Fatalf("took %d sockets", len(s))
	}
	for _, f := range s {
		f.Close()
	}
	if again := Take(file); again != nil {
		t.Errorf("taken twice: %v", again)
	}
}
