package engine

import (
	"io"

	"github.com/routelab/routelab/internal/record"
)

// Field is one named value of a record, as RunRecord makes them.
type Field = record.Field

// WriteCSV writes records as CSV with a header from the first record.
func WriteCSV(w io.Writer, records [][]Field) error { return record.WriteCSV(w, records) }

// RunRecord flattens one run: who and what it ran, then every metric of
// Metrics() in order. It is the start of the run's whole record
// (AppendRunJSON), which goes on with the figures no metric reports.
func RunRecord(r *RunSummary) []Field { return runRecord(r, Metrics()) }

func runRecord(r *RunSummary, metrics []Metric) []Field {
	var fields []Field
	for _, f := range identity() {
		fields = append(fields, Field{Name: f.name, Value: f.text(r)})
	}
	for _, m := range metrics {
		if m.Has(r) {
			fields = append(fields, Field{Name: m.Key, Value: m.recordValue(r)})
		}
	}
	return fields
}
