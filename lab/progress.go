package lab

import (
	"fmt"
	"html"
	"time"

	"github.com/routelab/routelab/experiment"
)

// Long work in a cell — a Compare, Sweep or Study that takes more than a
// second — shows one line of progress that updates in place (runs done,
// pace, time left) and ends as its totals. Nobody watches a headless run
// (routelab run, nbconvert), so there it shows nothing in the notebook,
// which keeps its outputs alone; on a terminal (routelab run's stderr,
// Env.Status) the line is drawn there and cleared at the end.

const (
	// progressAfter is how long work runs before its line appears: quick
	// cells stay as they were.
	progressAfter = time.Second
	// progressEvery bounds how often the line is redrawn.
	progressEvery = 250 * time.Millisecond
)

// progressView is the progress of one piece of work. Its update is an
// experiment's Progress callback, which experiments serialise.
type progressView struct {
	env         *Env
	what, id    string
	now         func() time.Time
	start, last time.Time
	done, total int
	shown       bool
	status      bool // drawn by Env.Status, not displayed
}

// progress starts the progress of work named what, or returns nil when
// nobody would see it.
func (e *Env) progress(what string) *progressView {
	status := e.headless()
	if status && (e.Status == nil || !e.Status("")) {
		return nil
	}
	p := &progressView{env: e, what: what, now: time.Now, start: time.Now(), status: status}
	// Its own id: the start to the nanosecond, and the view's address.
	p.id = fmt.Sprintf("routelab-progress-%d-%p", p.start.UnixNano(), p)
	return p
}

// callback is the experiment's Progress: nil for no view.
func (p *progressView) callback() func(done, total int) {
	if p == nil {
		return nil
	}
	return p.update
}

func (p *progressView) update(done, total int) {
	p.done, p.total = done, total
	t := p.now()
	if t.Sub(p.start) < progressAfter || done >= total || (p.shown && t.Sub(p.last) < progressEvery) {
		return
	}
	p.last = t
	if p.status {
		p.env.Status(experiment.ProgressLine(p.what, done, total, t.Sub(p.start)))
		p.shown = true
		return
	}
	p.env.Display(progressLine{text: experiment.ProgressLine(p.what, done, total, t.Sub(p.start)), done: done, total: total}, p.id, p.shown)
	p.shown = true
}

// finish replaces a line that was shown with the work's totals (or, when
// it was interrupted, how far it got).
func (p *progressView) finish() {
	if p == nil || !p.shown {
		return
	}
	if p.status {
		p.env.Status("")
		return
	}
	text := experiment.ProgressTotals(p.what, p.done, p.total, p.now().Sub(p.start))
	p.env.Display(progressLine{text: text, done: p.done, total: p.total, ended: true}, p.id, true)
}

// progressLine is the displayed line: text, and in HTML a bar.
type progressLine struct {
	text        string
	done, total int
	ended       bool
}

func (l progressLine) String() string { return l.text }

func (l progressLine) HTML() string {
	if l.ended {
		return `<div class="routelab-progress" style="font-family:monospace">` + html.EscapeString(l.text) + `</div>`
	}
	return fmt.Sprintf(`<div class="routelab-progress" style="font-family:monospace"><progress value="%d" max="%d" style="width:12em;vertical-align:middle"></progress> %s</div>`,
		l.done, l.total, html.EscapeString(l.text))
}
