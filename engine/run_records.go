package engine

import (
	"io"

	"github.com/routelab/routelab/internal/record"
)

// Records of one run, for a single run saved on its own: its record, its
// replicas' shares and its timeline's samples, in the names and forms the
// comparison's records use.

// ReplicaRecord flattens a replica's share of the run's cohort; the serving
// model adds its figures.
func ReplicaRecord(r ReplicaResult) []Field {
	fields := []Field{{Name: "replica", Value: r.ID}, {Name: "assigned", Value: r.Assigned}, {Name: "completed", Value: r.Completed}, {Name: "mean_ms", Value: r.MeanMs}}
	if s := r.Serving; s != nil {
		fields = append(fields, Field{Name: "mean_batch", Value: s.MeanBatch}, Field{Name: "mean_kv_util", Value: s.MeanKVUtil},
			Field{Name: "prefix_hit_rate", Value: s.HitRate}, Field{Name: "preemptions", Value: s.Preemptions})
	}
	return fields
}

// WriteCSV writes the run's record (RunRecord) as a CSV header and one row.
func (r *RunResult) WriteCSV(w io.Writer) error {
	return record.WriteCSV(w, [][]Field{RunRecord(&r.RunSummary)})
}

// WriteJSON writes the run: its record's fields, "per_replica" (a record
// per replica), and, when the run kept them, "events" and "timeline" (a
// record per sample and replica, as Timeline.Records).
func (r *RunResult) WriteJSON(w io.Writer) error {
	o := record.Object(RunRecord(&r.RunSummary))
	replicas := make([][]Field, len(r.PerReplica))
	for i, rr := range r.PerReplica {
		replicas[i] = ReplicaRecord(rr)
	}
	o = append(o, Field{Name: "per_replica", Value: record.Objects(replicas)})
	if r.Timeline != nil {
		o = append(o, Field{Name: "events", Value: eventList(r.Timeline.Events)}, Field{Name: "timeline", Value: record.Objects(r.Timeline.Records())})
	}
	return record.WriteIndented(w, o)
}

// Records flattens the timeline: a record per sample and replica (long
// form, one row per replica at each time), with the run-wide rolling p99
// and throughput repeated on each; the serving model adds the replica's KV
// utilisation and its cumulative preemptions, cached and prefix tokens.
func (t *Timeline) Records() [][]Field {
	var out [][]Field
	for _, p := range t.Points {
		for i := range p.Waiting {
			fields := []Field{
				{Name: "at_ms", Value: p.At}, {Name: "replica", Value: i + 1}, {Name: "healthy", Value: p.Healthy[i]},
				{Name: "waiting", Value: p.Waiting[i]}, {Name: "in_flight", Value: p.InFlight[i]}, {Name: "assigned", Value: p.Assigned[i]},
			}
			if p.KVUtil != nil {
				fields = append(fields, Field{Name: "kv_util", Value: p.KVUtil[i]}, Field{Name: "preemptions", Value: p.Preemptions[i]},
					Field{Name: "cached_tokens", Value: p.CachedTokens[i]}, Field{Name: "prefix_tokens", Value: p.PrefixTokens[i]})
			}
			out = append(out, append(fields, Field{Name: "p99_ms", Value: p.P99}, Field{Name: "throughput_rps", Value: p.Throughput}))
		}
	}
	return out
}

// WriteCSV writes the timeline's records (Records).
func (t *Timeline) WriteCSV(w io.Writer) error { return record.WriteCSV(w, t.Records()) }

// WriteJSON writes the sampling interval, the events and the records.
func (t *Timeline) WriteJSON(w io.Writer) error {
	return record.WriteIndented(w, record.Object{{Name: "every_ms", Value: t.EveryMs}, {Name: "events", Value: eventList(t.Events)}, {Name: "samples", Value: record.Objects(t.Records())}})
}

// eventList is the events as the scenario file writes them ([] for none).
func eventList(events []Event) []Event {
	if events == nil {
		return []Event{}
	}
	return events
}
