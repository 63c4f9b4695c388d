package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ConnectionInfo is the content of a Jupyter connection file: where the five
// channels listen and how messages are signed.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and checks a connection file. Errors name the file
// and, for malformed JSON, the line and column.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return ConnectionInfo{}, fmt.Errorf("connection file %s does not exist", path)
		}
		return ConnectionInfo{}, fmt.Errorf("cannot read connection file: %w", err)
	}
	return ParseConnectionInfo(path, data)
}

// ParseConnectionInfo parses connection-file JSON; name is used in errors.
func ParseConnectionInfo(name string, data []byte) (ConnectionInfo, error) {
	var ci ConnectionInfo
	if len(bytes.TrimSpace(data)) == 0 {
		return ci, fmt.Errorf("connection file %s is empty", name)
	}
	if err := json.Unmarshal(data, &ci); err != nil {
		return ci, fmt.Errorf("connection file %s: %s", name, describeJSONError(data, err))
	}
	if err := ci.check(); err != nil {
		return ci, fmt.Errorf("connection file %s: %w", name, err)
	}
	return ci, nil
}

func (ci *ConnectionInfo) check() error {
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return fmt.Errorf("transport %q is not supported (want \"tcp\" or \"ipc\")", ci.Transport)
	}
	if ci.IP == "" {
		return errors.New(`"ip" is missing`)
	}
	if ci.SignatureScheme == "" {
		ci.SignatureScheme = "hmac-sha256"
	}
	if _, err := newSigner(ci.SignatureScheme, ci.Key); err != nil {
		return err
	}
	seen := map[int]string{}
	for _, p := range ci.ports() {
		if p.port <= 0 || p.port > 65535 {
			return fmt.Errorf("%q is %d (want a port from 1 to 65535)", p.field, p.port)
		}
		if other, dup := seen[p.port]; dup {
			return fmt.Errorf("%q and %q are both %d (each channel needs its own port)", other, p.field, p.port)
		}
		seen[p.port] = p.field
	}
	return nil
}

type namedPort struct {
	channel, field string
	port           int
}

func (ci ConnectionInfo) ports() []namedPort {
	return []namedPort{
		{"shell", "shell_port", ci.ShellPort},
		{"control", "control_port", ci.ControlPort},
		{"iopub", "iopub_port", ci.IOPubPort},
		{"stdin", "stdin_port", ci.StdinPort},
		{"heartbeat", "hb_port", ci.HBPort},
	}
}

// endpoint is the ZeroMQ address of one channel; ipc endpoints follow
// Jupyter's "<ip>-<port>" path convention.
func (ci ConnectionInfo) endpoint(port int) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", ci.IP, port)
	}
	host := ci.IP
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]"
	}
	return fmt.Sprintf("tcp://%s:%d", host, port)
}

// describeJSONError turns a decoding error into a message with a line:column
// position when encoding/json reports an offset.
func describeJSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset)
		return fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, syn)
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset)
		field := typ.Field
		if field == "" {
			field = "document"
		}
		return fmt.Sprintf("line %d, column %d: %q is a JSON %s, want %s", line, col, field, typ.Value, jsonKind(typ.Type.Kind().String()))
	}
	return "invalid JSON: " + err.Error()
}

// position converts a byte offset into a 1-based line and column (in bytes).
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset < 0 {
		offset = 0
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1)
	if col == 0 {
		col = 1
	}
	return line, col
}
