package fakelang

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/routelab/routelab/display"
)

// Session is one interpreter session; its variables survive interrupts.
type Session struct {
	mu         sync.Mutex
	vars       map[string]string
	interrupt  chan struct{} // closed to interrupt the running cell
	background display.Sink  // output outside a cell (SetBackgroundSink)
	received   []string      // the front end's comm messages (comms.go)
}

// SetBackgroundSink gives the session where output outside a cell goes.
func (s *Session) SetBackgroundSink(sink display.Sink) {
	s.mu.Lock()
	s.background = sink
	s.mu.Unlock()
}

// New returns an empty session.
func New() *Session {
	return &Session{vars: map[string]string{}}
}

// keywords are the statement words, for completion and inspection.
func keywords() []string {
	return []string{"clear", "comm", "echo", "eprint", "fail", "headless", "html", "json", "later", "loop", "md", "panic", "png", "print", "show", "sleep", "svg", "update", "write"}
}

// Execute runs the cell's lines in order, stopping at the first failure.
func (s *Session) Execute(ctx context.Context, code string, sink display.Sink) (display.Bundle, error) {
	stop := make(chan struct{})
	s.mu.Lock()
	s.interrupt = stop
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.interrupt = nil
		s.mu.Unlock()
	}()
	var result display.Bundle
	for i, line := range strings.Split(code, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line == "{" || line == "}" || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := s.statement(ctx, stop, s.expand(line), sink)
		if err != nil {
			return nil, &display.Error{Name: errName(err), Value: err.Error(),
				Traceback: []string{fmt.Sprintf("line %d: %s", i+1, line), errName(err) + ": " + err.Error()}}
		}
		if v != nil {
			result = v
		}
	}
	return result, nil
}

type namedError struct{ name, msg string }

func (e namedError) Error() string { return e.msg }

func errName(err error) string {
	if n, ok := err.(namedError); ok {
		return n.name
	}
	return "EchoError"
}

