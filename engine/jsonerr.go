package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// decodeStrict decodes JSON into v, rejecting unknown fields and trailing
// data, with errors that name the source and the line and column.
func decodeStrict(data []byte, name string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("unexpected data after the top-level value")
	}
	if err == nil {
		return nil
	}
	offset := dec.InputOffset()
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
		err = fmt.Errorf("field %q: got JSON %s, want %s", typ.Field, typ.Value, typ.Type)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// The decoder reports no position for unknown fields; point at the key.
		key := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if i := bytes.Index(data, []byte(key)); i >= 0 {
			offset = int64(i) + 1
		}
		err = fmt.Errorf("unknown field %s", key)
	}
	line, col := lineCol(data, offset)
	return fmt.Errorf("%s:%d:%d: %v", name, line, col, err)
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, offset int64) (int, int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}
