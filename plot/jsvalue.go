package plot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// encodeJSON writes an option tree as compact JSON with sorted keys; a
// function becomes a string holding its source.
func encodeJSON(tree map[string]any) ([]byte, error) {
	var b bytes.Buffer
	if err := writeValue(&b, tree, false); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// encodeJS writes an option tree as a JavaScript expression for a <script>
// element: functions are code, and every string is a JSON string literal in
// which '<', '>' and '&' are \u escapes, so no user text (a title, a series
// or category name) can end the element or open a comment there.
func encodeJS(tree map[string]any) (string, error) {
	var b bytes.Buffer
	if err := writeValue(&b, tree, true); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writeValue(b *bytes.Buffer, v any, js bool) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(fmt.Sprint(x))
	case json.Number:
		b.WriteString(x.String())
	case string:
		writeString(b, x)
	case jsFunc:
		if js {
			b.WriteString(scriptSafe(string(x)))
		} else {
			writeString(b, string(x))
		}
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeValue(b, e, js); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			if err := writeValue(b, x[k], js); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("option holds a %T, which has no JSON form", v)
	}
	return nil
}

// writeString writes s as a JSON string; encoding/json escapes <, >, &,
// U+2028 and U+2029, which makes the literal safe inside <script> too.
func writeString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s) // a Go string always encodes
	b.Write(enc)
}

// scriptSafe keeps function source from closing a <script> element or
// opening an HTML comment in it. Inside the string and regular-expression
// literals where such text can legitimately occur, "<\/" and "<\!--" mean
// the same as "</" and "<!--".
func scriptSafe(code string) string {
	return strings.NewReplacer("</", `<\/`, "<!--", `<\!--`).Replace(code)
}

// jsString is a JavaScript string literal for s, safe inside <script>.
func jsString(s string) string {
	var b bytes.Buffer
	writeString(&b, s)
	return b.String()
}
