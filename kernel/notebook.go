package kernel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/routelab/routelab/display"
)

// Notebook is an nbformat 4 notebook. Metadata the runner does not need is
// kept verbatim, so a notebook survives a read/write round trip.
type Notebook struct {
	Cells         []*Cell
	Metadata      map[string]json.RawMessage
	NBFormat      int
	NBFormatMinor int
}

// Cell is one notebook cell: "code", "markdown" or "raw".
type Cell struct {
	ID          string
	Type        string
	Source      string
	Metadata    map[string]json.RawMessage
	Attachments json.RawMessage // markdown and raw cells, kept verbatim
	// Code cells only.
	ExecutionCount *int
	Outputs        []*Output
}

// Output is one code-cell output: "stream", "display_data",
// "execute_result" or "error". Data values are strings, except JSON MIME
// types, which hold any JSON value.
type Output struct {
	Type           string
	Name, Text     string // stream
	Data           display.Bundle
	Metadata       map[string]json.RawMessage
	ExecutionCount *int     // execute_result
	EName, EValue  string   // error
	Traceback      []string // error

	displayID string // the transient display id, while running
}

// ReadNotebook reads and checks an nbformat 4 file. Errors name the file and
// the line:column of a JSON error, or the cell and field of a schema problem.
func ReadNotebook(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read notebook: %w", err)
	}
	return ParseNotebook(path, data)
}

