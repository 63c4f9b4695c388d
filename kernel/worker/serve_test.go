package worker

import (
	"bufio"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/routelab/routelab/kernel"
)

// serveInProcess runs Serve on pipes and returns its request writer and
// event reader.
func serveInProcess(t *testing.T) (*lineWriter, *bufio.Reader, io.Closer, <-chan error) {
	t.Helper()
	reqR, reqW := io.Pipe()
	evR, evW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(func() (kernel.Interpreter, error) { return newTestLang(), nil }, reqR, evW, io.Discard)
		evW.Close()
	}()
	t.Cleanup(func() { reqW.Close(); evR.Close() })
	return newLineWriter(reqW), bufio.NewReader(evR), reqW, done
}

func nextEvent(t *testing.T, r *bufio.Reader) event {
	t.Helper()
	line, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatalf("no event: %v", err)
	}
	var ev event
	if err := json.Unmarshal(line, &ev); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return ev
}

// When the kernel goes away (its requests end), the worker interrupts the
// running cell, answers it if it can, and returns: the process then exits
// instead of living on as an orphan.
func TestServeEndsWhenItsRequestsEnd(t *testing.T) {
	w, r, requests, done := serveInProcess(t)
	if ev := nextEvent(t, r); ev.Type != evReady || ev.Version != protocolVersion || ev.Error != nil {
		t.Fatalf("first event %+v", ev)
	}
	w.send(request{ID: 1, Op: opExecute, Code: "loop"})
	time.Sleep(50 * time.Millisecond)
	requests.Close()
	if ev := nextEvent(t, r); ev.ID != 1 || ev.Type != evResult || ev.Error == nil || ev.Error.Name != "Interrupted" {
		t.Errorf("the running cell's result: %+v", ev)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve still runs after its requests ended")
	}
}

// Requests the worker does not know, and a second execute while one runs,
// get error results; the worker goes on.
func TestServeAnswersBadRequests(t *testing.T) {
	w, r, _, _ := serveInProcess(t)
	nextEvent(t, r)
	w.send(request{ID: 1, Op: "frobnicate"})
	if ev := nextEvent(t, r); ev.ID != 1 || ev.Error == nil || ev.Error.Name != "BadRequest" {
		t.Errorf("unknown op: %+v", ev)
	}
	w.send(request{ID: 2, Op: opExecute, Code: "sleep 200ms\necho first"})
	w.send(request{ID: 3, Op: opExecute, Code: "echo second"})
	if ev := nextEvent(t, r); ev.ID != 3 || ev.Error == nil || ev.Error.Name != "InternalError" {
		t.Errorf("second execute: %+v", ev)
	}
	if ev := nextEvent(t, r); ev.ID != 2 || ev.Data.Text() != "first" {
		t.Errorf("first execute: %+v", ev)
	}
}

// Positions reach the kernel only when they change, at most every
// positionEvery: a hook called for every statement costs one atomic store.
func TestServeSendsPositionsWhenTheyChange(t *testing.T) {
	w, r, _, _ := serveInProcess(t)
	nextEvent(t, r)
	w.send(request{ID: 1, Op: opExecute, Code: "at 2 1\nat 2 1\nat 5 3\necho done"})
	var got []event
	for {
		ev := nextEvent(t, r)
		if ev.Type == evResult {
			break
		}
		got = append(got, ev)
	}
	if len(got) != 2 || got[0].Line != 2 || got[0].Col != 1 || got[1].Line != 5 || got[1].Col != 3 {
		t.Errorf("positions %+v, want 2:1 then 5:3", got)
	}
}

// A comm open is answered with the session's yes or no; a comm request
// without a message gets an error result.
func TestServeAnswersCommOpen(t *testing.T) {
	w, r, _, _ := serveInProcess(t)
	nextEvent(t, r)
	w.send(request{ID: 1, Op: opComm, Comm: &commMsg{Kind: kindOpen, ID: "a", Target: "echo"}})
	if ev := nextEvent(t, r); ev.ID != 1 || ev.Type != evResult || !ev.Accepted || ev.Error != nil {
		t.Errorf("open on echo: %+v", ev)
	}
	w.send(request{ID: 2, Op: opComm, Comm: &commMsg{Kind: kindOpen, ID: "b", Target: "refuse"}})
	if ev := nextEvent(t, r); ev.ID != 2 || ev.Type != evResult || ev.Accepted || ev.Error != nil {
		t.Errorf("open on refuse: %+v", ev)
	}
	w.send(request{ID: 3, Op: opComm})
	if ev := nextEvent(t, r); ev.ID != 3 || ev.Error == nil || ev.Error.Name != "BadRequest" {
		t.Errorf("comm without a message: %+v", ev)
	}
}
