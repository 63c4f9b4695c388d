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
			offset = int64(i) + 1 // as if the key's first byte had just been read
		}
		err = fmt.Errorf("unknown field %s", key)
	}
	line, col := lineCol(data, offset)
	return fmt.Errorf("%s:%d:%d: %v", name, line, col, err)
}

// lineCol gives the 1-based line and column of the last byte read when an
// error occurred after offset bytes.
func lineCol(data []byte, offset int64) (int, int) {
	pos := min(max(offset-1, 0), int64(len(data)))
	before := data[:pos]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(pos) - bytes.LastIndexByte(before, '\n')
	return line, col
}