// ParseNotebook parses notebook JSON; name is used in errors.
func ParseNotebook(name string, data []byte) (*Notebook, error) {
	var top struct {
		Cells         *[]json.RawMessage         `json:"cells"`
		Metadata      map[string]json.RawMessage `json:"metadata"`
		NBFormat      *int                       `json:"nbformat"`
		NBFormatMinor *int                       `json:"nbformat_minor"`
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the file is empty (want an nbformat 4 notebook)", name)
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%s: %s", name, describeJSONError(data, err))
	}
	switch {
	case top.NBFormat == nil:
		return nil, fmt.Errorf("%s: \"nbformat\" is missing (want 4)", name)
	case *top.NBFormat != 4:
		return nil, fmt.Errorf("%s: nbformat %d is not supported (want 4; `jupyter nbconvert --to notebook` upgrades older files)", name, *top.NBFormat)
	case top.NBFormatMinor == nil:
		return nil, fmt.Errorf("%s: \"nbformat_minor\" is missing", name)
	case top.Cells == nil:
		return nil, fmt.Errorf("%s: \"cells\" is missing", name)
	}
	nb := &Notebook{Metadata: top.Metadata, NBFormat: 4, NBFormatMinor: *top.NBFormatMinor}
	if nb.Metadata == nil {
		nb.Metadata = map[string]json.RawMessage{}
	}
	for i, raw := range *top.Cells {
		c, err := parseCell(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: cells[%d]%s", name, i, err)
		}
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

// fieldError names the offending field (as a JSON path suffix) of a cell.
type fieldError struct {
	path string
	msg  string
}

func (e *fieldError) Error() string { return e.path + ": " + e.msg }

func fieldErr(path, format string, args ...any) error {
	return &fieldError{path: path, msg: fmt.Sprintf(format, args...)}
}

func parseCell(raw json.RawMessage) (*Cell, error) {
	var c struct {
		ID             *string                    `json:"id"`
		CellType       *string                    `json:"cell_type"`
		Metadata       map[string]json.RawMessage `json:"metadata"`
		Source         json.RawMessage            `json:"source"`
		Attachments    json.RawMessage            `json:"attachments"`
		ExecutionCount *int                       `json:"execution_count"`
		Outputs        []json.RawMessage          `json:"outputs"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, asFieldError(err)
	}
	if c.CellType == nil {
		return nil, fieldErr(".cell_type", "missing (want \"code\", \"markdown\" or \"raw\")")
	}
	cell := &Cell{Type: *c.CellType, Metadata: c.Metadata, Attachments: c.Attachments, ExecutionCount: c.ExecutionCount}
	switch cell.Type {
	case "code", "markdown", "raw":
	default:
		return nil, fieldErr(".cell_type", "%q is not \"code\", \"markdown\" or \"raw\"", cell.Type)
	}
	if c.ID != nil {
		cell.ID = *c.ID
	}
	if cell.Metadata == nil {
		cell.Metadata = map[string]json.RawMessage{}
	}
	src, err := multiline(c.Source)
	if err != nil {
		return nil, fieldErr(".source", "%v", err)
	}
	cell.Source = src
	for i, o := range c.Outputs {
		out, err := parseOutput(o)
		if err != nil {
			return nil, fmt.Errorf(".outputs[%d]%w", i, err)
		}
		cell.Outputs = append(cell.Outputs, out)
	}
	return cell, nil
}

// asFieldError reports a type mismatch inside a cell by field name.
func asFieldError(err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fieldErr("."+typ.Field, "is a JSON %s, want %s", typ.Value, jsonKind(typ.Type.Kind().String()))
	}
	return fieldErr("", "%v", err)
}

// jsonKind names the JSON value a Go kind decodes from, not the Go type,
// which may be an unnamed struct no user should read.
func jsonKind(goKind string) string {
	switch goKind {
	case "map", "struct":
		return "an object"
	case "slice", "array":
		return "an array"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64":
		return "a number"
	case "bool":
		return "true or false"
	}
	return "a " + goKind
}

// multiline decodes nbformat's "string or list of strings".
func multiline(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", errors.New("missing (want a string or a list of strings)")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", fmt.Errorf("is %s, want a string or a list of strings", describeValue(raw))
	}
	return strings.Join(lines, ""), nil
}

func describeValue(raw json.RawMessage) string {
	switch t := bytes.TrimSpace(raw); {
	case len(t) == 0:
		return "empty"
	case t[0] == '{':
		return "an object"
	case t[0] == '[':
		return "a list with a non-string item"
	case t[0] == '"':
		return "a string"
	case t[0] == 't' || t[0] == 'f':
		return "a boolean"
	case t[0] == 'n':
		return "null"
	}
	return "a number"
}

func parseOutput(raw json.RawMessage) (*Output, error) {
	var o struct {
		OutputType     *string                    `json:"output_type"`
		Name           string                     `json:"name"`
		Text           json.RawMessage            `json:"text"`
		Data           map[string]json.RawMessage `json:"data"`
		Metadata       map[string]json.RawMessage `json:"metadata"`
		ExecutionCount *int                       `json:"execution_count"`
		EName          string                     `json:"ename"`
		EValue         string                     `json:"evalue"`
		Traceback      []string                   `json:"traceback"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, asFieldError(err)
	}
	if o.OutputType == nil {
		return nil, fieldErr(".output_type", "missing")
	}
	out := &Output{Type: *o.OutputType, Name: o.Name, Metadata: o.Metadata, ExecutionCount: o.ExecutionCount,
		EName: o.EName, EValue: o.EValue, Traceback: o.Traceback}
	switch out.Type {
	case "stream":
		text, err := multiline(o.Text)
		if err != nil {
			return nil, fieldErr(".text", "%v", err)
		}
		out.Text = text
	case "display_data", "execute_result":
		out.Data = display.Bundle{}
		for mime, v := range o.Data {
			if isJSONMIME(mime) {
				out.Data[mime] = v
				continue
			}
			s, err := multiline(v)
			if err != nil {
				return nil, fieldErr(fmt.Sprintf(".data[%q]", mime), "%v", err)
			}
			out.Data[mime] = s
		}
	case "error":
	default:
		return nil, fieldErr(".output_type", "%q is not stream, display_data, execute_result or error", out.Type)
	}
	return out, nil
}

func isJSONMIME(mime string) bool {
	return mime == display.JSON || strings.HasSuffix(mime, "+json")
}

// Marshal encodes the notebook as nbformat writes it: sorted keys, one-space
// indent, multi-line strings as lists of lines, a final newline. Cells of
// nbformat 4.5+ notebooks that lack an id get a deterministic one.
func (nb *Notebook) Marshal() ([]byte, error) {
	cells := make([]any, 0, len(nb.Cells))
	ids := map[string]bool{}
	for _, c := range nb.Cells {
		if c.ID != "" {
			ids[c.ID] = true
		}
	}
	for i, c := range nb.Cells {
		id := c.ID
		if nb.NBFormatMinor >= 5 && id == "" {
			id = freshID(ids, i)
		}
		cells = append(cells, c.jsonValue(nb.NBFormatMinor, id))
	}
	doc := map[string]any{
		"cells": cells, "metadata": orEmpty(nb.Metadata),
		"nbformat": nb.NBFormat, "nbformat_minor": nb.NBFormatMinor,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("cannot encode notebook: %w", err)
	}
	return buf.Bytes(), nil
}

// freshID makes a deterministic cell id (nbformat 4.5 requires ids).
func freshID(taken map[string]bool, index int) string {
	for n := 0; ; n++ {
		id := fmt.Sprintf("cell-%d", index)
		if n > 0 {
			id = fmt.Sprintf("cell-%d-%d", index, n)
		}
		if !taken[id] {
			taken[id] = true
			return id
		}
	}
}

func (c *Cell) jsonValue(minor int, id string) map[string]any {
	v := map[string]any{"cell_type": c.Type, "metadata": orEmpty(c.Metadata), "source": splitLines(c.Source)}
	if minor >= 5 {
		v["id"] = id
	}
	if c.Type == "code" {
		outs := make([]any, 0, len(c.Outputs))
		for _, o := range c.Outputs {
			outs = append(outs, o.jsonValue())
		}
		v["outputs"] = outs
		v["execution_count"] = c.ExecutionCount
	} else if len(c.Attachments) > 0 {
		v["attachments"] = c.Attachments
	}
	return v
}

func (o *Output) jsonValue() map[string]any {
	v := map[string]any{"output_type": o.Type}
	switch o.Type {
	case "stream":
		v["name"], v["text"] = o.Name, splitLines(o.Text)
	case "display_data", "execute_result":
		data := map[string]any{}
		for mime, d := range o.Data {
			if s, ok := d.(string); ok && splitMIME(mime) {
				data[mime] = splitLines(s)
			} else {
				data[mime] = d
			}
		}
		v["data"], v["metadata"] = data, orEmpty(o.Metadata)
		if o.Type == "execute_result" {
			v["execution_count"] = o.ExecutionCount
		}
	case "error":
		tb := o.Traceback
		if tb == nil {
			tb = []string{}
		}
		v["ename"], v["evalue"], v["traceback"] = o.EName, o.EValue, tb
	}
	return v
}

// splitMIME tells which bundle entries nbformat stores as lists of lines.
func splitMIME(mime string) bool {
	return strings.HasPrefix(mime, "text/") || mime == display.SVG || mime == "application/javascript"
}

// splitLines splits after each newline, as Python's splitlines(True).
func splitLines(s string) []string {
	out := []string{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func orEmpty(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return map[string]json.RawMessage{}
	}
	return m
}
