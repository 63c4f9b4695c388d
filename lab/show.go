package lab

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/plot"
)

// How lab's values show themselves in a notebook: every one as text/plain
// and text/html. Results wrap engine values, whose own String and HTML
// methods do the work; these methods add lab's tables and figures and guard
// against a zero value (whose engine part is nil). They have value
// receivers, so a value shows the same as a pointer to it.

// none is the display of a zero result: what it is and how to get one.
func none(what, how string) display.Bundle {
	text := fmt.Sprintf("empty %s (%s makes one)", what, how)
	return display.Bundle{display.TextPlain: text, display.TextHTML: "<p>" + html.EscapeString(text) + "</p>"}
}

// Bundle shows the comparison as a table (text and HTML).
func (c Comparison) Bundle() display.Bundle {
	if c.Comparison == nil {
		return none("comparison", "lab.Compare")
	}
	return display.Bundle{display.TextPlain: c.String(), display.TextHTML: plot.ComparisonTable(c.Comparison)}
}

// Bundle shows the run: a one-line summary, and its figures as tables.
func (r RunResult) Bundle() display.Bundle {
	if r.RunResult == nil {
		return none("run", "lab.Run")
	}
	return display.Bundle{display.TextPlain: r.String(), display.TextHTML: r.HTML()}
}

// Bundle shows each point's comparison table.
func (s SweepResult) Bundle() display.Bundle {
	if s.SweepResult == nil {
		return none("sweep", "lab.Sweep")
	}
	var b strings.Builder
	for _, c := range s.Comparisons {
		b.WriteString(plot.ComparisonTable(c))
	}
	return display.Bundle{display.TextPlain: s.String(), display.TextHTML: b.String()}
}

// Bundle shows the scores and the selected weight.
func (s StudyResult) Bundle() display.Bundle {
	if s.StudyResult == nil {
		return none("study", "lab.Study")
	}
	return display.Bundle{display.TextPlain: s.String(), display.TextHTML: s.HTML()}
}

// Bundle shows the figure as interactive HTML and, unless the environment
// says NoStatic, as its SVG export too: inside the HTML until the script
// draws, and as image/svg+xml, so front ends that run no script show it.
// The HTML carries the chart library when the page needs it (see
// Env.PageHasLibrary). A failed SVG export leaves the interactive figure
// and says why.
func (f Figure) Bundle() display.Bundle {
	if f.f == nil {
		return none("figure", "a result's Chart method or lab.Chart")
	}
	pf := f.pageFigure()
	b := display.Bundle{display.TextPlain: pf.String(), display.TextHTML: pf.HTML()}
	if f.env == nil || f.env.NoStatic {
		return b
	}
	svg, err := pf.SVGContext(f.env.ctx())
	if err != nil {
		b[display.TextPlain] = fmt.Sprintf("%s\n(no static image: %v)", pf.String(), err)
		return b
	}
	b[display.TextHTML], b[display.SVG] = pf.WithStatic(svg), svg
	return b
}

// pageFigure is the figure as shown on the session's page: light when an
// earlier figure brought the library there, unless Full or Light said.
func (f Figure) pageFigure() *plot.Figure {
	switch {
	case f.lib == carryNever:
		return f.f.Light()
	case f.env == nil || f.env.PageHasLibrary == nil:
		return f.f.Full()
	case f.env.PageHasLibrary() && f.lib == carryAsNeeded:
		return f.f.Light()
	}
	return f.f.Full()
}

// HTML shows the event as a table.
func (e Event) HTML() string { return e.e.HTML() }

// HTML shows the option as code.
func (o Option) HTML() string { return "<code>" + html.EscapeString(o.String()) + "</code>" }

// String says which hooks are set.
func (h Hooks) String() string {
	set := func(f bool) string {
		if f {
			return "set"
		}
		return "not set"
	}
	return fmt.Sprintf("lab.Hooks: Pick %s, Observe %s", set(h.Pick != nil), set(h.Observe != nil))
}

// HTML shows which hooks are set.
func (h Hooks) HTML() string { return "<p>" + html.EscapeString(h.String()) + "</p>" }

// String says how the environment runs things.
func (e Env) String() string {
	stop := "never stopped (no context)"
	if e.Context != nil {
		stop = "stopped when their context ends (in a session: when the cell is interrupted)"
	}
	workers := "one per CPU"
	if e.Workers > 0 {
		workers = fmt.Sprint(e.Workers)
	}
	return fmt.Sprintf("lab environment: runs %s; workers: %s; figures: %s", stop, workers, e.SVG)
}

// HTML says how the environment runs things.
func (e Env) HTML() string { return "<p>" + html.EscapeString(e.String()) + "</p>" }

// Running scripted policies say what they are, never their functions.

func (p *costPolicy) String() string { return "running cost-function policy " + p.name }
func (p *hooked) String() string     { return "running scripted policy " + p.name }

// String is the call that made the option: lab.Speed(1000).
func (o LiveOption) String() string {
	switch {
	case o.speed == 0:
		return "lab.LiveOption{} (not made by lab.Speed or lab.Fastest)"
	case math.IsInf(o.speed, 1):
		return "lab.Fastest()"
	}
	return fmt.Sprintf("lab.Speed(%g)", o.speed)
}

// HTML shows the option as code.
func (o LiveOption) HTML() string { return "<code>" + html.EscapeString(o.String()) + "</code>" }

// String is the call that made the option: lab.Metrics("p95_ms", "shed").
func (o PairedOption) String() string {
	if o.metrics == nil {
		return "lab.PairedOption{} (not made by lab.Metrics: the defaults)"
	}
	quoted := make([]string, len(o.metrics))
	for i, k := range o.metrics {
		quoted[i] = strconv.Quote(k)
	}
	return "lab.Metrics(" + strings.Join(quoted, ", ") + ")"
}

// HTML shows the option as code.
func (o PairedOption) HTML() string { return "<code>" + html.EscapeString(o.String()) + "</code>" }

// String says what the control did and when: "rate 250 req/s at 4.25 s".
func (a LiveAction) String() string {
	if a.What == "" {
		return "no action (a live view's controls return one)"
	}
	return fmt.Sprintf("%s at %g s", a.What, a.At/1000)
}

// HTML shows the action as its text.
func (a LiveAction) HTML() string { return "<p>" + html.EscapeString(a.String()) + "</p>" }

// String lists the actions, one per line.
func (as LiveActions) String() string {
	if len(as) == 0 {
		return "no actions"
	}
	lines := make([]string, len(as))
	for i, a := range as {
		lines[i] = a.String()
	}
	return strings.Join(lines, "\n")
}

// HTML lists the actions as a table: when, and what.
func (as LiveActions) HTML() string {
	var b strings.Builder
	b.WriteString("<table><thead><tr><th>at s</th><th>action</th></tr></thead><tbody>")
	for _, a := range as {
		fmt.Fprintf(&b, "<tr><td>%g</td><td>%s</td></tr>", a.At/1000, html.EscapeString(a.What))
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// String says what the view shows and where it is.
func (lv LiveView) String() string {
	if lv.v == nil {
		return "empty live view (lab.Live makes one)"
	}
	return lv.v.bundle(lv.v.frame()).Text()
}

// Bundle shows the view as it is now, as text and as the picture its
// display shows (this copy does not update).
func (lv LiveView) Bundle() display.Bundle {
	if lv.v == nil {
		return none("live view", "lab.Live")
	}
	return lv.v.bundle(lv.v.frame())
}