func (s *Session) expand(line string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !strings.Contains(line, "$") {
		return line
	}
	names := make([]string, 0, len(s.vars))
	for n := range s.vars {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	for _, n := range names {
		line = strings.ReplaceAll(line, "$"+n, s.vars[n])
	}
	return line
}

func (s *Session) statement(ctx context.Context, stop chan struct{}, line string, sink display.Sink) (display.Bundle, error) {
	word, rest, _ := strings.Cut(line, " ")
	if name, value, ok := strings.Cut(line, "="); ok && isIdent(strings.TrimSpace(name)) {
		s.mu.Lock()
		s.vars[strings.TrimSpace(name)] = strings.TrimSpace(value)
		s.mu.Unlock()
		return nil, nil
	}
	switch word {
	case "print":
		sink.Stream("stdout", unescape(rest)+"\n")
	case "write":
		sink.Stream("stdout", unescape(rest))
	case "eprint":
		sink.Stream("stderr", unescape(rest)+"\n")
	case "echo":
		return display.Bundle{display.TextPlain: rest}, nil
	case "html":
		sink.Display(display.Bundle{display.TextHTML: rest, display.TextPlain: "<html>"}, "", false)
	case "md":
		sink.Display(display.Bundle{display.Markdown: rest, display.TextPlain: rest}, "", false)
	case "json":
		var v any
		if err := json.Unmarshal([]byte(rest), &v); err != nil {
			return nil, namedError{"JSONError", err.Error()}
		}
		sink.Display(display.Bundle{display.JSON: v, display.TextPlain: rest}, "", false)
	case "svg":
		sink.Display(display.Bundle{display.SVG: svgImage, display.TextPlain: "<svg>"}, "", false)
	case "png":
		sink.Display(display.Bundle{display.PNG: pngImage(), display.TextPlain: "<png>"}, "", false)
	case "show", "update":
		id, text, _ := strings.Cut(rest, " ")
		sink.Display(display.Bundle{display.TextPlain: text}, id, word == "update")
	case "later":
		return nil, s.later(rest)
	case "headless":
		h, ok := sink.(display.Headless)
		return display.Bundle{display.TextPlain: fmt.Sprint(ok && h.Headless())}, nil
	case "clear":
		sink.Clear(rest == "wait")
	case "fail":
		return nil, namedError{"EchoError", rest}
	case "sleep":
		d, err := time.ParseDuration(rest)
		if err != nil {
			return nil, namedError{"SyntaxError", fmt.Sprintf("sleep %q: %v", rest, err)}
		}
		return nil, wait(ctx, stop, time.After(d))
	case "loop":
		return nil, wait(ctx, stop, nil)
	case "panic":
		panic("fakelang: " + rest)
	case "comm":
		return s.comm(rest, sink)
	default:
		if isIdent(line) {
			s.mu.Lock()
			v, ok := s.vars[line]
			s.mu.Unlock()
			if !ok {
				return nil, namedError{"NameError", fmt.Sprintf("name %q is not defined", line)}
			}
			return display.Bundle{display.TextPlain: v}, nil
		}
		return nil, namedError{"SyntaxError", fmt.Sprintf("unknown statement %q", line)}
	}
	return nil, nil
}

// later schedules "D ID TEXT": an update of display ID outside the cell.
func (s *Session) later(args string) error {
	f := strings.SplitN(args, " ", 3)
	if len(f) < 3 {
		return namedError{"SyntaxError", fmt.Sprintf("later %q: want a duration, a display id and text", args)}
	}
	d, err := time.ParseDuration(f[0])
	if err != nil {
		return namedError{"SyntaxError", fmt.Sprintf("later %q: %v", args, err)}
	}
	time.AfterFunc(d, func() {
		s.mu.Lock()
		bg := s.background
		s.mu.Unlock()
		if bg != nil {
			bg.Display(display.Bundle{display.TextPlain: f[2]}, f[1], true)
		}
	})
	return nil
}

// unescape turns the two-character sequences \n, \r and \t into the characters.
func unescape(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\r`, "\r", `\t`, "\t").Replace(s)
}

func wait(ctx context.Context, stop chan struct{}, done <-chan time.Time) error {
	select {
	case <-done:
		return nil
	case <-stop:
		return namedError{"Interrupted", "interrupted"}
	case <-ctx.Done():
		return namedError{"Canceled", ctx.Err().Error()}
	}
}

// Interrupt stops the running cell, if any; variables are kept.
func (s *Session) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.interrupt != nil {
		close(s.interrupt)
		s.interrupt = nil
	}
}

// Complete proposes keywords and variable names starting with the word
// before the cursor.
func (s *Session) Complete(code string, cursor int) display.Completion {
	cursor = max(0, min(cursor, len(code)))
	start := cursor
	for start > 0 && isIdentByte(code[start-1]) {
		start--
	}
	prefix := code[start:cursor]
	var matches []string
	for _, c := range append(keywords(), s.names()...) {
		if strings.HasPrefix(c, prefix) {
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	return display.Completion{Matches: matches, Start: start, End: cursor}
}

// Inspect describes the variable or keyword under the cursor.
func (s *Session) Inspect(code string, cursor int) (display.Bundle, bool) {
	cursor = max(0, min(cursor, len(code)))
	start, end := cursor, cursor
	for start > 0 && isIdentByte(code[start-1]) {
		start--
	}
	for end < len(code) && isIdentByte(code[end]) {
		end++
	}
	word := code[start:end]
	s.mu.Lock()
	v, ok := s.vars[word]
	s.mu.Unlock()
	if ok {
		return display.Bundle{display.TextPlain: word + " = " + v}, true
	}
	for _, k := range keywords() {
		if k == word {
			return display.Bundle{display.TextPlain: word + ": an echo statement"}, true
		}
	}
	return nil, false
}

// IsComplete reports unbalanced braces and trailing backslashes.
func (s *Session) IsComplete(code string) (status, indent string) {
	depth := 0
	for _, r := range code {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return "invalid", ""
			}
		}
	}
	if depth > 0 || strings.HasSuffix(strings.TrimRight(code, " \t\n"), "\\") {
		return "incomplete", "  "
	}
	return "complete", ""
}

func (s *Session) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.vars))
	for n := range s.vars {
		out = append(out, n)
	}
	return out
}

func isIdent(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

func isIdentByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

const svgImage = `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="8" fill="teal"/></svg>`

// pngImage is a 4×4 teal square, base64-encoded as the display contract wants.
func pngImage() string {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for y := 0; y < 4; y++ {
		for x := 0; x < 4; x++ {
			img.Set(x, y, color.RGBA{0, 128, 128, 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}
