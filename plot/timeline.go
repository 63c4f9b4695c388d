package plot

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
)

// maxTimelinePoints bounds the points per series of a Timeline; longer
// timelines merge consecutive samples (see bucket).
const maxTimelinePoints = 400

// Timeline draws one run over time in four panels sharing the time axis:
// each replica's waiting queue, the rolling p99 (last 250 completions) with
// the SLO, the throughput (trailing 1000 ms), and each replica's share of
// the assignments made in each sample interval. Replicas are greys with a
// dash each (no policy is grey); the policy's lines take its colour. The
// warm-up is shaded and the measurement window marked; the scenario's
// events are shaded on every panel — a failure and its recovery, a
// slowdown and its restoration, a traffic change and its return as
// intervals, anything unpaired as a dashed line — and labelled above the
// plots, overlapping labels on separate rows. The run must have been
// recorded with RunSpec.SampleEvery > 0. A run does not record its
// protocol: WithProtocol gives it (engine.DefaultProtocol otherwise).
func Timeline(r *engine.RunResult, options ...Option) (*Figure, error) {
	if r == nil {
		return nil, errors.New("plot: nil run")
	}
	if r.Timeline == nil || len(r.Timeline.Points) == 0 {
		return nil, fmt.Errorf("plot: Timeline of policy %q, seed %d: the run has no timeline; run it with RunSpec.SampleEvery > 0 (ms between samples, e.g. 50)", r.Policy, r.Seed)
	}
	s, err := applyOptions(options, 1000)
	if err != nil {
		return nil, err
	}
	title := fmt.Sprintf("%s on %s, seed %d", r.Policy, r.Scenario, r.Seed)
	return s.build(figure{kind: "timeline", title: title, names: []string{r.Policy}, chart: lineChart,
		draw: func(l *layout) (float64, error) { return drawTimeline(l, r, title) }})
}

// The timeline's panels: headings (the last is set from the share
// window), axis names and preferred heights.
var (
	timelineHeads = [4]string{"waiting queue per replica", "rolling p99 (last 250 completions)", "throughput (trailing 1 s)", ""}
	timelineUnits = [4]string{"queue (requests)", "p99 (ms)", "throughput (req/s)", "share (%)"}
	timelinePH    = [4]float64{130, 100, 84, 100}
)

// sliderRoom is what the interactive zoom slider takes under the panels.
const sliderRoom = 44.0

func drawTimeline(l *layout, r *engine.RunResult, title string) (float64, error) {
	tl := r.Timeline
	pts, merged := bucket(tl.Points, maxTimelinePoints)
	n := len(tl.Points[0].Waiting)
	replicas := make([]string, n)
	for i := range replicas {
		replicas[i] = "replica " + strconv.Itoa(i+1)
	}
	events := timelineEvents(r.Events)
	share, window := shares(tl, merged)
	l.heading(title, timelineCaption(l.s.protocol, tl, n, merged, events))
	if l.s.paper {
		return drawTimelinePaper(l, r, pts, share, replicas)
	}
	l.legend(lineEntries(append(slices.Clone(replicas), r.Policy)), edge, l.w-2*edge)
	end := math.Max(pts[len(pts)-1].At, lastEvent(r.Events)) / 1000
	var yt [4]ticks
	var gutter float64
	for g := range 4 {
		yt[g] = timelineTicks(g, pts, l.s.protocol.SLO)
		gutter = math.Max(gutter, yGutter(yt[g]))
	}
	left := edge + gutter
	x, pw := fitX(l.w, left, func(pw float64) ticks { return linearTicks(0, end, pw, true, 10) })
	marksList := windowMarks(l.s.protocol, end, events)
	rows, nrows := labelRows(marksList, x, pw)
	heads := timelineHeads
	heads[3] = fmt.Sprintf("share of assignments per %g s", window/1000)
	ph, fixed := timelinePanelHeights(l, heads, pw, nrows)
	if ph[0] < 0 {
		return fixed, nil
	}
	timelinePanels(l, heads, x, yt, left, pw, ph, nrows)
	for g := range 4 {
		l.add(eventSeries(g, marksList))
	}
	l.labels(0, windowLabels(marksList, rows, yt[0].min, nrows))
	timelineSeriesIn(l, r, pts, share, replicas, 4)
	sloRule(l, pts, x, yt[1], pw, ph[1])
	l.tooltip("axis", timelineTooltip)
	l.raw["axisPointer"] = map[string]any{"link": []any{map[string]any{"xAxisIndex": "all"}}}
	return l.y - gap + edge, nil
}

