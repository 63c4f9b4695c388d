package plot

import (
	"math"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// The sample figures below cover every chart kind the figure builders use.
// Their data are formulas, so every run draws the same figures.

var samplePolicies = []string{"round-robin", "least-queue", "latency-aware", "adaptive", "random", "p2c"}

// injection is a policy name that would break out of a <script> element if
// any user string were embedded unescaped.
const injection = "</script><b>x"

type sample struct {
	name  string
	build func() Chart
}

var samples = []sample{
	{"bar", sampleBar},
	{"line-events", sampleLineEvents},
	{"line-log", sampleLineLog},
	{"heatmap", sampleHeatMap},
	{"scatter", sampleScatter},
	{"injection", sampleInjection},
}

func sampleFigure(t testing.TB, name string) *Figure {
	t.Helper()
	for _, s := range samples {
		if s.name == name {
			f, err := New(s.build(), Spec{ID: "sample-" + name})
			if err != nil {
				t.Fatalf("sample %s: %v", name, err)
			}
			return f
		}
	}
	t.Fatalf("no sample %q", name)
	return nil
}

func sampleBar() Chart {
	bar := charts.NewBar()
	bar.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: "Latency by policy", Subtitle: "10 seeds, burst scenario"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom"}),
		charts.WithToolboxOpts(Toolbox()),
		charts.WithYAxisOpts(opts.YAxis{Name: "latency (ms)", Type: "value"}),
	)
	bar.SetXAxis([]string{"p50", "p95", "p99"})
	for i, p := range samplePolicies {
		base := 12 + 3*float64(i)
		bar.AddSeries(p, []opts.BarData{{Value: base}, {Value: base * 2.1}, {Value: base * 3.4}})
	}
	return bar
}

func timeline(policy int) []opts.LineData {
	var out []opts.LineData
	for ms := 0; ms <= 15000; ms += 500 {
		s := float64(ms) / 1000
		v := 14 + 2*float64(policy) + 3*math.Sin(s*0.9+float64(policy))
		if s >= 6 && s < 9 {
			v *= 1.8 - 0.1*float64(policy)
		}
		out = append(out, opts.LineData{Value: []any{s, math.Round(v*100) / 100}})
	}
	return out
}

func sampleLineEvents() Chart {
	line := charts.NewLine()
	line.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: "p99 latency over a run"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom"}),
		charts.WithToolboxOpts(Toolbox()),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "inside"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "time (s)"}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "p99 (ms)",
			AxisLabel: &opts.AxisLabel{Formatter: opts.FuncOpts(`function (v) { return v + " ms"; }`)}}),
	)
	for i, p := range samplePolicies[:4] {
		o := []charts.SeriesOpts{charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)})}
		if i == 0 {
			o = append(o, EventMarks(Event{Label: "burst ×2", Start: 6, End: 9}, Event{Label: "straggler", Start: 5}))
		}
		line.AddSeries(p, timeline(i), o...)
	}
	return line
}

func sampleLineLog() Chart {
	line := charts.NewLine()
	line.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: "Latency CDF"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true)}),
		charts.WithDataZoomOpts(Zoom()...),
		charts.WithXAxisOpts(opts.XAxis{Type: "log", Name: "latency (ms)", Min: 1}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "fraction", Max: 1}),
	)
	for i, p := range samplePolicies[:3] {
		var pts []opts.LineData
		scale := 8 + 4*float64(i)
		for k := 1; k <= 40; k++ {
			q := float64(k) / 40
			pts = append(pts, opts.LineData{Value: []any{math.Round(-scale*math.Log(1-q*0.999)*100)/100 + 1, q}})
		}
		line.AddSeries(p, pts, charts.WithLineChartOpts(opts.LineChart{Step: "end", ShowSymbol: opts.Bool(false)}))
	}
	return line
}

func sampleHeatMap() Chart {
	rates := []string{"100/s", "175/s", "250/s"}
	conds := []string{"steady", "burst", "straggler", "failure"}
	var data []opts.HeatMapData
	for x := range rates {
		for y := range conds {
			data = append(data, opts.HeatMapData{Value: [3]any{x, y, math.Round(2 + 5*float64(x) + 3*float64(y) + 0.4*float64(x*y))}})
		}
	}
	hm := charts.NewHeatMap()
	hm.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: "SLO-miss rate (%), adaptive"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Data: rates, SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: conds, SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Min: 0, Max: 30, Orient: "horizontal", Left: "center", Bottom: "0",
			InRange: &opts.VisualMapInRange{Color: []string{"#2f9e44", "#fab005", "#e03131"}}}),
		charts.WithGridOpts(opts.Grid{Bottom: "70"}),
	)
	hm.AddSeries("adaptive", data, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true)}))
	return hm
}

func sampleScatter() Chart {
	sc := charts.NewScatter()
	sc.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: "Paired differences vs round-robin"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true)}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "seed"}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "Δ p99 (ms)"}),
	)
	for i, p := range samplePolicies[1:4] {
		var pts []opts.ScatterData
		for seed := 1; seed <= 10; seed++ {
			d := 1.5 - float64(i+1) + 2.5*math.Sin(float64(seed*(i+2)))
			pts = append(pts, opts.ScatterData{Value: []any{seed, math.Round(d*100) / 100}, SymbolSize: 10})
		}
		o := []charts.SeriesOpts{}
		if i == 0 {
			o = append(o, charts.WithMarkLineNameYAxisItemOpts(opts.MarkLineNameYAxisItem{Name: "no difference", YAxis: 0}))
		}
		sc.AddSeries(p, pts, o...)
	}
	return sc
}

// sampleInjection puts the injection string in every kind of user string.
func sampleInjection() Chart {
	bar := charts.NewBar()
	bar.SetGlobalOptions(
		charts.WithTitleOpts(opts.Title{Title: "Title " + injection}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Name: "axis " + injection}),
	)
	bar.SetXAxis([]string{"category " + injection, "plain"})
	bar.AddSeries(injection, []opts.BarData{{Value: 3}, {Value: 4}})
	bar.AddSeries("adaptive", []opts.BarData{{Value: 5}, {Value: 2}})
	return bar
}

func mathNaN() float64 { return math.NaN() }
