package plot

import (
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// This file holds go-echarts options that figure builders share, written so
// that they render correctly (go-echarts' own helpers for some of these
// produce options ECharts ignores).

// Toolbox returns a toolbox with save-as-image, box zoom and restore.
func Toolbox() opts.Toolbox {
	return opts.Toolbox{
		Show: opts.Bool(true),
		Feature: &opts.ToolBoxFeature{
			SaveAsImage: &opts.ToolBoxFeatureSaveAsImage{Show: opts.Bool(true), Type: "png", Title: "Save as PNG"},
			DataZoom: &opts.ToolBoxFeatureDataZoom{Show: opts.Bool(true),
				Title: map[string]string{"zoom": "Zoom", "back": "Undo zoom"}},
			Restore: &opts.ToolBoxFeatureRestore{Show: opts.Bool(true), Title: "Reset"},
		},
	}
}

// Zoom returns data zooms for the first x axis: wheel/drag inside the plot
// and a slider under it.
func Zoom() []opts.DataZoom {
	return []opts.DataZoom{
		{Type: "inside", XAxisIndex: []int{0}, FilterMode: "none"},
		{Type: "slider", XAxisIndex: []int{0}, FilterMode: "none"},
	}
}

// Event is something that happens during a run, drawn on a series whose x
// axis is time: an interval (End > Start) as a shaded band, an instant
// (End <= Start) as a dashed vertical line. Start and End are x-axis values.
type Event struct {
	Label      string
	Start, End float64
}

// eventColor reads on light and dark backgrounds alike.
const eventColor = "#868e96"

// EventMarks returns series options drawing events (a scenario's burst,
// straggler or failure) on the series they are given to; give them to one
// series only.
func EventMarks(events ...Event) charts.SeriesOpts {
	return func(s *charts.SingleSeries) {
		var areas, lines []any
		for _, e := range events {
			if e.End > e.Start {
				areas = append(areas, []any{
					map[string]any{"name": e.Label, "xAxis": e.Start},
					map[string]any{"xAxis": e.End},
				})
			} else {
				lines = append(lines, map[string]any{"name": e.Label, "xAxis": e.Start})
			}
		}
		if len(areas) > 0 {
			s.MarkAreas = &opts.MarkAreas{Data: areas, MarkAreaStyle: opts.MarkAreaStyle{
				Label:     &opts.Label{Show: opts.Bool(true), Color: eventColor, Formatter: "{b}", Position: "insideTop"},
				ItemStyle: &opts.ItemStyle{Color: "rgba(134,142,150,0.18)"},
			}}
		}
		if len(lines) > 0 {
			s.MarkLines = &opts.MarkLines{Data: lines, MarkLineStyle: opts.MarkLineStyle{
				Symbol:    []string{"none", "none"},
				Label:     &opts.Label{Show: opts.Bool(true), Color: eventColor, Formatter: "{b}", Position: "insideEndTop"},
				LineStyle: &opts.LineStyle{Color: eventColor, Type: "dashed", Width: 1},
			}}
		}
	}
}
