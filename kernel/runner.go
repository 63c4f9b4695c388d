package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/routelab/routelab/display"
)

// interruptGrace is how long the runner waits for a cell to return after
// interrupting it (timeout or cancellation) before giving up on the session.
const interruptGrace = 5 * time.Second

// RunOptions configures a headless notebook run.
type RunOptions struct {
	// Output, when set, receives the executed notebook (nbformat 4).
	Output string
	// HTML, when set, receives a standalone page of the executed notebook.
	HTML string
	// AllowErrors keeps running after a failing cell (cells tagged
	// "raises-exception" may always fail).
	AllowErrors bool
	// Timeout bounds each cell; a cell running longer is interrupted. Zero
	// means no limit.
	Timeout time.Duration
	// Info fills metadata.kernelspec and metadata.language_info (default
	// DefaultInfo()).
	Info *Info
	// Progress, when set, gets one line per executed cell.
	Progress io.Writer
	// Status, when set, is a terminal on which long work in a cell (a
	// Compare of many runs) draws its progress line, redrawn in place
	// and cleared when done; the notebook records none of it.
	Status io.Writer
}

// CellError reports the cell that stopped a run.
type CellError struct {
	Index          int // position in the notebook's cells array
	ExecutionCount int
	EName, EValue  string
	TimedOut       bool
}

func (e *CellError) Error() string {
	what := "failed"
	if e.TimedOut {
		what = "timed out"
	}
	return fmt.Sprintf("cells[%d] (In [%d]) %s: %s: %s", e.Index, e.ExecutionCount, what, e.EName, e.EValue)
}

// Run reads the notebook at path, executes its code cells in order through
// interp and writes the requested outputs. The files are written even when a
// cell fails, so the error can be seen in place; the returned error is then a
// *CellError.
func Run(ctx context.Context, interp Interpreter, path string, opts RunOptions) error {
	nb, err := ReadNotebook(path)
	if err != nil {
		return err
	}
	runErr := Execute(ctx, nb, interp, opts)
	if opts.Output != "" {
		data, err := nb.Marshal()
		if err == nil {
			err = os.WriteFile(opts.Output, data, 0o644)
		}
		if err != nil {
			return errors.Join(runErr, fmt.Errorf("cannot write notebook: %w", err))
		}
	}
	if opts.HTML != "" {
		title := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		page, err := RenderHTML(nb, title)
		if err == nil {
			err = os.WriteFile(opts.HTML, page, 0o644)
		}
		if err != nil {
			return errors.Join(runErr, fmt.Errorf("cannot write HTML: %w", err))
		}
	}
	return runErr
}

// Execute runs the notebook's code cells in place: outputs and execution
// counts are replaced, metadata.kernelspec and language_info are set.
// Whitespace-only cells and cells tagged "skip-execution" are not run.
func Execute(ctx context.Context, nb *Notebook, interp Interpreter, opts RunOptions) error {
	info := DefaultInfo()
	if opts.Info != nil {
		info = *opts.Info
	}
	setNotebookMetadata(nb, info)
	displays := map[string][]*Output{}
	widgets := &widgetState{}
	defer func() {
		if raw := widgets.metadata(); raw != nil {
			nb.Metadata["widgets"] = raw
		} else {
			delete(nb.Metadata, "widgets")
		}
	}()
	count := 0
	for i, c := range nb.Cells {
		if c.Type != "code" || c.hasTag("skip-execution") {
			continue
		}
		c.Outputs, c.ExecutionCount = nil, nil
		if strings.TrimSpace(c.Source) == "" {
			continue
		}
		count++
		n := count
		c.ExecutionCount = &n
		rec := &recorder{cell: c, displays: displays, widgets: widgets}
		var sink display.Sink = rec
		var status *statusLine
		if opts.Status != nil {
			status = &statusLine{w: opts.Status}
			sink = statusRecorder{rec, status}
		}
		start := time.Now()
		res := runCell(ctx, interp, c.Source, sink, opts.Timeout)
		rec.close()
		status.clear()
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "cells[%d] In [%d] %s (%v)\n", i, n, res.status(), time.Since(start).Round(time.Millisecond))
		}
		if res.err == nil {
			if res.value != nil {
				c.Outputs = append(c.Outputs, &Output{Type: "execute_result", Data: WireBundle(res.value, func(string, ...any) {}),
					ExecutionCount: &n})
			}
			continue
		}
		e := asDisplayError(res.err)
		c.Outputs = append(c.Outputs, &Output{Type: "error", EName: e.Name, EValue: e.Value, Traceback: e.Traceback})
		cerr := &CellError{Index: i, ExecutionCount: n, EName: e.Name, EValue: e.Value, TimedOut: res.timedOut}
		switch {
		case res.stuck:
			return fmt.Errorf("%w; the session did not stop within %v of the interrupt, so the run ends here", cerr, interruptGrace)
		case ctx.Err() != nil:
			return fmt.Errorf("%w (run cancelled)", cerr)
		case !opts.AllowErrors && !c.hasTag("raises-exception"):
			return cerr
		}
	}
	return nil
}

func setNotebookMetadata(nb *Notebook, info Info) {
	spec, _ := json.Marshal(map[string]string{
		"name": info.KernelName, "display_name": info.DisplayName, "language": info.Language.Name,
	})
	nb.Metadata["kernelspec"] = spec
	// Through a map, so the keys come out sorted as nbformat writes them.
	var lang map[string]any
	raw, _ := json.Marshal(info.Language)
	_ = json.Unmarshal(raw, &lang)
	nb.Metadata["language_info"], _ = json.Marshal(lang)
}

