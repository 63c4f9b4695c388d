package engine

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TraceRecord is one request of a replayed trace.
type TraceRecord struct {
	At     float64 `json:"arrival_ms"`
	Prompt int     `json:"prompt_tokens"`
	Output int     `json:"output_tokens"`
}

// ReadTrace parses a CSV trace: one request per line, "arrival_ms,
// prompt_tokens,output_tokens", arrival times non-decreasing and >= 0, an
// optional header line with exactly those names, '#' comment lines allowed.
// Errors name the source and the line.
func ReadTrace(r io.Reader, name string) ([]TraceRecord, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var out []TraceRecord
	for first := true; ; first = false {
		fields, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if first && isTraceHeader(fields) {
			continue
		}
		rec, err := parseTraceRecord(fields)
		if err == nil && len(out) > 0 && rec.At < out[len(out)-1].At {
			err = fmt.Errorf("arrival_ms %g is earlier than the previous line's %g (want non-decreasing times)", rec.At, out[len(out)-1].At)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, rec)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no requests (want lines of arrival_ms,prompt_tokens,output_tokens)", name)
	}
	return out, nil
}

func isTraceHeader(fields []string) bool {
	traceHeader := [...]string{"arrival_ms", "prompt_tokens", "output_tokens"}
	if len(fields) != len(traceHeader) {
		return false
	}
	for i, f := range fields {
		if strings.TrimSpace(f) != traceHeader[i] {
			return false
		}
	}
	return true
}

func parseTraceRecord(fields []string) (TraceRecord, error) {
	if len(fields) != 3 {
		return TraceRecord{}, fmt.Errorf("%d fields (want 3: arrival_ms,prompt_tokens,output_tokens)", len(fields))
	}
	at, err := strconv.ParseFloat(strings.TrimSpace(fields[0]), 64)
	if err != nil || !finite(at) || at < 0 {
		return TraceRecord{}, fmt.Errorf("arrival_ms %q (want a finite number >= 0)", fields[0])
	}
	p, err := strconv.Atoi(strings.TrimSpace(fields[1]))
	if err != nil || p < 0 {
		return TraceRecord{}, fmt.Errorf("prompt_tokens %q (want an integer >= 0)", fields[1])
	}
	o, err := strconv.Atoi(strings.TrimSpace(fields[2]))
	if err != nil || o < 0 {
		return TraceRecord{}, fmt.Errorf("output_tokens %q (want an integer >= 0)", fields[2])
	}
	return TraceRecord{At: at, Prompt: p, Output: o}, nil
}
