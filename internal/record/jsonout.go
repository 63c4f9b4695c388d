package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteIndented writes v as JSON indented by two spaces and a final
// newline: the bytes json.Encoder with SetIndent("", "  ") gives, but
// written as it goes, each record of a Seq formatted when its turn
// comes, so a result of a million runs is never one value in memory.
// Object, []Object and Seq values are written here; any other
// value is marshalled (NaN and infinities as null) and indented.
func WriteIndented(w io.Writer, v any) error {
	bw := bufio.NewWriter(w)
	if err := writeValue(bw, v, 0); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

func writeValue(w *bufio.Writer, v any, depth int) error {
	switch x := v.(type) {
	case Object:
		return writeObject(w, x, depth)
	case []Object:
		return writeArray(w, depth, func(elem func(any) error) error {
			for _, o := range x {
				if err := elem(o); err != nil {
					return err
				}
			}
			return nil
		})
	case Seq:
		return writeArray(w, depth, func(elem func(any) error) error {
			return x(func(r []Field) error { return elem(Object(r)) })
		})
	}
	raw, err := MarshalValue(v)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, indent(depth), "  "); err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

func writeObject(w *bufio.Writer, o Object, depth int) error {
	if len(o) == 0 {
		_, err := w.WriteString("{}")
		return err
	}
	w.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			w.WriteByte(',')
		}
		key, _ := json.Marshal(f.Name) // a string always encodes
		fmt.Fprintf(w, "\n%s%s: ", indent(depth+1), key)
		if err := writeValue(w, f.Value, depth+1); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	_, err := fmt.Fprintf(w, "\n%s}", indent(depth))
	return err
}

// writeArray writes the elements each passes to elem, as an array at depth.
func writeArray(w *bufio.Writer, depth int, each func(elem func(any) error) error) error {
	n := 0
	err := each(func(v any) error {
		if n == 0 {
			w.WriteByte('[')
		} else {
			w.WriteByte(',')
		}
		n++
		fmt.Fprintf(w, "\n%s", indent(depth+1))
		return writeValue(w, v, depth+1)
	})
	if err != nil {
		return err
	}
	if n == 0 {
		_, err = w.WriteString("[]")
	} else {
		_, err = fmt.Fprintf(w, "\n%s]", indent(depth))
	}
	return err
}

func indent(depth int) string { return strings.Repeat("  ", depth) }
