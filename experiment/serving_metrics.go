package experiment

import "github.com/routelab/routelab/internal/sheet"

// servingColumns are the comparison table's columns for the serving model.
func servingColumns() []summaryColumn {
	sv := func(key, format string, scale float64) func(Summary) string {
		return func(s Summary) string { return sheet.Dash(format, scale*s.MedianOf(key)) }
	}
	return []summaryColumn{
		{"TTFT p99 ms", sv("ttft_p99_ms", "%.1f", 1)},
		{"ITL p99 ms", sv("itl_p99_ms", "%.1f", 1)},
		{"serving SLO", sv("serving_attainment", "%.2f%%", 100)},
		{"prefix hits", sv("prefix_hit_rate", "%.1f%%", 100)},
		{"preemptions", sv("preemptions", "%.0f", 1)},
	}
}
