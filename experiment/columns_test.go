package experiment

import (
	"testing"

	"github.com/routelab/routelab/engine"
)

// Every summary column reads a metric of engine.Metrics that a summary
// reports: its median, or its range for a range column.
func TestSummaryColumnsReadSummarisedMetrics(t *testing.T) {
	metrics := map[string]engine.Metric{}
	for _, m := range engine.Metrics() {
		metrics[m.Key] = m
	}
	for _, serving := range []bool{false, true} {
		heads := map[string]bool{}
		for _, col := range SummaryColumns(serving) {
			m, ok := metrics[col.Key]
			switch {
			case !ok:
				t.Errorf("serving %v: column %q reads %q, not a metric", serving, col.Head, col.Key)
			case col.Range && m.Summary&engine.SummaryRange == 0, !col.Range && m.Summary&engine.SummaryMedian == 0:
				t.Errorf("serving %v: column %q reads %q, whose summary has no such figure", serving, col.Head, col.Key)
			case !col.Range && col.Format == nil:
				t.Errorf("serving %v: column %q has no format", serving, col.Head)
			case heads[col.Head]:
				t.Errorf("serving %v: two columns %q", serving, col.Head)
			}
			heads[col.Head] = true
		}
	}
}