func (c *Cell) hasTag(tag string) bool {
	var tags []string
	_ = json.Unmarshal(c.Metadata["tags"], &tags)
	return slices.Contains(tags, tag)
}

type cellResult struct {
	value    display.Bundle
	err      error
	timedOut bool
	stuck    bool
}

func (r cellResult) status() string {
	switch {
	case r.stuck:
		return "did not stop"
	case r.timedOut:
		return "timed out"
	case r.err != nil:
		return "failed"
	}
	return "ok"
}

// runCell executes one cell, interrupting it on timeout or cancellation.
func runCell(ctx context.Context, interp Interpreter, code string, sink display.Sink, timeout time.Duration) cellResult {
	done := make(chan cellResult, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- cellResult{err: &display.Error{Name: "panic", Value: fmt.Sprint(p)}}
			}
		}()
		v, err := interp.Execute(ctx, code, sink)
		done <- cellResult{value: v, err: err}
	}()
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	var timedOut bool
	select {
	case r := <-done:
		return r
	case <-expired:
		timedOut = true
	case <-ctx.Done():
	}
	interp.Interrupt()
	select {
	case r := <-done:
		if timedOut && r.err != nil {
			e := asDisplayError(r.err)
			msg := fmt.Sprintf("the cell ran longer than the %v timeout and was interrupted", timeout)
			r.err = &display.Error{Name: "Timeout", Value: msg, Traceback: append(e.Traceback, "Timeout: "+msg)}
			r.timedOut = true
		}
		return r
	case <-time.After(interruptGrace):
		msg := fmt.Sprintf("the cell did not stop within %v of being interrupted", interruptGrace)
		if timedOut {
			msg = fmt.Sprintf("the cell ran longer than the %v timeout and %s", timeout, strings.TrimPrefix(msg, "the cell "))
		}
		return cellResult{err: &display.Error{Name: "Timeout", Value: msg}, timedOut: timedOut, stuck: true}
	}
}

// recorder turns a running cell's output into notebook outputs the way
// Jupyter front ends show them: consecutive writes to one stream merge,
// updates replace every output with the same display id, clear_output(wait)
// clears when the next output arrives. Output after the cell ended is dropped.
type recorder struct {
	mu           sync.Mutex
	cell         *Cell
	displays     map[string][]*Output
	widgets      *widgetState
	pendingClear bool
	closed       bool
}

// Headless: a notebook run headless keeps what each display shows last.
func (r *recorder) Headless() bool { return true }

func (r *recorder) Stream(name, text string) {
	if name != "stderr" {
		name = "stdout"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ready() {
		return
	}
	outs := r.cell.Outputs
	if n := len(outs); n > 0 && outs[n-1].Type == "stream" && outs[n-1].Name == name {
		outs[n-1].Text += text
		return
	}
	r.cell.Outputs = append(outs, &Output{Type: "stream", Name: name, Text: text})
}

func (r *recorder) Display(b display.Bundle, id string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	data := WireBundle(b, func(string, ...any) {})
	if update {
		for _, o := range r.displays[id] {
			o.Data = data
		}
		return
	}
	if !r.ready() {
		return
	}
	o := &Output{Type: "display_data", Data: data, displayID: id}
	r.cell.Outputs = append(r.cell.Outputs, o)
	if id != "" {
		r.displays[id] = append(r.displays[id], o)
	}
}

func (r *recorder) Clear(wait bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.pendingClear = wait
	if !wait {
		r.cell.Outputs = nil
	}
}

// ready applies a pending clear before new output; false once closed.
func (r *recorder) ready() bool {
	if r.closed {
		return false
	}
	if r.pendingClear {
		r.cell.Outputs, r.pendingClear = nil, false
	}
	return true
}

// close ends recording and resolves carriage returns in streams, as
// nbconvert's coalesce step does.
func (r *recorder) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for _, o := range r.cell.Outputs {
		if o.Type == "stream" && strings.Contains(o.Text, "\r") {
			o.Text = ResolveCarriageReturns(o.Text)
		}
	}
}

// statusLine is a line a terminal redraws in place.
type statusLine struct {
	mu    sync.Mutex
	w     io.Writer
	drawn bool
}

func (l *statusLine) Status(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case line != "":
		fmt.Fprint(l.w, "\r"+line+"\033[K")
		l.drawn = true
	case l.drawn:
		fmt.Fprint(l.w, "\r\033[K")
		l.drawn = false
	}
}

func (l *statusLine) clear() {
	if l != nil {
		l.Status("")
	}
}

// statusRecorder records a cell and draws its status line on a terminal.
type statusRecorder struct {
	*recorder
	line *statusLine
}

func (r statusRecorder) Status(line string) { r.line.Status(line) }

// ResolveCarriageReturns is a stream's text as a notebook front end shows
// it: on each line, only the text after the last bare carriage return
// (progress-bar style rewrites), as nbconvert's coalescing of streams
// does. The runner applies it to the streams it records; tests comparing
// with nbclient's outputs apply it to theirs.
func ResolveCarriageReturns(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		body = strings.TrimSuffix(body, "\r")
		if j := strings.LastIndexByte(body, '\r'); j >= 0 {
			body = body[j+1:]
		}
		if nl {
			body += "\n"
		}
		lines[i] = body
	}
	return strings.Join(lines, "")
}
