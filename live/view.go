package live

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/routelab/routelab/plot"
)

// View draws frames for a notebook: a compact SVG picture inside an HTML
// fragment (no script, no charting library: an update replaces the whole
// fragment and stays under 20 KB however busy the cluster) and a text
// summary of the same numbers. Drawing only reads the frame.
type View struct {
	Seed  uint64  // shown in the title
	Until float64 // the session's end (ms); 0 when it runs until stopped
	Note  string  // a line under the picture: why the view ended, what it is
}

// How much a view draws: a cluster of any size and queues of any length
// fit the update budget, and what is not drawn is counted.
const (
	maxLanes = 10 // replicas drawn
	maxMarks = 40 // requests drawn per replica, the one in flight included
	maxName  = 48 // runes of a policy's or scenario's name
	maxNote  = 300

	viewWidth  = 720
	laneHeight = 22
	lanesTop   = 62
	routerX    = 64  // where requests leave the router
	queueHead  = 360 // right end of the queue, next to the server
	markStep   = 7   // a mark is 6 px wide, 1 px apart
	serverX    = 366
	labelX     = 410
	shareX     = 624
	shareWidth = 56
)

// Colours of requests: whether each will meet the SLO if nothing changes.
const (
	onTimeColor = "#2f9e44"
	lateColor   = "#e03131"
)

// policyColor is the policy's colour in every routelab figure (Adaptive in
// the accent colour). It is the only use this package makes of plot.
func policyColor(name string) string { return plot.DefaultPalette().Color(name) }

// HTML draws the frame as an HTML fragment holding one SVG picture: per
// replica its queue, in-flight slot, health and share of recent
// assignments; requests as marks coloured by whether they will meet the
// SLO, sliding in from the router as they arrive; the readouts above. The
// fragment's data-now, data-rate and data-state attributes say what it
// shows, for tests and scripts.
func (v View) HTML(f Frame) string {
	lanes := min(len(f.Replicas), maxLanes)
	height := lanesTop + lanes*laneHeight + 24
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="routelab-live" data-now="%s" data-rate="%s" data-state="%s" style="max-width:%dpx">`,
		num3(f.Now), num3(f.Rate), state(f), viewWidth)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12" fill="currentColor" role="img">`,
		viewWidth, height, viewWidth, height)
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(v.title(f)))
	c := policyColor(f.Policy)
	v.header(&b, f, c)
	fmt.Fprintf(&b, `<rect x="8" y="%d" width="%d" height="%d" rx="4" fill="none" stroke="currentColor" stroke-opacity="0.5"/>`,
		lanesTop, routerX-16, lanes*laneHeight-4)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">router</text>`, (8+routerX-8)/2, lanesTop+14)
	marks := map[bool]*strings.Builder{true: {}, false: {}}
	for i := range lanes {
		lane(&b, marks, f, i, c)
	}
	for _, ok := range []bool{true, false} {
		if marks[ok].Len() > 0 {
			fmt.Fprintf(&b, `<path fill="%s" d="%s"/>`, sloColor(ok), marks[ok].String())
		}
	}
	v.footer(&b, f, lanes, height-8)
	b.WriteString(`</svg></div>`)
	return b.String()
}

// header writes the title line, the policy in its colour c, and the
// readouts.
func (v View) header(b *strings.Builder, f Frame, c string) {
	fmt.Fprintf(b, `<circle cx="13" cy="12" r="5" fill="%s"/>`, c)
	fmt.Fprintf(b, `<text x="23" y="16"><tspan fill="%s" font-weight="bold">%s</tspan><tspan> on %s%s</tspan></text>`,
		c, html.EscapeString(clip(f.Policy, maxName)), html.EscapeString(clip(f.Scenario, maxName)), html.EscapeString(v.seed()))
	fmt.Fprintf(b, `<text x="%d" y="16" text-anchor="end">%s</text>`, viewWidth-8, html.EscapeString(v.clock(f)))
	fmt.Fprintf(b, `<text x="8" y="34">%s</text>`, html.EscapeString(latencyLine(f)))
	fmt.Fprintf(b, `<text x="8" y="50">%s</text>`, html.EscapeString(countsLine(f)))
}

// lane draws replica i: the link from the router, its queue and server,
// its health, waiting count and share (in the policy's colour c); its marks
// go to marks.
func lane(b *strings.Builder, marks map[bool]*strings.Builder, f Frame, i int, c string) {
	r := f.Replicas[i]
	top := lanesTop + i*laneHeight
	mid := top + laneHeight/2 - 2
	dash := ""
	if !r.Healthy {
		dash = ` stroke-dasharray="3 3"`
	}
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="currentColor" stroke-opacity="0.35"%s/>`, routerX-8, mid, queueHead, mid, dash)
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="18" height="16" rx="2" fill="none" stroke="currentColor"%s/>`, serverX, mid-8, dash)
	fmt.Fprintf(b, `<path d="M%d %dh14m-4 -4l4 4l-4 4" fill="none" stroke="currentColor" stroke-opacity="0.5"/>`, serverX+20, mid)
	drawn := drawMarks(marks, f, r, mid)
	if more := len(r.Requests) - drawn; more > 0 {
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="10">+%d</text>`, routerX-4, mid-3, more)
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="11">R%d %s</text>`, labelX, mid+4, r.ID, html.EscapeString(laneLabel(r)))
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="8" fill="none" stroke="currentColor" stroke-opacity="0.4"/>`, shareX, mid-4, shareWidth)
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%s" height="8" fill="%s"/>`, shareX, mid-4, num3(r.Share*shareWidth), c)
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end">%.0f%%</text>`, viewWidth-4, mid+4, r.Share*100)
}

