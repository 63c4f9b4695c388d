package fakelang

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/routelab/routelab/display"
)

// commTarget is the only comm target the front end may open: others are
// refused, so the kernel closes them.
const commTarget = "echo"

// comm runs "comm open|msg|close|received ...".
func (s *Session) comm(args string, sink display.Sink) (display.Bundle, error) {
	f := strings.SplitN(args, " ", 4)
	if f[0] == "received" {
		s.mu.Lock()
		got := strings.Join(s.received, "\n")
		s.received = nil
		s.mu.Unlock()
		return display.Bundle{display.TextPlain: got}, nil
	}
	c, ok := sink.(display.Comms)
	if !ok {
		return nil, namedError{"CommError", "this cell's output cannot carry comms"}
	}
	if len(f) < 2 {
		return nil, namedError{"SyntaxError", fmt.Sprintf("comm %q: want open, msg, close or received and a comm id", args)}
	}
	id := f[1]
	switch f[0] {
	case "open":
		if len(f) < 3 {
			return nil, namedError{"SyntaxError", "comm open: want a comm id and a target"}
		}
		data, err := jsonObject(strings.Join(f[3:], " "))
		if err != nil {
			return nil, err
		}
		c.CommOpen(id, f[2], data, map[string]any{"version": "2.1.0"})
	case "msg":
		data, err := jsonObject(strings.Join(f[2:], " "))
		if err != nil {
			return nil, err
		}
		c.CommMsg(id, data, nil)
	case "close":
		c.CommClose(id, nil)
	default:
		return nil, namedError{"SyntaxError", fmt.Sprintf("comm %q: want open, msg, close or received", f[0])}
	}
	return nil, nil
}

func jsonObject(text string) (map[string]any, error) {
	if strings.TrimSpace(text) == "" {
		return map[string]any{}, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, namedError{"JSONError", err.Error()}
	}
	return m, nil
}

// CommOpen accepts comms on commTarget only.
func (s *Session) CommOpen(id, target string, data map[string]any) bool {
	if target != commTarget {
		return false
	}
	s.record("open", id, data)
	return true
}

// CommMsg records the message; one with an "echo" entry is answered on the
// same comm from outside any cell, through the background sink.
func (s *Session) CommMsg(id string, data map[string]any) {
	s.record("msg", id, data)
	if v, ok := data["echo"]; ok {
		s.mu.Lock()
		bg := s.background
		s.mu.Unlock()
		if c, ok := bg.(display.Comms); ok {
			c.CommMsg(id, map[string]any{"echoed": v}, nil)
		}
	}
}

// CommClose records the close.
func (s *Session) CommClose(id string, data map[string]any) { s.record("close", id, data) }

func (s *Session) record(kind, id string, data map[string]any) {
	b, _ := json.Marshal(data)
	s.mu.Lock()
	s.received = append(s.received, kind+" "+id+" "+string(b))
	s.mu.Unlock()
}
