package dsl

import (
	"context"
	"errors"
	"fmt"

	"github.com/routelab/routelab/display"
)

// Jupyter comms (the channels widgets talk through) go both ways: a
// library sends its side through Host.Comms — the running cell's output
// while a cell runs, the session's output between cells — and the front
// end's side reaches the handler a library gave Host.HandleComms, through
// the session's CommOpen, CommMsg and CommClose (the kernel's Commer).
// Work a front end's message starts (a widget's change callback) runs
// through Host.Aside, after the running cell, as cells do.

// CommHandler is a library's side of the front end's comm messages. Its
// methods are called as messages arrive and must return at once; work
// they start goes through Host.Aside.
type CommHandler interface {
	CommOpen(id, target string, data map[string]any) bool
	CommMsg(id string, data map[string]any)
	CommClose(id string, data map[string]any)
}

// CommOpen offers the session a comm the front end opened; without a
// handler it is refused.
func (s *Session) CommOpen(id, target string, data map[string]any) bool {
	if h := s.comms.Load(); h != nil {
		return (*h).CommOpen(id, target, data)
	}
	return false
}

// CommMsg gives the handler a message the front end sent.
func (s *Session) CommMsg(id string, data map[string]any) {
	if h := s.comms.Load(); h != nil {
		(*h).CommMsg(id, data)
	}
}

// CommClose tells the handler the front end closed a comm.
func (s *Session) CommClose(id string, data map[string]any) {
	if h := s.comms.Load(); h != nil {
		(*h).CommClose(id, data)
	}
}

// commsNow is where the session's comm messages go at the moment: the
// running cell's sink (after the output printed before), the session's
// background sink during aside work and between cells, nil when neither
// speaks comms.
func (s *Session) commsNow() display.Comms {
	if r := s.current(); r != nil && !r.aside {
		s.out.flush()
		c, _ := r.sink.(display.Comms)
		return c
	}
	if bg := s.background.Load(); bg != nil {
		c, _ := (*bg).(display.Comms)
		return c
	}
	return nil
}

// aside runs f as a cell: after the running cell, with ctx's cancellation
// as the cell's context (library calls stop as on an interrupt), and what
// f prints and shows going to sink (nil: the background sink). A panic of
// f is returned as an error.
func (s *Session) aside(ctx context.Context, sink display.Sink, f func()) (err error) {
	s.exec.Lock()
	defer s.exec.Unlock()
	if s.base.Err() != nil {
		return errors.New("the session is closed")
	}
	if sink == nil {
		sink = discardSink{}
		if bg := s.background.Load(); bg != nil {
			sink = *bg
		}
	}
	r := s.startCell(ctx, "", sink)
	r.aside = true
	stop := context.AfterFunc(ctx, r.cancelRun)
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = asideError(p)
			}
		}()
		f()
	}()
	stop()
	if v, _ := s.endCell(r, nil); v != nil {
		sink.Display(v, "", false)
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return err
}

// asideError is a panic of aside work as an error (a *CallbackPanic, a
// lab error, a cell's panic value).
func asideError(p any) error {
	if err, ok := p.(error); ok {
		return err
	}
	return fmt.Errorf("panic: %v", p)
}

// commOutput is where output concerning comm id goes: streams into the
// cell that opened it, through the background sink.
func (s *Session) commOutput(id string) display.Sink {
	bg := s.background.Load()
	if bg == nil {
		return discardSink{}
	}
	if cs, ok := (*bg).(display.CommStreamer); ok {
		return commSink{Sink: *bg, to: cs, id: id}
	}
	return *bg
}

// commSink is the background sink with its streams sent to a comm's cell.
type commSink struct {
	display.Sink
	to display.CommStreamer
	id string
}

func (c commSink) Stream(name, text string) { c.to.CommStream(c.id, name, text) }

// discardSink drops output: aside work in a session that has no
// background sink.
type discardSink struct{}

func (discardSink) Stream(string, string)                {}
func (discardSink) Display(display.Bundle, string, bool) {}
func (discardSink) Clear(bool)                           {}
