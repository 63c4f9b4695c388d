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
// the assignments made in each sample interval. The scenario's events are
// marked on every panel: a failure and its recovery, a slowdown and its
// restoration, a traffic change and its return are drawn as intervals,
// anything unpaired as a dashed line. The run must have been recorded with
// RunSpec.SampleEvery > 0. A run does not record its protocol: the SLO line
// is at engine.DefaultSLO unless WithSLO says otherwise.
func Timeline(r *engine.RunResult, options ...Option) (*Figure, error) {
	if r == nil {
		return nil, errors.New("plot: nil run")
	}
	if r.Timeline == nil || len(r.Timeline.Points) == 0 {
		return nil, fmt.Errorf("plot: Timeline of policy %q, seed %d: the run has no timeline; run it with RunSpec.SampleEvery > 0 (ms between samples, e.g. 50)", r.Policy, r.Seed)
	}
	s, err := applyOptions(options, 1000, 764)
	if err != nil {
		return nil, err
	}
	tl := r.Timeline
	pts, merged := bucket(tl.Points, maxTimelinePoints)
	n := len(tl.Points[0].Waiting)
	replicas := make([]string, n)
	for i := range replicas {
		replicas[i] = "replica " + strconv.Itoa(i+1)
	}
	line := charts.NewLine()
	cv := newCanvas(line, &line.RectChart, "timeline", s, append(slices.Clone(replicas), r.Policy))
	line.SetGlobalOptions(charts.WithToolboxOpts(Toolbox()), charts.WithDataZoomOpts(
		opts.DataZoom{Type: "inside", XAxisIndex: []int{0, 1, 2, 3}, FilterMode: "none"},
		opts.DataZoom{Type: "slider", XAxisIndex: []int{0, 1, 2, 3}, FilterMode: "none"}))
	tops, heights := []int{100, 294, 434, 558}, []int{148, 100, 84, 110}
	var grids []opts.Grid
	var panels []map[string]any
	var xAxes []any
	heads := []string{"waiting queue per replica", "rolling p99 (last 250 completions)", "throughput (trailing 1 s)", ""}
	units := []string{"queue (requests)", "p99 (ms)", "throughput (req/s)", "share (%)"}
	end := math.Max(pts[len(pts)-1].At, lastEvent(r.Events)) / 1000
	var yAxes []any
	for g := range 4 {
		grids = append(grids, opts.Grid{Left: "70", Right: "36", Top: strconv.Itoa(tops[g]), Height: strconv.Itoa(heights[g])})
		panels = append(panels, panelTitle(heads[g], "70", tops[g]-22))
		x := valueAxis(g, "value", "", map[string]any{"min": 0, "max": round(end, 3)})
		if g == 3 {
			x["name"], x["nameGap"] = "time (s)", 24
		}
		xAxes = append(xAxes, x)
		y := valueAxis(g, "value", units[g], map[string]any{"nameGap": 44, "min": 0, "splitNumber": 3})
		if g == 3 {
			y["max"], y["interval"] = 100, 25
		}
		yAxes = append(yAxes, y)
	}
	line.SetGlobalOptions(charts.WithGridOpts(grids...))
	cv.raw["xAxis"], cv.raw["yAxis"] = xAxes, yAxes
	events := timelineEvents(r.Events)
	for g := range 4 {
		cv.add(eventSeries(g, events, g == 0))
	}
	share, window := shares(tl, merged)
	panels[3]["text"] = fmt.Sprintf("share of assignments per %g s", window/1000)
	timelineSeries(cv, r, pts, share, replicas)
	slo := s.slo
	cv.add(marks(1, func(ss *charts.SingleSeries) { ss.MarkLines = refLine("yAxis", slo, "SLO", "insideEndTop") }))
	cv.legend(append(replicas, r.Policy), map[string]any{"top": "74", "right": "36"})
	cv.tooltip("axis", timelineTooltip)
	cv.raw["axisPointer"] = map[string]any{"link": []any{map[string]any{"xAxisIndex": "all"}}}
	title := fmt.Sprintf("%s on %s, seed %d", r.Policy, r.Scenario, r.Seed)
	sub := fmt.Sprintf("%s · sampled every %g ms", plural(n, "replica", "replicas"), tl.EveryMs)
	if merged > 1 {
		sub += fmt.Sprintf(" · each point merges %d samples (peak queue and p99, mean throughput)", merged)
	}
	if len(events) > 0 {
		var names []string
		for _, e := range events {
			names = append(names, e.Label)
		}
		sub += "\nevents: " + strings.Join(names, " · ")
	}
	cv.titles(title, sub, panels...)
	return cv.figure(title)
}

// timelineSeries adds the queue, p99, throughput and share series.
func timelineSeries(cv *canvas, r *engine.RunResult, pts []engine.TimelinePoint, share [][]any, replicas []string) {
	lineOf := func(name, id string, grid int, data []any) charts.SingleSeries {
		c := cv.color(name)
		return charts.SingleSeries{Name: name, Id: id, Type: "line", XAxisIndex: grid, YAxisIndex: grid, Data: data,
			ShowSymbol: opts.Bool(false), Symbol: "none", ItemStyle: &opts.ItemStyle{Color: c},
			LineStyle: &opts.LineStyle{Color: c, Width: 1.5}}
	}
	for i, name := range replicas {
		var queue []any
		for _, p := range pts {
			queue = append(queue, []any{round(p.At/1000, 3), p.Waiting[i]})
		}
		cv.add(lineOf(name, "q:"+name, 0, queue))
		// Lines, not stacked areas: ECharts 5 stacks the x dimension when
		// both axes are value axes.
		cv.add(lineOf(name, "s:"+name, 3, share[i]))
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
	cv.add(lineOf(r.Policy, "p:"+r.Policy, 1, p99))
	cv.add(lineOf(r.Policy, "t:"+r.Policy, 2, thr))
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
    out.push(p.marker + esc(p.seriesName) + ": " + (+(+v[1]).toFixed(1)) + u);
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

// eventSeries marks events on a grid; only the top panel labels them.
func eventSeries(grid int, events []Event, labelled bool) charts.SingleSeries {
	return marks(grid, func(s *charts.SingleSeries) {
		EventMarks(events...)(s)
		if labelled {
			return
		}
		if s.MarkAreas != nil {
			s.MarkAreas.MarkAreaStyle.Label = &opts.Label{Show: opts.Bool(false)}
		}
		if s.MarkLines != nil {
			s.MarkLines.MarkLineStyle.Label = &opts.Label{Show: opts.Bool(false)}
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
