// Package display is routelab's display contract: MIME bundles and the small,
// duck-typed interfaces through which any value shows itself in a notebook.
//
// It depends on nothing but the standard library, so the engine, plots, the
// scripting layer and the kernel can all speak it without importing each other.
// A value displays richly by having one of the methods below; nothing has to
// register anywhere and the kernel never switches on concrete types.
package display

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
)

// MIME types understood by Jupyter front ends and by routelab's own renderers.
const (
	TextPlain = "text/plain"
	TextHTML  = "text/html"
	SVG       = "image/svg+xml"
	PNG       = "image/png"
	JSON      = "application/json"
	Markdown  = "text/markdown"
)

// Bundle maps a MIME type to its data. Text types hold a string; image/png
// holds base64 text; application/json holds any JSON-encodable value.
type Bundle map[string]any

// MIMEs returns the bundle's MIME types in a stable order.
func (b Bundle) MIMEs() []string {
	keys := make([]string, 0, len(b))
	for k := range b {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Text returns the text/plain entry, or "" when there is none.
func (b Bundle) Text() string {
	s, _ := b[TextPlain].(string)
	return s
}

// Bundler is implemented by values that build their whole bundle themselves.
type Bundler interface {
	Bundle() Bundle
}

// HTMLer values show as text/html.
type HTMLer interface {
	HTML() string
}

// SVGer values show as image/svg+xml.
type SVGer interface {
	SVG() (string, error)
}

// PNGer values show as image/png; the result is the raw PNG bytes.
type PNGer interface {
	PNG() ([]byte, error)
}

// Markdowner values show as text/markdown.
type Markdowner interface {
	Markdown() string
}

// JSONer values add an application/json entry.
type JSONer interface {
	JSONValue() any
}

// Of builds the bundle for v: a Bundle is shown as it is; a Bundler decides for itself; otherwise each
// optional interface v implements contributes its MIME type, and text/plain is
// always present (fmt's %v of v unless v is a fmt.Stringer or an error).
// A method that fails is reported inside the text/plain entry instead of
// losing the value.
func Of(v any) Bundle {
	if v == nil || isNilPointer(v) {
		return Bundle{TextPlain: "nil"}
	}
	if b, ok := v.(Bundle); ok && len(b) > 0 {
		if _, ok := b[TextPlain]; !ok {
			b[TextPlain] = "<" + b.MIMEs()[0] + ">"
		}
		return b
	}
	if b, ok := v.(Bundler); ok {
		out := b.Bundle()
		if out == nil {
			out = Bundle{}
		}
		if _, ok := out[TextPlain]; !ok {
			out[TextPlain] = Plain(v)
		}
		return out
	}
	out := Bundle{TextPlain: Plain(v)}
	if h, ok := v.(HTMLer); ok {
		out[TextHTML] = h.HTML()
	}
	if m, ok := v.(Markdowner); ok {
		out[Markdown] = m.Markdown()
	}
	if s, ok := v.(SVGer); ok {
		if svg, err := s.SVG(); err == nil {
			out[SVG] = svg
		} else {
			out[TextPlain] = fmt.Sprintf("%s\n(svg unavailable: %v)", out[TextPlain], err)
		}
	}
	if j, ok := v.(JSONer); ok {
		out[JSON] = j.JSONValue()
	}
	return out
}

// Plain is the text/plain form of v.
func Plain(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return fmt.Sprintf("%q", x)
	case error:
		return x.Error()
	case fmt.Stringer:
		if isNilPointer(v) {
			return "nil"
		}
		return x.String()
	}
	return fmt.Sprintf("%v", v)
}

func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// Error is an evaluation failure in the shape notebooks show it: a name, a
// message and traceback lines (already formatted for display).
type Error struct {
	Name      string   `json:"ename"`
	Value     string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

func (e *Error) Error() string {
	if e.Name == "" {
		return e.Value
	}
	return e.Name + ": " + e.Value
}

// Sink receives a running cell's output.
type Sink interface {
	// Stream writes text to "stdout" or "stderr".
	Stream(name, text string)
	// Display shows a bundle. A non-empty id names the display so a later
	// call with update set replaces it in place.
	Display(b Bundle, id string, update bool)
	// Clear clears the cell's output; with wait, only when new output arrives.
	Clear(wait bool)
}

// Headless is implemented by sinks that can say whether anybody watches
// their displays change. A notebook front end renders every update as it
// comes; a headless run (routelab run, nbconvert, a script) keeps only what
// each display shows last, so a live view there runs to its end at once. A
// sink without the method counts as watched.
type Headless interface {
	Headless() bool
}

// Statuser is implemented by sinks that can show one transient status
// line beside a headless run's output — a terminal's stderr under
// `routelab run`. Long work reports its progress there when nobody
// watches displays; "" clears the line. Nothing of it is recorded.
type Statuser interface {
	Status(line string)
}

// Inputter is implemented by sinks that can ask the user for a line of
// input: a front end that shows an input box (Jupyter's input_request). It
// returns the line without its newline, ErrNoInput when its client cannot
// answer input, or ctx's error when the cell is interrupted meanwhile.
type Inputter interface {
	Input(ctx context.Context, prompt string, password bool) (string, error)
}

// ErrNoInput is the error of a read of standard input in a cell whose front
// end cannot answer it (a headless run, a client that sent allow_stdin
// false).
var ErrNoInput = errors.New("no input: this cell's front end does not answer input requests (allow_stdin is false, or the notebook runs headless)")

// Completion is the answer to a completion request: Matches replace
// code[Start:End] (byte offsets).
type Completion struct {
	Matches    []string
	Start, End int
}

// Comms is implemented by sinks that speak Jupyter's comm protocol with a
// front end, the channel Jupyter widgets use: the session side opens a comm
// on a target ("jupyter.widget"), sends messages on it and closes it. The
// front end's messages come back through the kernel's Commer (package
// kernel). data and metadata are JSON objects; comms carry no binary
// buffers here. A sink without the methods has no front end to talk to
// (routelab's widgets then keep their initial values).
type Comms interface {
	CommOpen(id, target string, data, metadata map[string]any)
	CommMsg(id string, data, metadata map[string]any)
	CommClose(id string, data map[string]any)
}

// CommStreamer is implemented by sinks that can write a stream as output
// of the cell that opened a comm: what a widget's callback prints, and
// warnings about a widget, appear under the widget, in the cell that made
// it, whenever they happen.
type CommStreamer interface {
	CommStream(id, name, text string)
}

// WidgetViewMIME is the MIME type of a display that shows a Jupyter widget:
// its data is {"version_major": 2, "version_minor": 0, "model_id": ID}.
const WidgetViewMIME = "application/vnd.jupyter.widget-view+json"

// WidgetStateMIME keys the notebook metadata ("widgets") that saves the
// state of every widget model, so that a front end can render a saved
// notebook's widgets without a kernel.
const WidgetStateMIME = "application/vnd.jupyter.widget-state+json"