// drawMarks adds the replica's requests to marks, at most maxMarks: the one
// in flight in the server, the waiting ones in queue order leftwards from
// the head. A request that arrived within the last two frames' worth of
// simulated time is drawn part of the way back towards the router, so
// successive frames show it travelling into its place. It returns how many
// it drew.
func drawMarks(marks map[bool]*strings.Builder, f Frame, r ReplicaFrame, mid int) int {
	transit := f.Speed * 2 * DefaultFrameEvery.Seconds()
	n := min(len(r.Requests), maxMarks)
	for j := range n {
		m := r.Requests[j]
		x := float64(serverX + 6)
		if j >= r.InFlight {
			x = float64(queueHead - (j-r.InFlight+1)*markStep + 1)
		}
		if age := f.Now - m.Arrival; transit > 0 && age < transit && !f.Done {
			x -= (1 - age/transit) * (x - routerX)
		}
		fmt.Fprintf(marks[m.OnTime], "M%s %dh6v12h-6z", num1(x), mid-6)
	}
	return n
}

// footer writes the legend, the replicas not drawn and the note.
func (v View) footer(b *strings.Builder, f Frame, lanes, y int) {
	fmt.Fprintf(b, `<rect x="8" y="%d" width="6" height="10" fill="%s"/><text x="18" y="%d">meets the %g ms SLO</text>`, y-9, onTimeColor, y, f.SLO)
	fmt.Fprintf(b, `<rect x="150" y="%d" width="6" height="10" fill="%s"/><text x="160" y="%d">will miss it</text>`, y-9, lateColor, y)
	var notes []string
	if hidden := len(f.Replicas) - lanes; hidden > 0 {
		notes = append(notes, fmt.Sprintf("%d more replicas not drawn", hidden))
	}
	if f.Err != "" {
		notes = append(notes, "stopped: "+f.Err)
	}
	if v.Note != "" {
		notes = append(notes, v.Note)
	}
	if len(notes) > 0 {
		fmt.Fprintf(b, `<text x="250" y="%d">%s</text>`, y, html.EscapeString(clip(strings.Join(notes, " · "), 90)))
	}
}

// Text summarises the frame in a few lines: the title, the readouts and a
// line per replica (at most maxLanes, the rest counted).
func (v View) Text(f Frame) string {
	lines := []string{v.title(f), latencyLine(f), countsLine(f)}
	for i, r := range f.Replicas {
		if i == maxLanes {
			lines = append(lines, fmt.Sprintf("… and %d more replicas", len(f.Replicas)-maxLanes))
			break
		}
		lines = append(lines, fmt.Sprintf("replica %d: %s, %.0f%% of the last second's assignments", r.ID, laneLabel(r), r.Share*100))
	}
	if f.Err != "" {
		lines = append(lines, clip("stopped: "+f.Err, maxNote))
	}
	if v.Note != "" {
		lines = append(lines, clip(v.Note, maxNote))
	}
	return strings.Join(lines, "\n")
}

func (v View) title(f Frame) string {
	return fmt.Sprintf("live: %s on %s%s — %s", clip(f.Policy, maxName), clip(f.Scenario, maxName), v.seed(), v.clock(f))
}

func (v View) seed() string {
	if v.Seed == 0 {
		return ""
	}
	return fmt.Sprintf(", seed %d", v.Seed)
}

// clock is the simulated time, the end and how the session advances.
func (v View) clock(f Frame) string {
	t := fmt.Sprintf("%.2f s", f.Now/1000)
	if v.Until > 0 {
		t += fmt.Sprintf(" of %g s", v.Until/1000)
	}
	switch state(f) {
	case "running":
		if f.Speed == 0 {
			return t + ", as fast as possible"
		}
		return t + fmt.Sprintf(", %g simulated ms per second", f.Speed)
	case "error":
		return t + ", stopped by an error"
	}
	return t + ", " + state(f)
}

func state(f Frame) string {
	switch {
	case f.Err != "":
		return "error"
	case f.Done:
		return "ended"
	case f.Paused:
		return "paused"
	}
	return "running"
}

func latencyLine(f Frame) string {
	miss := "—"
	if f.SLOMissRate != nil {
		miss = fmt.Sprintf("%.1f%%", *f.SLOMissRate*100)
	}
	return fmt.Sprintf("p50 %s · p90 %s · p99 %s ms over the last 250 · SLO miss %s · throughput %.0f req/s",
		ms(f.P50), ms(f.P90), ms(f.P99), miss, f.Throughput)
}

func countsLine(f Frame) string {
	return fmt.Sprintf("rate %g req/s · arrivals %d · completed %d · shed %d · unfinished %d", f.Rate, f.Arrivals, f.Completed, f.Shed, f.Unfinished)
}

// laneLabel is the replica's health and queue: "failed · 0 waiting".
func laneLabel(r ReplicaFrame) string {
	health := "ok"
	switch {
	case !r.Healthy:
		health = "failed"
	case r.Slowdown != 1:
		health = "slowed ×" + strconv.FormatFloat(r.Slowdown, 'g', 3, 64)
	}
	late := 0
	for _, m := range r.Requests {
		if !m.OnTime {
			late++
		}
	}
	label := fmt.Sprintf("%s · %d waiting", health, r.Waiting)
	if late > 0 {
		label += fmt.Sprintf(", %d late", late)
	}
	return label
}

func sloColor(onTime bool) string {
	if onTime {
		return onTimeColor
	}
	return lateColor
}

// ms is a latency in ms, or an em dash before any completion.
func ms(x *float64) string {
	if x == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f", *x)
}

// num3 and num1 print numbers briefly for attributes and paths.
func num3(x float64) string { return strconv.FormatFloat(math.Round(x*1000)/1000, 'f', -1, 64) }
func num1(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) }

// clip shortens s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
