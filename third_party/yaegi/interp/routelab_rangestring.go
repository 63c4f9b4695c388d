package interp

import (
	"reflect"
	"unicode/utf8"
)

// rangeString generates a range over a string: it decodes the string's
// UTF-8 from the byte offset kept in the frame, as Go does, each invalid
// byte giving utf8.RuneError with a width of 1. routelab patch: yaegi
// converted the string to []rune and took each index as the length of the
// runes before it converted back to a string, quadratic and wrong after an
// invalid byte (which comes back as 3 bytes: "string slice index out of
// bounds" in Go's stringrange.go), and a range over the indices only gave
// rune counts instead of byte offsets.
func rangeString(n *node) {
	index0 := n.child[0].findex // key
	index2 := index0 - 1        // the string
	index3 := index2 - 1        // the byte offset of the next rune
	index1 := -1                // the value, if any
	if len(n.child) == 4 && !isBlank(n.child[1]) {
		index1 = n.child[1].findex
	}
	value := genValue(n.child[len(n.child)-2])
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		s := f.data[index2].String()
		next := f.data[index3]
		pos := int(next.Int())
		if pos >= len(s) {
			return fnext
		}
		r, size := utf8.DecodeRuneInString(s[pos:])
		f.data[index0].SetInt(int64(pos))
		if index1 >= 0 {
			if v := f.data[index1]; v.Kind() == reflect.Int32 {
				v.SetInt(int64(r))
			} else {
				v.Set(reflect.ValueOf(r))
			}
		}
		next.SetInt(int64(pos + size))
		return tnext
	}
	first := n.exec
	n.child[0].exec = func(f *frame) bltn {
		f.data[index2] = value(f)
		f.data[index3].SetInt(0)
		return first
	}
}
