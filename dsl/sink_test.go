package dsl_test

import (
	"fmt"
	"strings"
	"sync"

	"github.com/routelab/routelab/display"
)

// recorder is a display.Sink that keeps everything it receives.
type recorder struct {
	mu     sync.Mutex
	events []event
}

type event struct {
	kind   string // "stdout", "stderr", "display", "clear"
	text   string
	bundle display.Bundle
	id     string
	update bool
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.events); n > 0 && r.events[n-1].kind == name {
		r.events[n-1].text += text
		return
	}
	r.events = append(r.events, event{kind: name, text: text})
}

func (r *recorder) Display(b display.Bundle, id string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{kind: "display", bundle: b, id: id, update: update})
}

func (r *recorder) Clear(bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{kind: "clear"})
}

func (r *recorder) stdout() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, e := range r.events {
		if e.kind == "stdout" {
			b.WriteString(e.text)
		}
	}
	return b.String()
}

// transcript renders what a cell produced, deterministically: between two
// displays, stdout text comes before stderr text (the two streams are not
// ordered with respect to each other, only to displays).
func (r *recorder) transcript(result display.Bundle, err error) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	var out, errs strings.Builder
	flush := func() {
		b.WriteString(out.String())
		if out.Len() > 0 && !strings.HasSuffix(out.String(), "\n") {
			b.WriteString("⏎\n")
		}
		for _, l := range strings.SplitAfter(errs.String(), "\n") {
			if l != "" {
				b.WriteString("[stderr] " + strings.TrimSuffix(l, "\n") + "\n")
			}
		}
		out.Reset()
		errs.Reset()
	}
	for _, e := range r.events {
		switch e.kind {
		case "stdout":
			out.WriteString(e.text)
		case "stderr":
			errs.WriteString(e.text)
		case "display":
			flush()
			b.WriteString(renderBundle("[display"+idSuffix(e.id, e.update)+"]", e.bundle))
		case "clear":
			flush()
			b.WriteString("[clear]\n")
		}
	}
	flush()
	if result != nil {
		b.WriteString(renderBundle("=>", result))
	}
	if err != nil {
		if de, ok := err.(*display.Error); ok {
			fmt.Fprintf(&b, "Error: %s: %s\n", de.Name, de.Value)
			for _, l := range de.Traceback[1:] {
				b.WriteString("! " + l + "\n")
			}
		} else {
			fmt.Fprintf(&b, "Error (not a *display.Error): %T %v\n", err, err)
		}
	}
	return b.String()
}

func idSuffix(id string, update bool) string {
	s := ""
	if id != "" {
		s = " id=" + id
	}
	if update {
		s += " update"
	}
	return s
}

func renderBundle(prefix string, b display.Bundle) string {
	var mimes []string
	for _, m := range b.MIMEs() {
		if m != display.TextPlain {
			mimes = append(mimes, m)
		}
	}
	head := prefix
	if len(mimes) > 0 {
		head += " {" + strings.Join(mimes, ",") + "}"
	}
	var s strings.Builder
	s.WriteString(head + " " + b.Text() + "\n")
	for _, m := range mimes {
		fmt.Fprintf(&s, "  %s: %v\n", m, b[m])
	}
	return s.String()
}
