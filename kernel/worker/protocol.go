package worker

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/routelab/routelab/display"
)

// protocolVersion is announced by every worker, so a kernel never talks to a
// worker binary that speaks another protocol (the executable replaced by a
// newer build while the kernel ran).
const protocolVersion = 6

// Request operations, kernel to worker.
const (
	opExecute    = "execute"
	opInterrupt  = "interrupt" // no id: stops whatever cell runs
	opComplete   = "complete"
	opInspect    = "inspect"
	opIsComplete = "is_complete"
	// opInput answers an evInput: ID of the execute, Code the line, or
	// Error why there is none.
	opInput = "input"
	// opComm carries the front end's side of a comm (Comm). An open has an
	// id and is answered by an evResult whose Accepted says yes or no; msg
	// and close have none and are not answered.
	opComm = "comm"
)

// Comm message kinds, both ways.
const (
	kindOpen  = "open"
	kindMsg   = "msg"
	kindClose = "close"
)

// commMsg is one Jupyter comm message (display.Comms, kernel.Commer).
type commMsg struct {
	Kind     string         `json:"kind"`
	ID       string         `json:"id"`
	Target   string         `json:"target,omitempty"` // open
	Data     map[string]any `json:"data,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"` // worker to kernel
}

// request is one line from the kernel to the worker.
type request struct {
	ID     uint64 `json:"id,omitempty"`
	Op     string `json:"op"`
	Code   string `json:"code,omitempty"`
	Cursor int    `json:"cursor,omitempty"`
	// Headless: an execute whose output nobody watches change (its sink
	// said so; see display.Headless).
	Headless bool `json:"headless,omitempty"`
	// Stdin: an execute whose sink can answer input (display.Inputter).
	Stdin bool `json:"stdin,omitempty"`
	// StatusLine: an execute whose sink shows a status line (display.Statuser).
	StatusLine bool     `json:"status_line,omitempty"`
	Error      string   `json:"error,omitempty"` // input
	Comm       *commMsg `json:"comm,omitempty"`
}

// Event types, worker to kernel.
const (
	// evReady is the first event: the session exists, or Error says why not.
	evReady = "ready"
	// evStream, evDisplay and evClear are a cell's output (id of its
	// execute request), or output outside any cell (no id).
	evStream  = "stream"
	evDisplay = "display"
	evClear   = "clear"
	// evPosition says which line of the cell runs, so a death can name it.
	evPosition = "position"
	// evResult answers request id.
	evResult = "result"
	// evStatus: the running cell's status line is Text ("" clears it).
	evStatus = "status"
	// evInput: the running cell (id of its execute) asks for a line; Text
	// is the prompt.
	evInput = "input"
	// evComm is the session's side of a comm (Comm), from the running cell
	// (id of its execute) or from outside any cell (no id). It travels with
	// the cell's other output, in order.
	evComm = "comm"
)

// event is one line from the worker to the kernel. Which fields are set
// depends on Type (and, for results, on the request answered).
type event struct {
	ID      uint64 `json:"id,omitempty"`
	Type    string `json:"type"`
	Version int    `json:"version,omitempty"`

	Name      string         `json:"name,omitempty"` // stream
	Text      string         `json:"text,omitempty"`
	CommID    string         `json:"comm_id,omitempty"` // a stream of the cell that opened this comm
	Data      display.Bundle `json:"data,omitempty"`    // display; an execute's value
	DisplayID string         `json:"display_id,omitempty"`
	Update    bool           `json:"update,omitempty"`
	Wait      bool           `json:"wait,omitempty"` // clear

	Password bool `json:"password,omitempty"` // input

	Line int `json:"line,omitempty"` // position
	Col  int `json:"col,omitempty"`

	Error   *display.Error `json:"error,omitempty"` // ready, execute
	Matches []string       `json:"matches,omitempty"`
	Start   int            `json:"start,omitempty"` // complete
	End     int            `json:"end,omitempty"`
	Found   bool           `json:"found,omitempty"`  // inspect
	Status  string         `json:"status,omitempty"` // is_complete
	Indent  string         `json:"indent,omitempty"`

	Comm     *commMsg `json:"comm,omitempty"`
	Accepted bool     `json:"accepted,omitempty"` // comm open
}

// lineWriter writes one JSON object per line from any goroutine; each
// message is a single write, so lines never interleave.
type lineWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newLineWriter(w io.Writer) *lineWriter { return &lineWriter{enc: json.NewEncoder(w)} }

func (w *lineWriter) send(v any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.enc.Encode(v)
}