// drawTimelinePaper lays a run out for a paper's page height: the queue and
// rolling p99 panels side by side across two columns, the queues alone in
// one column (the routing shows there; the caption lists the events). The
// events are shaded and dashed on each panel, unlabelled.
func drawTimelinePaper(l *layout, r *engine.RunResult, pts []engine.TimelinePoint, share [][]any, replicas []string) (float64, error) {
	np := 2
	legend := append(slices.Clone(replicas), r.Policy)
	if l.s.paperColumn() {
		np, legend = 1, replicas
	}
	l.legend(lineEntries(legend), edge, l.w-2*edge)
	end := math.Max(pts[len(pts)-1].At, lastEvent(r.Events)) / 1000
	var yt [4]ticks
	var gutter float64
	for g := range np {
		yt[g] = timelineTicks(g, pts, l.s.protocol.SLO)
		gutter = math.Max(gutter, yGutter(yt[g]))
	}
	x, pw := fitX(l.w, edge+float64(np)*gutter+float64(np-1)*24, func(pw float64) ticks { return linearTicks(0, end, pw, true, 8) })
	pw /= float64(np)
	headH := fontText.lineHeight()
	fixed := l.y + headH + 4 + xFooter(1) + edge
	ph := math.Max(l.h-fixed, 80)
	marksList := windowMarks(l.s.protocol, end, timelineEvents(r.Events))
	var grids []opts.Grid
	var xAxes, yAxes []any
	for g := range np {
		left := edge + gutter + float64(g)*(pw+24+gutter)
		l.text(fontText.wrap(timelineHeads[g], pw)[:1], fontText, left, l.y, "")
		grids = append(grids, gridAt(left, l.y+headH+4, pw, ph, l.w))
		xAxes = append(xAxes, x.axis(g, "time (s)", map[string]any{"nameGap": xNameGap()}))
		yAxes = append(yAxes, yt[g].axis(g, timelineUnits[g], map[string]any{"nameGap": yNameGap(yt[g])}))
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"], l.raw["yAxis"] = xAxes, yAxes
	for g := range np {
		l.add(eventSeries(g, marksList))
	}
	timelineSeriesIn(l, r, pts, share, replicas, np)
	if np > 1 {
		sloRule(l, pts, x, yt[1], pw, ph)
		l.raw["axisPointer"] = map[string]any{"link": []any{map[string]any{"xAxisIndex": "all"}}}
	}
	l.tooltip("axis", timelineTooltip)
	return fixed + ph, nil
}

// sloRule draws the SLO on the p99 panel (grid 1, pw × ph px), labelled
// where the p99 line does not cross the label.
func sloRule(l *layout, pts []engine.TimelinePoint, x, yt ticks, pw, ph float64) {
	slo := l.s.protocol.SLO
	l.add(marks(1, func(ss *charts.SingleSeries) { ss.MarkLines = rule("yAxis", slo) }))
	yPx := func(v float64) float64 { return ph - yt.px(v, ph) }
	var line pxMarks // the p99 line, which the SLO label must not cross
	for k := 1; k < len(pts); k++ {
		if a, b := pts[k-1], pts[k]; defined(a.P99) && defined(b.P99) {
			line.segs = append(line.segs, [4]float64{x.px(a.At/1000, pw), yPx(a.P99), x.px(b.At/1000, pw), yPx(b.P99)})
		}
	}
	l.labels(1, []placed{ruleLabel(fmt.Sprintf("SLO %g ms", slo), x, slo, yPx(slo), pw, line)})
}

// timelinePanels places the four panels' headings, grids and axes (the
// top panel's heading above the rows of event labels), and the zoom
// controls of the interactive figure.
func timelinePanels(l *layout, heads [4]string, x ticks, yt [4]ticks, left, pw float64, ph [4]float64, nrows int) {
	var grids []opts.Grid
	var xAxes, yAxes []any
	for g := range 4 {
		l.block(fontText.wrap(heads[g], pw), fontText, left, "")
		if g == 0 {
			l.y += float64(nrows)*fontSmall.lineHeight() + 4
		}
		grids = append(grids, gridAt(left, l.y+4, pw, ph[g], l.w))
		xname := ""
		if g == 3 {
			xname = "time (s)"
		}
		xAxes = append(xAxes, x.axis(g, xname, map[string]any{"nameGap": xNameGap()}))
		yAxes = append(yAxes, yt[g].axis(g, timelineUnits[g], map[string]any{"nameGap": yNameGap(yt[g])}))
		l.y += 4 + ph[g] + xFooter(boolInt(g == 3)) + gap
	}
	l.rect.SetGlobalOptions(charts.WithGridOpts(grids...))
	l.raw["xAxis"], l.raw["yAxis"] = xAxes, yAxes
	if !l.static {
		l.rect.SetGlobalOptions(charts.WithDataZoomOpts(
			opts.DataZoom{Type: "inside", XAxisIndex: []int{0, 1, 2, 3}, FilterMode: "none"},
			opts.DataZoom{Type: "slider", XAxisIndex: []int{0, 1, 2, 3}, FilterMode: "none"}))
		l.y += sliderRoom
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// timelineCaption says what was sampled, what is shaded and which events
// happened.
func timelineCaption(p engine.Protocol, tl *engine.Timeline, n, merged int, events []Event) string {
	sub := fmt.Sprintf("%s · sampled every %g ms", plural(n, "replica", "replicas"), tl.EveryMs)
	if merged > 1 {
		sub += fmt.Sprintf(" · each point merges %d samples (peak queue and p99, mean throughput)", merged)
	}
	sub += fmt.Sprintf("\nlight shading: warm-up 0–%g s; measured %g–%g s (cohort: arrivals in the window, no draining after it)",
		p.Warmup/1000, p.Warmup/1000, (p.Warmup+p.Measure)/1000)
	if len(events) > 0 {
		var names []string
		for _, e := range events {
			names = append(names, e.Label)
		}
		sub += "\nevents (darker shading, dashed lines): " + strings.Join(names, " · ")
	}
	return sub
}

// timelinePanelHeights are the panels' heights: the preferred ones, or
// shares of a fixed height (-1 and the least height when it cannot fit).
func timelinePanelHeights(l *layout, heads [4]string, pw float64, nrows int) ([4]float64, float64) {
	fixed := l.y + float64(nrows)*fontSmall.lineHeight() + 4 + xFooter(1) + edge
	for g := range 4 {
		fixed += float64(len(fontText.wrap(heads[g], pw)))*fontText.lineHeight() + 4 + xFooter(0) + gap
	}
	if !l.static {
		fixed += sliderRoom
	}
	ph := timelinePH
	if l.h == 0 {
		return ph, fixed
	}
	k := (l.h - fixed) / 414
	if k < 0.5 {
		return [4]float64{-1}, fixed + 207
	}
	for g := range ph {
		ph[g] *= k
	}
	return ph, fixed
}

// timelineTicks is panel g's y axis: from zero to the panel's peak (the
// SLO included on the p99 panel), 0–100 for shares.
func timelineTicks(g int, pts []engine.TimelinePoint, slo float64) ticks {
	var hi float64
	for _, p := range pts {
		switch g {
		case 0:
			for _, w := range p.Waiting {
				hi = math.Max(hi, float64(w))
			}
		case 1:
			if defined(p.P99) {
				hi = math.Max(hi, p.P99)
			}
		case 2:
			hi = math.Max(hi, p.Throughput)
		}
	}
	switch g {
	case 1:
		hi = math.Max(hi, slo*1.3)
	case 3:
		hi = 100
	}
	return linearTicks(0, math.Max(hi, 1), timelinePH[g]/2, false, 4) // fits panels down to half their height
}

// timelineSeries adds the queue, p99, throughput and share series.
func timelineSeriesIn(l *layout, r *engine.RunResult, pts []engine.TimelinePoint, share [][]any, replicas []string, np int) {
	lineOf := func(name, id string, st style, grid int, data []any) {
		if grid >= np {
			return
		}
		l.addLine(charts.SingleSeries{Name: name, Id: id, Type: "line", XAxisIndex: grid, YAxisIndex: grid, Data: data,
			ShowSymbol: opts.Bool(false), Symbol: string(st.Marker), ItemStyle: &opts.ItemStyle{Color: st.Color},
			LineStyle: &opts.LineStyle{Color: st.Color, Width: 1.5}}, st.Dash)
	}
	for i, name := range replicas {
		var queue []any
		for _, p := range pts {
			queue = append(queue, []any{round(p.At/1000, 3), p.Waiting[i]})
		}
		st := replicaStyle(i + 1)
		lineOf(name, "q:"+name, st, 0, queue)
		// Lines, not stacked areas: ECharts 5 stacks the x dimension when
		// both axes are value axes.
		lineOf(name, "s:"+name, st, 3, share[i])
	}
	var p99, thr []any
	for _, p := range pts {
		t := round(p.At/1000, 3)
		if defined(p.P99) {
			p99 = append(p99, []any{t, round(p.P99, 2)})
		} else {
			p99 = append(p99, []any{t, "-"})
		}
		thr = append(thr, []any{t, round(p.Throughput, 2)})
	}
	st := l.style(r.Policy)
	lineOf(r.Policy, "p:"+r.Policy, st, 1, p99)
	lineOf(r.Policy, "t:"+r.Policy, st, 2, thr)
}

// shareWindow is the shortest span over which assignment shares are
// computed: a 50 ms interval holds a handful of assignments, too few for a
// share that means anything.
const shareWindow = 500.0 // ms

// shares returns, per replica, its share (%) of the assignments made in
// each window of consecutive sample intervals (at least shareWindow long),
// and the window's length in ms. Windows without assignments are left out.
func shares(tl *engine.Timeline, merged int) ([][]any, float64) {
	k := max(merged, int(math.Ceil(shareWindow/tl.EveryMs-1e-9)), 1)
	pts := tl.Points
	n := len(pts[0].Assigned)
	out := make([][]any, n)
	for end := k; end < len(pts); end += k {
		var total int64
		for j := range n {
			total += pts[end].Assigned[j] - pts[end-k].Assigned[j]
		}
		if total <= 0 {
			continue
		}
		t := round(pts[end].At/1000, 3)
		for j := range n {
			out[j] = append(out[j], []any{t, round(100*float64(pts[end].Assigned[j]-pts[end-k].Assigned[j])/float64(total), 2)})
		}
	}
	return out, float64(k) * tl.EveryMs
}

// bucket merges runs of consecutive samples so that at most limit remain:
// each merged point has the last sample's time and cumulative counts, the
// peak queues and p99, and the mean throughput. It returns how many samples
// each point merges.
func bucket(pts []engine.TimelinePoint, limit int) ([]engine.TimelinePoint, int) {
	k := (len(pts) + limit - 1) / limit
	if k <= 1 {
		return pts, 1
	}
	var out []engine.TimelinePoint
	for start := 0; start < len(pts); start += k {
		group := pts[start:min(start+k, len(pts))]
		last := group[len(group)-1]
		m := engine.TimelinePoint{At: last.At, Assigned: last.Assigned, Waiting: make([]int, len(last.Waiting)), P99: math.NaN()}
		for _, p := range group {
			for i, w := range p.Waiting {
				m.Waiting[i] = max(m.Waiting[i], w)
			}
			if defined(p.P99) && (!defined(m.P99) || p.P99 > m.P99) {
				m.P99 = p.P99
			}
			m.Throughput += p.Throughput / float64(len(group))
		}
		out = append(out, m)
	}
	return out, k
}

// timelineTooltip lists every series under the pointer with its unit; the
// series id carries the panel ("q:", "p:", "t:", "s:").
const timelineTooltip = `function (ps) {
  var esc = function (s) { return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
  var unit = {q: " waiting", p: " ms p99", t: " req/s", s: "% of assignments"};
  var out = ps.length ? ["t = " + (+(+ps[0].axisValue).toFixed(2)) + " s"] : [];
  for (var i = 0; i < ps.length; i++) {
    var p = ps[i], v = p.value, u = unit[String(p.seriesId).charAt(0)];
    if (!u || !v || v[1] === "-" || v[1] === undefined) continue;
    out.push(p.Marker + esc(p.seriesName) + ": " + (+(+v[1]).toFixed(1)) + u);
  }
  return out.join("<br>");
}`

// timelineEvents turns a run's events into marks (x in seconds): a fail
// and the next recover of the same replica, a slowdown and the replica's
// next restore (or slowdown ×1), a traffic change and the next return to
// the base rate become intervals; anything else is an instant.
func timelineEvents(evs []engine.Event) []Event {
	var out []Event
	used := make([]bool, len(evs))
	for i, e := range evs {
		if used[i] {
			continue
		}
		label, ends := eventLabel(e)
		j := -1
		if ends != nil {
			for k := i + 1; k < len(evs); k++ {
				if !used[k] && ends(evs[k]) {
					j = k
					break
				}
			}
		}
		mark := Event{Label: label, Start: round(e.At/1000, 3)}
		if j >= 0 {
			// A rate change that ends an interval starts the next one.
			used[j] = !(evs[j].Kind == engine.EventSetRate || (evs[j].Kind == engine.EventScaleRate && evs[j].Value != 1))
			mark.End = round(evs[j].At/1000, 3)
			mark.Label += fmt.Sprintf(" %g–%g s", mark.Start, mark.End)
		} else {
			mark.Label += fmt.Sprintf(" at %g s", mark.Start)
		}
		out = append(out, mark)
	}
	return out
}

// eventLabel names an event and says which later event ends it (nil when
// nothing does).
func eventLabel(e engine.Event) (string, func(engine.Event) bool) {
	isRate := func(x engine.Event) bool { return x.Kind == engine.EventScaleRate || x.Kind == engine.EventSetRate }
	switch e.Kind {
	case engine.EventFail:
		return fmt.Sprintf("replica %d down", e.Replica), func(x engine.Event) bool {
			return x.Kind == engine.EventRecover && x.Replica == e.Replica
		}
	case engine.EventSlow:
		if e.Value == 1 {
			return fmt.Sprintf("replica %d back to speed", e.Replica), nil
		}
		return fmt.Sprintf("replica %d ×%g slower", e.Replica, e.Value), func(x engine.Event) bool {
			return x.Replica == e.Replica && (x.Kind == engine.EventRestore || (x.Kind == engine.EventSlow && x.Value == 1))
		}
	case engine.EventScaleRate:
		if e.Value == 1 {
			return "traffic back to base", nil
		}
		return fmt.Sprintf("traffic ×%g", e.Value), isRate
	case engine.EventSetRate:
		return fmt.Sprintf("rate %g req/s", e.Value), isRate
	case engine.EventRecover:
		return fmt.Sprintf("replica %d recovers", e.Replica), nil
	case engine.EventRestore:
		return fmt.Sprintf("replica %d restored", e.Replica), nil
	}
	return string(e.Kind), nil
}

// windowMarks are what the timeline shades and labels: the warm-up, the
// measurement window and the run's events, in that order.
func windowMarks(p engine.Protocol, end float64, events []Event) []timeMark {
	w, cut := p.Warmup/1000, (p.Warmup+p.Measure)/1000
	out := []timeMark{{Event{Label: fmt.Sprintf("warm-up 0–%g s", w), Start: 0, End: w}, "warm-up"}}
	if w <= end {
		out = append(out, timeMark{Event{Label: fmt.Sprintf("measured %g–%g s", w, cut), Start: w}, "window"})
	}
	for _, e := range events {
		out = append(out, timeMark{e, "event"})
	}
	return out
}

// timeMark is a shaded interval or a line on the time axis, and what it
// is: "warm-up", "window" or "event".
type timeMark struct {
	Event
	kind string
}

// labelRows gives each mark's label a row of the strip above the top
// panel: labels start at their mark (or end there, right-aligned, where
// they would pass the right edge), and labels that would overlap go to
// separate rows. It returns each label's row and alignment, and the count
// of rows.
func labelRows(ms []timeMark, x ticks, pw float64) ([]labelRow, int) {
	lo, hi := make([]float64, len(ms)), make([]float64, len(ms))
	out := make([]labelRow, len(ms))
	for i, m := range ms {
		px := (m.Start - x.min) / (x.max - x.min) * pw
		w := fontSmall.width(m.Label)
		out[i].align = "left"
		if px+w > pw {
			out[i].align = "right"
			if m.End > m.Start {
				px = (m.End - x.min) / (x.max - x.min) * pw
			}
		}
		lo[i], hi[i] = span(px, w, out[i].align)
	}
	rows, n := rowsFor(lo, hi, 8)
	for i := range out {
		out[i].row = rows[i]
	}
	return out, n
}

// labelRow is where a mark's label goes.
type labelRow struct {
	row   int
	align string
}

// windowLabels are the marks' labels in their rows (row 0 nearest the
// plot).
func windowLabels(ms []timeMark, rows []labelRow, y float64, nrows int) []placed {
	var out []placed
	for i, m := range ms {
		at := m.Start
		if rows[i].align == "right" && m.End > m.Start {
			at = m.End
		}
		out = append(out, placed{x: at, y: y, top: true, dy: -float64(rows[i].row+1)*fontSmall.lineHeight() - 4,
			lines: []string{m.Label}, font: fontSmall, align: rows[i].align, color: neutral})
	}
	return out
}

// eventSeries shades and draws the marks on a grid: the warm-up lighter
// than events, the measurement window's start as a dotted line.
func eventSeries(grid int, ms []timeMark) charts.SingleSeries {
	return marks(grid, func(s *charts.SingleSeries) {
		var areas, lines []any
		for _, m := range ms {
			fill := "rgba(134,142,150,0.20)"
			if m.kind == "warm-up" {
				fill = "rgba(134,142,150,0.09)"
			}
			switch {
			case m.End > m.Start:
				areas = append(areas, []any{map[string]any{"xAxis": m.Start, "itemStyle": map[string]any{"color": fill}}, map[string]any{"xAxis": m.End}})
			case m.kind == "window":
				lines = append(lines, map[string]any{"xAxis": m.Start, "lineStyle": map[string]any{"type": "dotted"}})
			default:
				lines = append(lines, map[string]any{"xAxis": m.Start})
			}
		}
		if len(areas) > 0 {
			s.MarkAreas = &opts.MarkAreas{Data: areas, MarkAreaStyle: opts.MarkAreaStyle{Label: &opts.Label{Show: opts.Bool(false)}}}
		}
		if len(lines) > 0 {
			s.MarkLines = &opts.MarkLines{Data: lines, MarkLineStyle: opts.MarkLineStyle{
				Symbol: []string{"none", "none"}, Label: &opts.Label{Show: opts.Bool(false)},
				LineStyle: &opts.LineStyle{Color: eventColor, Type: "dashed", Width: 1}}}
		}
	})
}

func lastEvent(evs []engine.Event) float64 {
	var t float64
	for _, e := range evs {
		t = math.Max(t, e.At)
	}
	return t
}
