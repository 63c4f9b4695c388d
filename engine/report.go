package engine

import (
	"fmt"
	"io"

	"github.com/routelab/routelab/internal/record"
)

// Field is one named value of a record, as RunRecord makes them.
type Field = record.Field

// WriteCSV writes records as CSV with a header from the first record.
func WriteCSV(w io.Writer, records [][]Field) error { return record.WriteCSV(w, records) }

// RunRecord flattens one run: who and what it ran, then every metric of
// Metrics() in order.
func RunRecord(r *RunSummary) []Field { return runRecord(r, Metrics()) }

func runRecord(r *RunSummary, metrics []Metric) []Field {
	fields := []Field{
		{Name: "policy", Value: r.Policy}, {Name: "scenario", Value: r.Scenario}, {Name: "seed", Value: r.Seed},
		{Name: "workload_fingerprint", Value: fmt.Sprintf("%016x", r.Fingerprint)},
	}
	for _, m := range metrics {
		if m.Has(r) {
			fields = append(fields, Field{Name: m.Key, Value: m.recordValue(r)})
		}
	}
	return fields
}
