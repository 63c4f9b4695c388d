package engine

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// TraceRecord is one request of a replayed trace. The serving attributes are
// optional (zero: none); they matter only in a scenario with a serving
// section.
type TraceRecord struct {
	At     float64 `json:"arrival_ms"`
	Prompt int     `json:"prompt_tokens"`
	Output int     `json:"output_tokens"`
	// PrefixGroup names the shared system prompt the prompt starts with,
	// PrefixTokens long (at most Prompt).
	PrefixGroup  int `json:"prefix_group,omitempty"`
	PrefixTokens int `json:"prefix_tokens,omitempty"`
	// Session names a multi-turn conversation: the prompt starts with the
	// session's previous turn (its prompt and output).
	Session  int      `json:"session,omitempty"`
	Priority Priority `json:"priority,omitempty"`
}

// The trace's columns: three required, in this order, then optional ones
// named in the header in any order.
var (
	traceRequired = [...]string{"arrival_ms", "prompt_tokens", "output_tokens"}
	traceOptional = [...]string{"prefix_group", "prefix_tokens", "session", "priority"}
)

// ReadTrace parses a CSV trace: one request per line, "arrival_ms,
// prompt_tokens,output_tokens", arrival times non-decreasing and >= 0, an
// optional header line with exactly those names, '#' comment lines allowed.
// A header may name optional columns after the three: prefix_group,
// prefix_tokens (at most the prompt), session and priority (critical,
// standard or sheddable). Errors name the source and the line, and for the
// optional columns the column.
func ReadTrace(r io.Reader, name string) ([]TraceRecord, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var out []TraceRecord
	var optional []string // the optional columns the header named, in order
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
			if optional, err = traceColumns(fields, func(i int) int { _, c := cr.FieldPos(i); return c }); err != nil {
				return nil, fmt.Errorf("%s:%d:%w", name, line, err)
			}
			continue
		}
		rec, err := parseTraceRecord(fields, len(optional))
		if err == nil && len(out) > 0 && rec.At < out[len(out)-1].At {
			err = fmt.Errorf("arrival_ms %g is earlier than the previous line's %g (want non-decreasing times)", rec.At, out[len(out)-1].At)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if i, err := rec.setOptionals(optional, fields[3:]); err != nil {
			_, c := cr.FieldPos(3 + i)
			return nil, fmt.Errorf("%s:%d:%d: %w", name, line, c, err)
		}
		out = append(out, rec)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no requests (want lines of arrival_ms,prompt_tokens,output_tokens)", name)
	}
	return out, nil
}

// isTraceHeader tells a header line: it starts with the three required
// names.
func isTraceHeader(fields []string) bool {
	if len(fields) < len(traceRequired) {
		return false
	}
	for i, f := range traceRequired {
		if strings.TrimSpace(fields[i]) != f {
			return false
		}
	}
	return true
}

// traceColumns checks the header's optional columns; the error starts with
// the column of the bad name (col gives a field's column).
func traceColumns(fields []string, col func(i int) int) ([]string, error) {
	var out []string
	for i := len(traceRequired); i < len(fields); i++ {
		f := strings.TrimSpace(fields[i])
		switch {
		case !slices.Contains(traceOptional[:], f):
			return nil, fmt.Errorf("%d: unknown column %q (want prefix_group, prefix_tokens, session or priority after the three required)", col(i), f)
		case slices.Contains(out, f):
			return nil, fmt.Errorf("%d: column %q given twice", col(i), f)
		}
		out = append(out, f)
	}
	return out, nil
}

func parseTraceRecord(fields []string, optional int) (TraceRecord, error) {
	if want := 3 + optional; len(fields) != want {
		if optional == 0 {
			return TraceRecord{}, fmt.Errorf("%d fields (want 3: arrival_ms,prompt_tokens,output_tokens)", len(fields))
		}
		return TraceRecord{}, fmt.Errorf("%d fields (want %d, as the header names)", len(fields), want)
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

// setOptional parses the value of an optional column into the record.
func (r *TraceRecord) setOptional(col, v string) error {
	if col == "priority" {
		if _, ok := Priority(v).rank(); !ok {
			return fmt.Errorf("priority %q (want critical, standard, sheddable or empty)", v)
		}
		r.Priority = Priority(v)
		return nil
	}
	n := 0
	if v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 0 || n > MaxGroups {
			return fmt.Errorf("%s %q (want an integer from 0 to %d)", col, v, MaxGroups)
		}
	}
	switch col {
	case "prefix_group":
		r.PrefixGroup = n
	case "prefix_tokens":
		if n > r.Prompt {
			return fmt.Errorf("prefix_tokens %d is longer than the prompt's %d tokens (want at most prompt_tokens)", n, r.Prompt)
		}
		r.PrefixTokens = n
	case "session":
		r.Session = n
	}
	return nil
}

// setOptionals parses the optional columns' values into the record; on an
// error it returns the index of the column to blame.
func (r *TraceRecord) setOptionals(columns, values []string) (int, error) {
	for i, col := range columns {
		if err := r.setOptional(col, strings.TrimSpace(values[i])); err != nil {
			return i, err
		}
	}
	// A group goes with a prefix length: blame prefix_tokens if there is one.
	if (r.PrefixGroup == 0) == (r.PrefixTokens == 0) {
		return 0, nil
	}
	i := slices.Index(columns, "prefix_tokens")
	switch {
	case i < 0:
		return slices.Index(columns, "prefix_group"), fmt.Errorf("prefix_group %d without a prefix_tokens column (want the shared prefix's length)", r.PrefixGroup)
	case r.PrefixGroup == 0:
		return i, fmt.Errorf("prefix_tokens %d without a prefix_group (want the group the prefix is shared with, >= 1)", r.PrefixTokens)
	}
	return i, fmt.Errorf("prefix_tokens 0 with prefix_group %d (want the shared prefix's length, >= 1)", r.PrefixGroup)
}

// check is what a record must satisfy beyond its columns' own ranges; field
// prefixes the names in errors.
func (r TraceRecord) check(field string) error {
	switch {
	case r.Prompt < 0 || r.Output < 0:
		return fieldErr(field, fmt.Sprintf("%d/%d tokens", r.Prompt, r.Output), "token counts >= 0")
	case r.PrefixTokens < 0 || r.PrefixTokens > r.Prompt:
		return fieldErr(field+".prefix_tokens", r.PrefixTokens, fmt.Sprintf("0 to prompt_tokens = %d (a prefix is part of the prompt)", r.Prompt))
	case r.PrefixGroup < 0 || r.PrefixGroup > MaxGroups || (r.PrefixGroup == 0) != (r.PrefixTokens == 0):
		return fieldErr(field+".prefix_group", r.PrefixGroup, fmt.Sprintf("1 to %d with prefix_tokens > 0, 0 without", MaxGroups))
	case r.Session < 0 || r.Session > MaxGroups:
		return fieldErr(field+".session", r.Session, fmt.Sprintf("0 (none) to %d", MaxGroups))
	}
	if _, ok := r.Priority.rank(); !ok {
		return fieldErr(field+".priority", string(r.Priority), "critical, standard, sheddable or empty")
	}
	return nil
}
