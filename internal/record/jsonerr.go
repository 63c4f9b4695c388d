package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// DecodeStrict decodes JSON into v, rejecting unknown fields and trailing
// data, with errors that name the source and the line and column.
func DecodeStrict(data []byte, name string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("unexpected data after the top-level value")
	}
	if err == nil {
		return nil
	}
	if errors.Is(err, io.EOF) { // nothing but white space
		return fmt.Errorf("%s: the file is empty (want a JSON object)", name)
	}
	offset := dec.InputOffset()
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		offset = int64(len(data))
		err = errors.New("the JSON ends before its value does (truncated?)")
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
		what := fmt.Sprintf("field %q", typ.Field)
		if typ.Field == "" {
			what = "the file"
		}
		err = fmt.Errorf("%s: got JSON %s, want %s", what, typ.Value, jsonWant(typ.Type.Kind()))
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

// jsonWant names the JSON a Go kind decodes from: users read JSON, not the
// Go types behind it (engine.ScenarioFile, uint64).
func jsonWant(k reflect.Kind) string {
	switch k {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer >= 0"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	}
	return k.String()
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
