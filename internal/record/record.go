package record

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/routelab/routelab/internal/sheet"
)

// Field is one named value of a record. The names are the one snake_case
// spelling of each concept, shared by JSON and CSV output. A NaN value is
// undefined: null in JSON, empty in CSV, an em dash in text.
type Field struct {
	Name  string
	Value any // a number, a bool or a string
}

// formatCSV renders a value for CSV ("" for NaN).
func formatCSV(v any) string {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// WriteCSV writes records as CSV with a header from the first record.
func WriteCSV(w io.Writer, records [][]Field) error {
	return WriteCSVRows(w, SeqOf(records))
}

// Seq yields records one at a time: writers need never hold them all.
type Seq func(yield func([]Field) error) error

// SeqOf yields the records of a list.
func SeqOf(records [][]Field) Seq {
	return func(yield func([]Field) error) error {
		for _, r := range records {
			if err := yield(r); err != nil {
				return err
			}
		}
		return nil
	}
}

// Collect gathers the records of seq.
func (seq Seq) Collect() [][]Field {
	var out [][]Field
	_ = seq(func(r []Field) error {
		out = append(out, r)
		return nil
	})
	return out
}

// WriteCSVRows writes the records as CSV, row by row, with a header from the
// first record.
func WriteCSVRows(w io.Writer, records Seq) error {
	cw := csv.NewWriter(w)
	first := true
	err := records(func(rec []Field) error {
		if first {
			first = false
			names := make([]string, len(rec))
			for j, f := range rec {
				names[j] = f.Name
			}
			if err := cw.Write(names); err != nil {
				return err
			}
		}
		row := make([]string, len(rec))
		for j, f := range rec {
			row[j] = formatCSV(f.Value)
		}
		return cw.Write(row)
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// Object is an ordered JSON object.
type Object []Field

// MarshalValue marshals v as JSON, NaN and infinities as null.
func MarshalValue(v any) ([]byte, error) {
	if x, ok := v.(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// Objects are the records as ordered JSON objects.
func Objects(rs [][]Field) []Object {
	out := make([]Object, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}

// ValueText formats the field's value for people, by the unit its
// snake_case name carries; the records themselves keep full precision.
func (f Field) ValueText() string {
	x, ok := f.Value.(float64)
	if !ok {
		return fmt.Sprint(f.Value)
	}
	switch {
	case math.IsNaN(x):
		return "—"
	case strings.HasSuffix(f.Name, "_rate"), strings.HasSuffix(f.Name, "attainment"):
		return sheet.Percent(x)
	case strings.HasSuffix(f.Name, "_ms"), strings.HasSuffix(f.Name, "_rps"):
		return fmt.Sprintf("%.1f", x)
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// String is the field as name = value.
func (f Field) String() string { return f.Name + " = " + f.ValueText() }

// HTML shows the field.
func (f Field) HTML() string { return sheet.Sheet{Title: f.String()}.HTML() }
